import { WORKED_ME, WORKED_NOW, WORKED_SAND, WORKED_SUMMARY } from '../../fixtures/worked-example.js';
import { generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import type { TestToken } from './home.js';

/** The Pro plan's billing cycle, the same for every sample summary here. */
const PRO_CYCLE = {
  billingCycleStart: '2026-11-15T00:00:00.000Z',
  billingCycleEnd: '2026-12-15T00:00:00.000Z',
  membershipType: 'pro',
  limitType: 'user',
};

/** A token-based Pro account mid-cycle: what most cursor.com users answer. */
export function proAccount(
  cookies: string[],
  email = 'dev@example.com',
  overrides: Partial<FakeAccount> = {},
): FakeAccount {
  return {
    cookies,
    usageSummary: {
      json: {
        ...PRO_CYCLE,
        individualUsage: {
          plan: {
            enabled: true,
            used: 900,
            limit: 2000,
            autoPercentUsed: 30,
            apiPercentUsed: 60,
            totalPercentUsed: 45,
          },
          onDemand: { enabled: true, used: 1234, limit: 5000 },
        },
        teamUsage: {},
      },
    },
    me: { json: { email, name: 'Dev', sub: `auth0|${cookies[0]?.split('%3A%3A')[0] ?? 'x'}` } },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand: { status: 404, json: {} },
    ...overrides,
  };
}

/** A Pro usage-summary whose Total (primary) window is `percent` used. */
export function summaryWithPercent(percent: number): FakeAccount['usageSummary'] {
  return {
    json: {
      ...PRO_CYCLE,
      individualUsage: {
        plan: { enabled: true, used: 900, limit: 2000, totalPercentUsed: percent },
        onDemand: { enabled: true, used: 0, limit: 5000 },
      },
      teamUsage: {},
    },
  };
}

/** One Pro account per token, answering as `<userId>@example.com`, so a test sees which source was used. */
export function tokenAccounts(tokens: readonly TestToken[]): FakeAccount[] {
  return tokens.map((token) => proAccount([token.cookieValue], `${token.userId}@example.com`));
}

/** The account email of a `usage --json` run. */
export const emailOf = (stdout: string): string => JSON.parse(stdout)[0].usage.accountEmail;

/** The Cookie headers usage-summary received, in arrival order: which account's cookie was used. */
export const summaryCookies = (server: FakeCursor): string[] =>
  server.requests.filter((r) => r.path === '/api/usage-summary').map((r) => r.headers.cookie ?? '');

/**
 * The worked example's account (fixtures/worked-example.ts) for `cookie`, with `events` cost events over the
 * 20 days before its clock when asked: what the process-level tests run every command against.
 */
export function workedAccount(
  cookie: string,
  overrides: Partial<FakeAccount> = {},
  events?: { count: number; seed: number },
): FakeAccount {
  return {
    cookies: [cookie],
    usageSummary: { json: WORKED_SUMMARY },
    me: { json: WORKED_ME },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand: { json: WORKED_SAND },
    ...(events
      ? {
          events: {
            events: generateEvents({
              count: events.count,
              start: new Date(WORKED_NOW.getTime() - 20 * 86_400_000),
              end: WORKED_NOW,
              seed: events.seed,
            }),
          },
        }
      : {}),
    ...overrides,
  };
}
