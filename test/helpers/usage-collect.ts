import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import { CursorClient, type RequestTimer } from '../../src/api/client.js';
import type { Session } from '../../src/auth/types.js';
import { type CollectUsageOptions, collectUsage } from '../../src/usage/collect.js';
import type { FakeAccount, RecordedRequest } from '../fake-cursor/server.js';
import type { Scene } from './scene.js';
import { WORKED_NOW } from './usage-builders.js';

/** collectUsage against the scene's fake cursor.com (test/helpers/scene.ts), shared by the usage-collect tests. */

const NOW = WORKED_NOW;
export const PLAIN_COOKIE = 'plain-session-cookie-value';
export const ME = { email: 'dev@acme.com', email_verified: true, name: 'Dev', sub: 'auth0|12345' };

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

/** collectUsage for `account` on a fresh fake in the scene; the client is closed with the scene. */
export async function collect(
  scene: Scene,
  account: Omit<FakeAccount, 'cookies'>,
  options: Partial<CollectUsageOptions> & { cookies?: string[]; timer?: RequestTimer } = {},
) {
  const fake = await scene.serve([{ cookies: options.cookies ?? [PLAIN_COOKIE], ...account }]);
  const client = new CursorClient({ baseUrl: fake.url, timer: options.timer });
  scene.defer(() => client.close());
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
 * Resolves once a request matching each path or predicate has arrived at the scene's fake: a handler that
 * waits on it can only answer if the client had those calls in flight at the same time.
 */
export function arrivals(scene: Scene, ...matches: RequestMatch[]): Promise<void> {
  const test = (match: RequestMatch) => (r: RecordedRequest) =>
    typeof match === 'string' ? r.path === match : match(r);
  return new Promise((resolve) => {
    const check = () => {
      const fake = scene.fake;
      if (fake && matches.every((match) => fake.requests.some(test(match)))) resolve();
      else setTimeout(check, 5);
    };
    check();
  });
}
