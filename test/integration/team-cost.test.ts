/**
 * `codexbar team cost` in-process against the fake Admin API: text, JSON and CSV on a hand-checked
 * team, the pager's completeness rules under a changing count and a short count, a 429 storm that loses
 * nothing, the 60-a-minute limit never exceeded (the fake counts), 30-day pieces and --member.
 */
import { describe, expect, it } from 'vitest';
import { seedAdminEvents, seedMembers } from '../fake-cursor/admin-seed.js';
import type { AdminEventJson } from '../fake-cursor/admin-types.js';
import { expectNoKey, jsonRow, requestsTo, runTeam, type TeamRunOptions } from '../helpers/team-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const EVENTS = '/teams/filtered-usage-events';
const DAY_MS = 86_400_000;

const event = (
  iso: string,
  userEmail: string,
  model: string,
  kind: string,
  tokenUsage: AdminEventJson['tokenUsage'],
  chargedCents: number,
  cursorTokenFee?: number,
): AdminEventJson => ({
  timestamp: String(Date.parse(iso)),
  userEmail,
  model,
  kind,
  maxMode: false,
  isTokenBasedCall: true,
  tokenUsage,
  isFreeBugbot: false,
  chargedCents,
  ...(cursorTokenFee === undefined ? {} : { cursorTokenFee }),
});

const ANA = 'ana@example.test';
const BO = 'bo@example.test';

/**
 * ana: BYOK gpt-5 $0.20 (charged $0.05, fee $0.05), on-demand sonnet $3.10 (charged $3.50, fee $0.40),
 *      included sonnet $1.25 → $4.55 API-rate, $4.80 metered, $0.45 fee, 207,000 tokens.
 * bo:  included Auto $0.55 and gpt-5 $0.40 → $0.95, metered $0.95, no fee, 39,000 tokens.
 * Team: $5.50 API-rate, $5.75 metered, 246,000 tokens; today (07-20) $0.75 and 26,000 tokens.
 */
const TEAM_EVENTS: AdminEventJson[] = [
  event(
    '2026-07-20T12:00:00Z',
    ANA,
    'gpt-5',
    'User API Key',
    { inputTokens: 6000, outputTokens: 1000, totalCents: 20 },
    5,
    5,
  ),
  event(
    '2026-07-20T08:00:00Z',
    BO,
    'default',
    'Included in Business',
    { inputTokens: 15000, outputTokens: 4000, totalCents: 55 },
    55,
  ),
  event(
    '2026-07-19T09:15:00Z',
    ANA,
    'claude-4.5-sonnet',
    'Usage-based',
    {
      inputTokens: 20000,
      outputTokens: 5000,
      cacheWriteTokens: 10000,
      cacheReadTokens: 100000,
      totalCents: 310,
    },
    350,
    40,
  ),
  event(
    '2026-07-18T14:30:00Z',
    BO,
    'gpt-5',
    'Included in Business',
    { inputTokens: 8000, outputTokens: 2000, cacheReadTokens: 10000, totalCents: 40 },
    40,
  ),
  event(
    '2026-07-18T10:00:00Z',
    ANA,
    'claude-4.5-sonnet',
    'Included in Business',
    { inputTokens: 12000, outputTokens: 3000, cacheReadTokens: 50000, totalCents: 125 },
    125,
  ),
];

const cost = async (args: string[], options: Partial<TeamRunOptions> = {}) => {
  const result = await runTeam(['cost', ...args], {
    ...options,
    now: NOW,
    fake: { events: TEAM_EVENTS, ...options.fake },
  });
  expectNoKey(result);
  return result;
};

const kindRequests = (row: Record<string, unknown>) =>
  Object.values(row.byKind as Record<string, { requests: number }>).reduce(
    (sum, kind) => sum + kind.requests,
    0,
  );

