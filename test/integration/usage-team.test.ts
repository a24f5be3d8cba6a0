import { describe, expect, it } from 'vitest';
import type { FakeAccount, FakeCursor, Handler, HandlerFunction } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';
import {
  ACME,
  acmePages,
  acmeSpendWith,
  LABS,
  MEMBER_EMAIL,
  memberRow,
  PAGE_SIZE,
  teamAccount,
  teamSpendHandler,
} from '../helpers/team-fixtures.js';
import { roundTripDepths } from '../helpers/timeline-proxy.js';
import { expectSuccess, requestedPaths, runUsage, usageJson } from '../helpers/usage-cli.js';

/**
 * Enterprise and Business member budgets, end to end: the
 * built CLI against the fake cursor.com, text and JSON, always with --verbose, and never a colleague in
 * the output (checked by every run).
 */

const NOW = new Date('2026-07-20T15:00:00Z');
const SESSION = 'team-session-cookie';
const COOKIE = `WorkosCursorSessionToken=${SESSION}`;
const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: COOKIE } });

const account = (overrides: Partial<FakeAccount> = {}) => teamAccount([SESSION], overrides);
/**
 * get-team-spend requests for the team's real pages. The lookup also asks for one page past what `seats`
 * predicts (a margin for teams with more members than seats) and cancels it once page 1 gives the count.
 */
const spendRequests = (fake: FakeCursor, pages = 3) =>
  fake.requests.filter(
    (request) =>
      request.path === '/api/dashboard/get-team-spend' && (request.body as { page: number }).page <= pages,
  );

/** What the summary alone says: overall 7384 of 10000 cents. */
const SUMMARY_PERCENT = 73.84;
/** The team pool and the member's own share of it, as CodexBar's card shows them. */
const TEAM_POOL_LINES = 'On-demand: $312.50 / $1,000.00\nYour spend: $44.71\n';
const TEAM_POOL_COST = {
  used: 312.5,
  limit: 1000,
  currencyCode: 'USD',
  period: 'Monthly',
  personalUsed: 44.71,
};

describe('usage: the member budget replaces the summary primary when one member is verified', () => {
  it('a sole team and one matching member: overallSpendCents / effectivePerUserLimitDollars (text)', async () => {
    const { result, fake } = await runUsage(scene, account(), { args: ['--no-color'] });
    expectSuccess(result);
    // 8421 cents of $150 is 56.14 % used; the billing dates stay the summary's.
    expect(result.stdout).toBe(
      [
        '== Cursor (web) ==',
        'Total: 44% left [=====-------]',
        'Pace: 6% in deficit | Expected 50% used | Runs out in 12d 4h',
        'Resets in 15d 9h',
        'On-demand: $312.50 / $1,000.00',
        'Your spend: $44.71',
        `Account: ${MEMBER_EMAIL}`,
        'Plan: Cursor Enterprise',
        '',
      ].join('\n'),
    );
    expect(spendRequests(fake).map((request) => request.body)).toEqual(
      expect.arrayContaining([1, 2, 3].map((page) => ({ teamId: ACME.id, page, pageSize: PAGE_SIZE }))),
    );
    expect(spendRequests(fake)).toHaveLength(3);
  });

  it('a sole team and one matching member: JSON primary and providerCost.personalUsed', async () => {
    const { result } = await runUsage(scene, account(), { args: ['--json'] });
    expectSuccess(result);
    const row = usageJson(result);
    expect(row.usage.primary?.usedPercent).toBeCloseTo((8421 / 15_000) * 100, 10);
    expect(row.usage.primary).toMatchObject({ windowMinutes: 44640, resetsAt: '2026-08-05T00:00:00Z' });
    expect(row.usage.providerCost).toMatchObject({ ...TEAM_POOL_COST, resetsAt: '2026-08-05T00:00:00Z' });
    // Additive: the dollars behind the primary percent.
    expect(row.usage.memberBudget).toEqual({ used: 84.21, limit: 150, currencyCode: 'USD' });
  });

  it('monthlyLimitDollars is the limit when effectivePerUserLimitDollars is absent', async () => {
    const me = memberRow({ effectivePerUserLimitDollars: undefined });
    const teamSpend = teamSpendHandler({ [ACME.id]: acmePages(me) });
    const text = await runUsage(scene, account({ teamSpend }), { args: ['--no-color'] });
    const json = await runUsage(scene, account({ teamSpend }), { args: ['--json'] });
    expectSuccess(text.result);
    expectSuccess(json.result);
    // 8421 cents of $200 is 42.1 % used.
    expect(text.result.stdout).toContain('Total: 58% left [======------]\n');
    expect(text.result.stdout).toContain(TEAM_POOL_LINES);
    expect(usageJson(json.result).usage.primary?.usedPercent).toBeCloseTo((8421 / 20_000) * 100, 10);
  });

  it('portal-selected-team-id in a manual cookie header picks that one of two teams', async () => {
    const twoTeams = account({ teams: { json: { teams: [ACME, LABS] } } });
    const cookieHeader = `${COOKIE}; portal-selected-team-id=${LABS.id}`;
    const text = await runUsage(scene, twoTeams, { args: ['--no-color'], cookieHeader });
    expectSuccess(text.result);
    // Team 5000's row: $30 of $100.
    expect(text.result.stdout).toContain('Total: 70% left [========----]\n');
    expect(text.result.stdout).toContain(TEAM_POOL_LINES);
    expect(new Set(spendRequests(text.fake, 2).map((request) => request.body))).toEqual(
      new Set([1, 2].map((page) => ({ teamId: LABS.id, page, pageSize: PAGE_SIZE }))),
    );

    const json = await runUsage(scene, twoTeams, { args: ['--json'], cookieHeader });
    expect(usageJson(json.result).usage.primary?.usedPercent).toBeCloseTo(30, 10);
  });
});

