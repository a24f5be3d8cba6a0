import { afterEach } from 'vitest';
import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import { CursorClient, type RequestTimer } from '../../src/api/client.js';
import type { Session } from '../../src/auth/types.js';
import { type CollectUsageOptions, collectUsage } from '../../src/usage/collect.js';
import {
  type FakeAccount,
  type FakeCursor,
  type RecordedRequest,
  startFakeCursor,
} from '../fake-cursor/server.js';
import { WORKED_NOW } from './usage-helpers.js';

/** collectUsage against the real fake cursor.com, shared by the usage-collect tests. */

const NOW = WORKED_NOW;
export const PLAIN_COOKIE = 'plain-session-cookie-value';
export const ME = { email: 'dev@acme.com', email_verified: true, name: 'Dev', sub: 'auth0|12345' };

let fake: FakeCursor | undefined;
let client: CursorClient | undefined;

/** Call once per test file: closes the server and client after each test. */
export function closeFakeCursorAfterEach(): void {
  afterEach(async () => {
    await client?.close();
    await fake?.close();
    client = undefined;
    fake = undefined;
  });
}

export const plainSession = (extraCookies = ''): Session => ({
  source: 'manual',
  description: 'manual cookie header',
  cookieHeader: `WorkosCursorSessionToken=${PLAIN_COOKIE}${extraCookies}`,
});

export async function appSession(
  subject: string,
  userId: string,
): Promise<{ session: Session; cookie: string }> {
  const jwt = await makeJwt({ sub: subject, now: NOW });
  const cookie = sessionCookieValue(userId, jwt);
  return {
    cookie,
    session: {
      source: 'app',
      description: 'Cursor app token',
      cookieHeader: `WorkosCursorSessionToken=${cookie}`,
      jwt: { userId, subject, expiresAt: new Date(NOW.getTime() + 86_400_000) },
    },
  };
}

export async function run(
  account: Omit<FakeAccount, 'cookies'>,
  options: Partial<CollectUsageOptions> & { cookies?: string[]; timer?: RequestTimer } = {},
) {
  fake = await startFakeCursor({ accounts: [{ cookies: options.cookies ?? [PLAIN_COOKIE], ...account }] });
  client = new CursorClient({ baseUrl: fake.url, timer: options.timer });
  const log: string[] = [];
  const snapshot = await collectUsage({
    client,
    session: options.session ?? plainSession(),
    now: NOW,
    timeZone: 'UTC',
    log: (line) => log.push(line),
    ...options,
  });
  return { snapshot, log, requests: fake.requests };
}

export const routes = (requests: RecordedRequest[]) => requests.map((r) => r.path);

type RequestMatch = string | ((request: RecordedRequest) => boolean);

/**
 * Resolves once a request matching each path or predicate has arrived at the fake server: a handler that
 * waits on it can only answer if the client had those calls in flight at the same time.
 */
export function arrivals(...matches: RequestMatch[]): Promise<void> {
  const test = (match: RequestMatch) => (r: RecordedRequest) =>
    typeof match === 'string' ? r.path === match : match(r);
  return new Promise((resolve) => {
    const check = () => {
      if (fake && matches.every((match) => fake!.requests.some(test(match)))) resolve();
      else setTimeout(check, 5);
    };
    check();
  });
}
