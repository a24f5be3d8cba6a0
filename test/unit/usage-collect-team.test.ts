import { describe, expect, it } from 'vitest';
import type { FakeAccount, RecordedRequest } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';
import { WORKED_SAND } from '../helpers/usage-builders.js';
import { arrivals, collect, ME, plainSession, routes } from '../helpers/usage-collect.js';

const scene = useScene();

describe('collectUsage: team member budgets', () => {
  const TEAM_SUMMARY = {
    billingCycleStart: '2026-07-05T00:00:00.000Z',
    billingCycleEnd: '2026-08-05T00:00:00.000Z',
    membershipType: 'enterprise',
    limitType: 'team',
    individualUsage: { overall: { used: 7384, limit: 10000 }, onDemand: { used: 500, limit: 2000 } },
  };
  const colleague = (i: number) => ({
    userId: 1000 + i,
    email: `colleague${i}@acme.com`,
    name: `Colleague Number${i}`,
    role: 'member',
    spendCents: 1,
    overallSpendCents: 50_000 + i,
    monthlyLimitDollars: 200,
  });
  const mine = {
    userId: 991,
    email: 'Dev@Acme.com',
    name: 'Dev',
    role: 'member',
    overallSpendCents: 8421,
    effectivePerUserLimitDollars: 150,
    monthlyLimitDollars: 200,
  };
  /** 120 members over 3 pages of 50; the signed-in member is on page 3. */
  const spendPage = (page: number) => {
    const rows =
      page < 3
        ? Array.from({ length: 50 }, (_, i) => colleague((page - 1) * 50 + i))
        : [...Array.from({ length: 19 }, (_, i) => colleague(100 + i)), mine];
    return {
      teamMemberSpend: rows,
      totalMembers: 120,
      totalPages: 3,
      subscriptionCycleStart: '1790000000000',
    };
  };
  const pageOf = (req: RecordedRequest) => (req.body as { page: number }).page;
  const teamAccount = (overrides: Partial<FakeAccount> = {}): Omit<FakeAccount, 'cookies'> => ({
    usageSummary: { json: TEAM_SUMMARY },
    me: { json: ME },
    sand: { json: {} },
    legacyUsage: { json: {} },
    teams: { json: { teams: [{ id: 4211, name: 'Acme', role: 'member', seats: 25, hasBilling: true }] } },
    teamSpend: (req) => ({ json: spendPage(pageOf(req)) }),
    ...overrides,
  });
  const TEAM_BUDGET_PERCENT = (8421 / (150 * 100)) * 100;

  function expectNoColleagueData(snapshot: unknown, log: string[]) {
    const text = `${JSON.stringify(snapshot)}\n${log.join('\n')}`;
    expect(text).not.toMatch(/colleague|Colleague|50\d\d\d/);
  }

  it('a sole team and one matching member drive the primary; pages 2…N are fetched together', async () => {
    const { snapshot, log, requests } = await collect(
      scene,
      teamAccount({
        sand: async () => {
          // The team lookup must not wait for the Grok Bot status.
          await arrivals(scene, '/api/dashboard/teams');
          return { json: WORKED_SAND };
        },
        teamSpend: async (req) => {
          if (pageOf(req) === 2) await arrivals(scene, (r) => r.path === req.path && pageOf(r) === 3);
          return { json: spendPage(pageOf(req)) };
        },
      }),
    );
    const spend = requests.filter((r) => r.path === '/api/dashboard/get-team-spend');
    expect(spend.map((r) => r.body)).toEqual([
      { teamId: 4211, page: 1, pageSize: 50 },
      expect.objectContaining({ teamId: 4211, pageSize: 50 }),
      expect.objectContaining({ teamId: 4211, pageSize: 50 }),
    ]);
    expect(spend.map(pageOf).sort()).toEqual([1, 2, 3]);
    expect(routes(requests).indexOf('/api/dashboard/teams')).toBeLessThan(
      routes(requests).indexOf('/api/dashboard/get-team-spend'),
    );
    expect(snapshot.primary?.usedPercent).toBeCloseTo(TEAM_BUDGET_PERCENT, 10);
    expect(snapshot.primary?.resetsAt).toEqual(new Date('2026-08-05T00:00:00Z'));
    expect(snapshot.providerCost).toMatchObject({ used: 5, limit: 20 });
    expect(snapshot.extraRateWindows.map((e) => e.id)).toEqual(['cursor-grok-bot']);
    expectNoColleagueData(snapshot, log);
  });

  it('the seat count (plus a page of margin) sends every team-spend page in one round trip', async () => {
    const { snapshot, requests, log } = await collect(
      scene,
      teamAccount({
        // 75 seats predict 2 pages; the third page of members is covered by the one-page margin.
        teams: { json: { teams: [{ id: 4211, name: 'Acme', seats: 75 }] } },
        teamSpend: async (req) => {
          // Page 1 is answered only once page 3 has arrived: all three were requested together.
          if (pageOf(req) === 1) await arrivals(scene, (r) => r.path === req.path && pageOf(r) === 3);
          return { json: spendPage(pageOf(req)) };
        },
      }),
    );
    const spend = requests.filter((r) => r.path === '/api/dashboard/get-team-spend');
    expect(spend.map(pageOf).sort()).toEqual([1, 2, 3]);
    expect(snapshot.primary?.usedPercent).toBeCloseTo(TEAM_BUDGET_PERCENT, 10);
    expectNoColleagueData(snapshot, log);
  });

  it('portal-selected-team-id picks one of two teams', async () => {
    const { snapshot, requests } = await collect(
      scene,
      teamAccount({ teams: { json: { teams: [{ id: 4211 }, { id: 5000 }] } } }),
      { session: plainSession('; team_id=4211; portal-selected-team-id=5000') },
    );
    expect(
      requests.filter((r) => r.path === '/api/dashboard/get-team-spend').map((r) => r.body),
    ).toContainEqual({
      teamId: 5000,
      page: 1,
      pageSize: 50,
    });
    expect(snapshot.primary?.usedPercent).toBeCloseTo(TEAM_BUDGET_PERCENT, 10);
  });

  it.each([
    ['two teams and no selection', { teams: { json: { teams: [{ id: 4211 }, { id: 5000 }] } } }, ''],
    ['a selection the account is not in', {}, '; portal-selected-team-id=9999'],
  ])('%s stays on the summary without asking for team spend', async (_name, overrides, cookies) => {
    const { snapshot, requests } = await collect(scene, teamAccount(overrides), {
      session: plainSession(cookies),
    });
    expect(routes(requests)).not.toContain('/api/dashboard/get-team-spend');
    expect(snapshot.primary?.usedPercent).toBeCloseTo(73.84, 10);
  });

  it.each([
    [
      'inconsistent totalPages',
      (page: number) => ({ json: { ...spendPage(page), totalPages: page === 3 ? 4 : 3 } }),
    ],
    [
      'a short intermediate page',
      (page: number) => {
        const body = spendPage(page);
        return { json: page === 2 ? { ...body, teamMemberSpend: body.teamMemberSpend.slice(1) } : body };
      },
    ],
    ['a failed page', (page: number) => (page === 2 ? { status: 500, json: {} } : { json: spendPage(page) })],
    [
      'a truncated page',
      (page: number) =>
        page === 2 ? { text: JSON.stringify(spendPage(2)).slice(0, 400) } : { json: spendPage(page) },
    ],
    [
      'two matching members',
      (page: number) => {
        const body = spendPage(page);
        return {
          json: page === 1 ? { ...body, teamMemberSpend: [...body.teamMemberSpend.slice(1), mine] } : body,
        };
      },
    ],
    [
      'a non-positive limit',
      (page: number) => {
        const body = spendPage(page);
        const rows = body.teamMemberSpend.map((row) =>
          row === mine ? { ...mine, effectivePerUserLimitDollars: 0 } : row,
        );
        return { json: { ...body, teamMemberSpend: rows } };
      },
    ],
  ])('%s keeps the summary and leaks no other member', async (_name, answer) => {
    const { snapshot, log } = await collect(scene, teamAccount({ teamSpend: (req) => answer(pageOf(req)) }));
    expect(snapshot.primary?.usedPercent).toBeCloseTo(73.84, 10);
    expectNoColleagueData(snapshot, log);
  });

  it('an empty /auth/me email skips the team lookup', async () => {
    const { snapshot, requests } = await collect(
      scene,
      teamAccount({ me: { json: { ...ME, email: '  ' } } }),
    );
    expect(routes(requests)).not.toContain('/api/dashboard/teams');
    expect(snapshot.primary?.usedPercent).toBeCloseTo(73.84, 10);
  });

  it('a failed /auth/me skips the team lookup', async () => {
    const { requests } = await collect(scene, teamAccount({ me: { status: 500, json: {} } }));
    expect(routes(requests)).not.toContain('/api/dashboard/teams');
  });

  it('a lookup slower than its shared deadline keeps the summary', async () => {
    const { snapshot, log } = await collect(
      scene,
      teamAccount({
        // Page 3 never answers in time; /teams and pages 1-2 answer at once, well inside the deadline.
        teamSpend: (req) => ({ json: spendPage(pageOf(req)), delayMs: pageOf(req) === 3 ? 60_000 : 0 }),
      }),
      { timeouts: { teamDeadlineMs: 250 } },
    );
    expect(snapshot.primary?.usedPercent).toBeCloseTo(73.84, 10);
    expect(log.some((line) => line.includes('get-team-spend') && line.includes('timed out'))).toBe(true);
    expectNoColleagueData(snapshot, log);
  });
});