describe('usage: anything short of one verified member keeps the summary, and the run succeeds', () => {
  const twoTeams = { teams: { json: { teams: [ACME, LABS] } } };
  const withoutMe = acmePages(memberRow()).map((page) => page.teamMemberSpend);
  const cases: Array<[string, Partial<FakeAccount>, string?]> = [
    ['a selection naming a team the account is not in', twoTeams, `; portal-selected-team-id=9999`],
    ['two teams and no selection', twoTeams],
    [
      'inconsistent totalPages across pages',
      {
        teamSpend: acmeSpendWith((page, body) => ({ json: page === 3 ? { ...body, totalPages: 4 } : body })),
      },
    ],
    [
      'a short intermediate page',
      {
        teamSpend: acmeSpendWith((page, body) => ({
          json: page === 2 ? { ...body, teamMemberSpend: body.teamMemberSpend.slice(1) } : body,
        })),
      },
    ],
    [
      'a missing page (HTTP 500)',
      { teamSpend: acmeSpendWith((page, body) => (page === 2 ? { status: 500, json: {} } : { json: body })) },
    ],
    [
      'two matching members',
      {
        teamSpend: acmeSpendWith((page, body) => ({
          json: page === 1 ? { ...body, teamMemberSpend: [...withoutMe[0]!.slice(1), memberRow()] } : body,
        })),
      },
    ],
    [
      'a zero limit',
      {
        teamSpend: teamSpendHandler({ [ACME.id]: acmePages(memberRow({ effectivePerUserLimitDollars: 0 })) }),
      },
    ],
    [
      'a negative limit',
      {
        teamSpend: teamSpendHandler({
          [ACME.id]: acmePages(
            memberRow({ effectivePerUserLimitDollars: undefined, monthlyLimitDollars: -50 }),
          ),
        }),
      },
    ],
    ['an empty email from /api/auth/me', { me: { json: { email: '', name: 'Dev', sub: 'auth0|991' } } }],
  ];

  it.each(cases)('%s: summary primary and team pool kept, exit 0', async (_name, overrides, cookies = '') => {
    const cookieHeader = `${COOKIE}${cookies}`;
    const text = await runUsage(scene, account(overrides), { args: ['--no-color'], cookieHeader });
    expectSuccess(text.result);
    expect(text.result.stdout).toContain('Total: 26% left [===---------]\n');
    expect(text.result.stdout).toContain(TEAM_POOL_LINES);
    expect(text.result.stderr).toMatch(/team budget/i);

    const json = await runUsage(scene, account(overrides), { args: ['--json'], cookieHeader });
    expectSuccess(json.result);
    const row = usageJson(json.result);
    expect(row.usage.primary?.usedPercent).toBeCloseTo(SUMMARY_PERCENT, 10);
    expect(row.usage.providerCost).toMatchObject(TEAM_POOL_COST);
    expect(row.usage.memberBudget).toBeUndefined();
  });

  it('selections that verify no team never ask for team spend', async () => {
    for (const cookies of ['', `; portal-selected-team-id=9999`]) {
      const { fake } = await runUsage(scene, account(twoTeams), { cookieHeader: `${COOKIE}${cookies}` });
      expect(requestedPaths(fake)).toContain('/api/dashboard/teams');
      expect(requestedPaths(fake)).not.toContain('/api/dashboard/get-team-spend');
    }
  });

  it('an empty email skips the team endpoints altogether', async () => {
    const { fake } = await runUsage(scene, account({ me: { json: { email: '  ', sub: 'auth0|991' } } }));
    expect(requestedPaths(fake)).not.toContain('/api/dashboard/teams');
  });
});