describe('team cost output', () => {
  it("text: cost's lines and tables for the team, then the token fee and each member", async () => {
    const result = await cost(['--days', '3']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'Cursor Team Cost (API-rate estimate)',
        'Today: $0.75 · 26K tokens',
        'Last 3 days: $5.50 · 246K tokens',
        'Cursor-metered: $5.75 (last 3 days)',
        "From the Admin API's usage events at vendor token rates; may differ from your invoice.",
      ].join('\n'),
    );
    expect(result.stdout).toContain('  Included: $2.20 · 104K tokens · 3 requests · $2.20 metered');
    expect(result.stdout).toContain('  On-demand: $3.10 · 135K tokens · 1 request · $3.50 metered');
    expect(result.stdout).toContain('  BYOK: $0.20 · 7K tokens · 1 request · $0.05 metered');
    expect(result.stdout).toContain('Cursor token fee: $0.45 (part of Cursor-metered)');
    const members = result.stdout.slice(result.stdout.indexOf('By member:'));
    expect(members).toMatch(/│ ana@example\.test │ +3 │ +207,000 │ +\$4\.55 │ +\$4\.80 │ +\$0\.45 │/);
    expect(members).toMatch(/│ bo@example\.test +│ +2 │ +39,000 │ +\$0\.95 │ +\$0\.95 │ +\$0\.00 │/);
    expect(members).toMatch(/│ Total +│ +5 │ +246,000 │ +\$5\.50 │ +\$5\.75 │ +\$0\.45 │/);
  });

  it("JSON: cost's row for the team, plus the token fee and byMember", async () => {
    const row = jsonRow(await cost(['--days', '3', '--json']));
    expect(row).toMatchObject({
      provider: 'cursor',
      source: 'admin-api',
      historyDays: 3,
      last30DaysTokens: 246_000,
      window: { start: '2026-07-18T00:00:00Z', end: '2026-07-20T15:00:00Z', timeZone: 'UTC' },
    });
    expect(row.apiRateCostUSD).toBeCloseTo(5.5, 10);
    expect(row.meteredCostUSD).toBeCloseTo(5.75, 10);
    expect(row.tokenFeeUSD).toBeCloseTo(0.45, 10);
    const [ana, bo] = row.byMember as Array<Record<string, unknown>>;
    expect(ana).toMatchObject({ member: ANA, requests: 3, totalTokens: 207_000 });
    expect(ana!.apiRateCostUSD).toBeCloseTo(4.55, 10);
    expect(ana!.meteredCostUSD).toBeCloseTo(4.8, 10);
    expect((ana!.byKind as Record<string, { requests: number }>).onDemand!.requests).toBe(1);
    expect(bo).toMatchObject({ member: BO, requests: 2, totalTokens: 39_000, tokenFeeUSD: 0 });
  });

  it('CSV: one line per day, member and model', async () => {
    const result = await cost(['--days', '3', '--csv']);
    expect(result.stdout).toBe(
      [
        'date,member,model,requests,inputTokens,outputTokens,cacheWriteTokens,cacheReadTokens,totalTokens,apiRateCostUSD,meteredCostUSD',
        '2026-07-18,ana@example.test,claude-4.5-sonnet,1,12000,3000,0,50000,65000,1.25,1.25',
        '2026-07-18,bo@example.test,gpt-5,1,8000,2000,0,10000,20000,0.4,0.4',
        '2026-07-19,ana@example.test,claude-4.5-sonnet,1,20000,5000,10000,100000,135000,3.1,3.5',
        '2026-07-20,ana@example.test,gpt-5,1,6000,1000,0,0,7000,0.2,0.05',
        '2026-07-20,bo@example.test,default,1,15000,4000,0,0,19000,0.55,0.55',
        '',
      ].join('\r\n'),
    );
  });

  it('--member asks the API for one member; --verbose never names a member', async () => {
    const result = await cost(['--days', '3', '--member', BO, '--json', '-v']);
    expect(requestsTo(result, EVENTS)[0]!.body).toMatchObject({ email: BO, page: 1, pageSize: 1000 });
    expect((jsonRow(result).byMember as Array<{ member: string }>).map((m) => m.member)).toEqual([BO]);
    expect(result.stderr).toContain('[cursor-team] events piece 1/1 page 1: 2 events');
    expect(result.stderr).not.toContain('@');
  });
});

describe('team cost paging', () => {
  const members = seedMembers(20);
  /** Events spread over the `--days <days>` window, which starts at UTC midnight `days − 1` days ago. */
  const many = (count: number, days = 10) =>
    seedAdminEvents({
      members,
      count,
      start: new Date(Date.parse('2026-07-20T00:00:00Z') - (days - 1) * DAY_MS),
      end: NOW,
      seed: 11,
    });

  it('a count that changes between pages fails closed, with nothing on stdout', async () => {
    const result = await cost(['--days', '10'], {
      fake: { events: many(1500), eventsCount: (page, actual) => (page === 1 ? actual : actual + 1) },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'Error: Cursor cost pagination was inconsistent (expected 1500, received 1501 events).',
    );
  });

  it('fewer events than the count fail closed, as a JSON error row', async () => {
    const result = await cost(['--days', '10', '--json'], {
      fake: { events: many(1500), eventsCount: (_page, actual) => actual + 10 },
    });
    expect(result.code).toBe(1);
    expect(jsonRow(result)).toMatchObject({
      source: 'admin-api',
      error: { code: 1, message: 'Cursor cost refresh was incomplete (received 1500 of 1510 events).' },
    });
  });

  it('a 429 storm slows the run but loses no page', async () => {
    const events = many(3500);
    const result = await cost(['--days', '10', '--json'], {
      fake: {
        events,
        faults: [
          { path: EVENTS, page: 1, status: 429, times: 2 },
          { path: EVENTS, page: 3, status: 429, retryAfter: '18', times: 3 },
          { path: EVENTS, page: 2, status: 503, times: 1 },
        ],
      },
    });
    expect(result.code).toBe(0);
    expect(kindRequests(jsonRow(result))).toBe(events.length);
    expect(result.clock.sleeps.filter((ms) => ms === 18_000)).toHaveLength(3);
    const pages = requestsTo(result, EVENTS).map((request) => (request.body as { page: number }).page);
    expect(pages.filter((page) => page === 1)).toHaveLength(3);
    expect(pages.filter((page) => page === 3)).toHaveLength(4);

    const text = await cost(['--days', '10'], {
      fake: { events, faults: [{ path: EVENTS, page: 2, status: 429, retryAfter: '18', times: 1 }] },
      stderrTTY: true,
    });
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('Fetching usage events… page 1/4 · waiting 18 s for the rate limit');
  });

  it('a Retry-After of five minutes, the cap, is waited out, and the run completes', async () => {
    const events = many(1500);
    const result = await cost(['--days', '10', '--json'], {
      fake: { events, faults: [{ path: EVENTS, page: 2, status: 429, retryAfter: '300', times: 1 }] },
    });
    expect(result.code).toBe(0);
    expect(kindRequests(jsonRow(result))).toBe(events.length);
    expect(Math.max(...result.clock.sleeps)).toBe(300_000);
  });

  // One such 429 used to hold the family for the whole Retry-After: a timer Node runs after 1 ms, in a loop.
  it.each([
    ['301', 301],
    ['400', 400],
    ['999999999', 999_999_999],
    ['Fri, 31 Dec 9999 23:59:59 GMT', undefined],
  ])(
    'a Retry-After of %s, past the cap, fails at once: "rate limited", no wait, no retry',
    async (header, seconds) => {
      const result = await cost(['--days', '10', '--json'], {
        fake: {
          events: many(1500),
          faults: [{ path: EVENTS, page: 2, status: 429, retryAfter: header, times: 1 }],
        },
      });
      expect(result.code).toBe(1);
      const { message } = (jsonRow(result) as { error: { message: string } }).error;
      expect(message).toMatch(
        new RegExp(`^Cursor API error: rate limited for ${seconds ?? '\\d+'} s; try again later \\(`),
      );
      expect(result.clock.sleeps.filter((ms) => ms > 300_000)).toEqual([]);
      const pages = requestsTo(result, EVENTS).map((request) => (request.body as { page: number }).page);
      expect(pages.filter((page) => page === 2)).toHaveLength(1);
    },
  );

  it('more pages than 60 a minute: the client waits, and the fake never sees the limit exceeded', async () => {
    // Small events: this test is about the number of pages, not their contents.
    const first = Date.parse('2026-06-21T00:00:00Z');
    const events: AdminEventJson[] = Array.from({ length: 65_000 }, (_, i) => ({
      timestamp: String(first + i * 30_000),
      userEmail: members[i % members.length]!.email,
      model: 'gpt-5',
      kind: 'Included in Business',
      tokenUsage: { inputTokens: 100, totalCents: 0.01 },
      chargedCents: 0.01,
    }));
    const result = await cost(['--days', '30', '--json'], { fake: { events } });
    expect(result.code).toBe(0);
    expect(kindRequests(jsonRow(result))).toBe(65_000);
    const { stats } = result.fake;
    expect(stats.accepted.usageEvents).toBe(66);
    expect(stats.rateLimited.usageEvents).toBe(0);
    // At most 60: a request still in flight when the virtual clock jumps arrives "late", so the peak the
    // fake sees may be a little lower than the 60 the client sent in one window.
    expect(stats.peakInWindow.usageEvents).toBeLessThanOrEqual(60);
    expect(stats.peakInWindow.usageEvents).toBeGreaterThan(50);
    expect(result.clock.now() - NOW.getTime()).toBeGreaterThanOrEqual(60_000);
  });

  it('a 40-day window is paged in two 30-day pieces that meet exactly', async () => {
    const events = many(2500, 40);
    const result = await cost(['--days', '40', '--json'], { fake: { events } });
    expect(result.code).toBe(0);
    expect(kindRequests(jsonRow(result))).toBe(events.length);
    const bodies = requestsTo(result, EVENTS).map(
      (r) => r.body as { startDate: number; endDate: number; page: number },
    );
    const pieces = [...new Map(bodies.map((b) => [b.startDate, b])).values()];
    expect(pieces).toHaveLength(2);
    expect(pieces[1]!.startDate).toBe(pieces[0]!.endDate + 1);
    expect(pieces[1]!.endDate).toBe(NOW.getTime());
    for (const piece of pieces) expect(piece.endDate - piece.startDate).toBeLessThan(30 * DAY_MS);
  });
});