describe('usage: a team member costs at most three round trips', () => {
  it('every team-spend page arrives before any is answered; /teams follows the answered summary', async () => {
    // Each round trip's requests hold their answers until all of that round have arrived, so a request
    // sent only after another was answered shows up one round deeper, and no clock decides the order.
    // ACME's 120 seats predict its 3 team-spend pages, plus the margin page 4 asked for with them.
    const early: string[] = [];
    const first = gate(['/api/usage-summary', '/api/auth/me', '/api/dashboard/get-sand-usage-status'], early);
    const second = gate(['/api/dashboard/teams', '/api/usage'], early);
    const spend = gate(['page 1', 'page 2', 'page 3', 'page 4'], early);
    const held = (round: Gate, handler: Handler | undefined): HandlerFunction => {
      return async (request, attempt) => {
        const page = (request.body as { page?: number } | undefined)?.page;
        await round.arrive(page === undefined ? request.path : `page ${page}`);
        return typeof handler === 'function' ? handler(request, attempt) : (handler ?? { status: 404 });
      };
    };
    const base = account();

    const { result, timeline } = await runUsage(
      scene,
      {
        ...base,
        usageSummary: held(first, base.usageSummary),
        me: held(first, base.me),
        sand: held(first, base.sand),
        teams: held(second, base.teams),
        legacyUsage: held(second, base.legacyUsage),
        teamSpend: held(spend, base.teamSpend),
      },
      { args: ['--json'], timeline: true },
    );
    expectSuccess(result);
    expect(early).toEqual([]);
    expect(usageJson(result).usage.primary?.usedPercent).toBeCloseTo((8421 / 15_000) * 100, 10);

    const events = timeline!.events;
    const position = (kind: 'arrived' | 'answered', path: string) =>
      events.findIndex((event) => event.kind === kind && event.path === path);
    const spendEvents = events.filter((event) => event.path === '/api/dashboard/get-team-spend');
    const lastSpendArrival = spendEvents.findLastIndex((event) => event.kind === 'arrived');
    const firstSpendAnswer = spendEvents.findIndex((event) => event.kind === 'answered');
    // Pages 1-3, plus the margin page 4 that is not needed once page 1 says there are three.
    expect(spendEvents.filter((event) => event.kind === 'arrived')).toHaveLength(4);
    expect(lastSpendArrival).toBeLessThan(firstSpendAnswer);
    expect(position('answered', '/api/usage-summary')).toBeGreaterThanOrEqual(0);
    expect(position('arrived', '/api/dashboard/teams')).toBeGreaterThan(
      position('answered', '/api/usage-summary'),
    );

    // Round trip 1: summary, auth/me, Grok Bot; 2: /teams (and /api/usage); 3: every team-spend page.
    const depths = roundTripDepths(events);
    const depthOf = (path: string) => [
      ...new Set(
        events
          .filter((event) => event.kind === 'arrived' && event.path === path)
          .map((e) => depths.get(e.id)),
      ),
    ];
    expect(depthOf('/api/usage-summary')).toEqual([1]);
    expect(depthOf('/api/auth/me')).toEqual([1]);
    expect(depthOf('/api/dashboard/get-sand-usage-status')).toEqual([1]);
    expect(depthOf('/api/dashboard/teams')).toEqual([2]);
    expect(depthOf('/api/dashboard/get-team-spend')).toEqual([3]);
    expect(Math.max(...depths.values())).toBe(3);
  });
});

interface Gate {
  /** Resolves once every key of the gate has arrived (a key outside the gate just waits with them). */
  arrive(key: string): Promise<void>;
}

/**
 * A round trip's worth of requests. One that waits in vain is let through after 3 s anyway (so a wrong
 * client fails an assertion instead of hanging) and is written down in `early`.
 */
function gate(keys: readonly string[], early: string[]): Gate {
  const arrived = new Set<string>();
  let release: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    async arrive(key) {
      arrived.add(key);
      if (keys.every((k) => arrived.has(k))) release();
      if (!(await settlesWithin(allArrived, 3_000))) early.push(key);
    },
  };
}

/** True when `promise` settles first, false when `ms` pass first; the timer never outlives the race. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), giveUp]);
  } finally {
    clearTimeout(timer);
  }
}
