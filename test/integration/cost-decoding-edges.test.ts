/**
 * What cursor.com may send at the edges, through the whole `cost` command: a token count past 2^53 − 1 is
 * unknown (never 0) and its event keeps its cents; a money sum whose cents overflow is unknown, never a
 * number; a first page of `{"totalUsageEventsCount":0}` without the array is an empty window. The pages are
 * raw text, so the numbers reach the CLI exactly as cursor.com writes them (JSON.stringify cannot write
 * Int64.max).
 */
import { describe, expect, it } from 'vitest';
import type { FakeAccount } from '../fake-cursor/server.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const AT = String(NOW.getTime() - 3_600_000);
const INT64_MAX = '9223372036854775807';

/** Every events page answered with this text. */
const answer = (text: string): FakeAccount[] => [
  { cookies: [MANUAL_COOKIE_VALUE], events: () => ({ text }) },
];

/** One page of these events, written as they are, with a count that matches them. */
const rawPage = (events: string[]) =>
  answer(`{"totalUsageEventsCount":${events.length},"usageEventsDisplay":[${events.join(',')}]}`);

/** A gpt-5 event `n` ms before AT, with this token usage and any further fields (JSON text). */
const rawEvent = (n: number, tokenUsage: string, extra = '') =>
  `{"timestamp":"${Number(AT) - n}","model":"gpt-5","kind":"USAGE_EVENT_KIND_USAGE_BASED",` +
  `"tokenUsage":{${tokenUsage}}${extra}}`;

/** CodexBar's two-event page: 1 cent each, and a token count of Int64.max in `field`. */
const int64Page = (field: string) =>
  rawPage([
    rawEvent(0, `"${field}":${INT64_MAX},"totalCents":1`),
    rawEvent(1, `"${field}":${INT64_MAX},"totalCents":1`),
  ]);

const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens'];

describe('a token count past 2^53 − 1 is unknown, never 0, and its event keeps its cents', () => {
  it.each(TOKEN_FIELDS)(
    'JSON: %s of Int64.max on two events gives $0.02 with tokens unknown',
    async (field) => {
      const run = await runCost(int64Page(field), ['--json', '--days', '7'], { now: NOW });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const row = onlyRow(run);
      expect(row.last30DaysCostUSD).toBe(0.02);
      expect(row.apiRateCostUSD).toBe(0.02);
      expect(row).not.toHaveProperty('last30DaysTokens');
      expect(row.requestCounts).toEqual({ reported: 2, estimated: 0, unpriced: 0 });
      const totals = row.totals as Record<string, unknown>;
      expect(totals.totalCost).toBe(0.02);
      expect(totals).not.toHaveProperty('totalTokens');
      const daily = row.daily as Record<string, unknown>[];
      expect(daily).toHaveLength(1);
      expect(daily[0]).not.toHaveProperty('totalTokens');
      expect(daily[0]!.totalCost).toBe(0.02);
    },
  );

  it('text: the window shows $0.02 and no token figure, and the table shows — for the unknown counts', async () => {
    const run = await runCost(int64Page('inputTokens'), ['--days', '7'], {
      now: NOW,
      env: { COLUMNS: '160' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('\nToday: $0.02\n');
    expect(run.stdout).toContain('\nLast 7 days: $0.02\n');
    expect(run.stdout).not.toMatch(/\$0\.00|0 tokens|skipped/);
    expect(run.stdout).toMatch(/│ 2026-11-20 │ gpt-5 +│ +— │ +0 │ +0 │ +0 │ +— │ +\$0\.02 │/);
    expect(run.stdout).toContain('Requests: 2 reported');
  });

  it.each([
    ['2^53 − 1 is safe: kept exactly', '9007199254740991', 9_007_199_254_740_991],
    ['2^53 is not: unknown', '9007199254740992', undefined],
    ['2^53 − 1 as text is safe: kept exactly', '"9007199254740991"', 9_007_199_254_740_991],
    ['2^53 as text is not: unknown', '"9007199254740992"', undefined],
  ])('an input count of %s, and the event keeps its cent', async (_label, count, tokens) => {
    const run = await runCost(
      rawPage([rawEvent(0, `"inputTokens":${count},"totalCents":1`)]),
      ['--json', '--days', '7'],
      { now: NOW },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const row = onlyRow(run);
    expect(row.apiRateCostUSD).toBe(0.01);
    expect(row.last30DaysTokens).toBe(tokens);
    expect((row.totals as Record<string, unknown>).inputTokens).toBe(tokens);
    expect(row.requestCounts).toEqual({ reported: 1, estimated: 0, unpriced: 0 });
  });
});

describe('a money sum whose cents overflow is unknown, never a number', () => {
  const charged = (...cents: string[]) =>
    rawPage(
      cents.map((value, n) => rawEvent(n, '"inputTokens":10,"totalCents":1', `,"chargedCents":${value}`)),
    );

  it('JSON: two charges of 1.797e308 cents give no metered total', async () => {
    const run = await runCost(charged('1.797e308', '1.797e308'), ['--json', '--days', '7'], { now: NOW });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const row = onlyRow(run);
    expect(row).not.toHaveProperty('meteredCostUSD');
    expect(row.apiRateCostUSD).toBe(0.02);
    expect(row.provenance).toBe('listPriceEstimate');
  });

  it('JSON: one charge of 1.797e308 cents is a finite sum, shown as reported: its cents / 100, $1.797e306', async () => {
    const run = await runCost(charged('1.797e308'), ['--json', '--days', '7'], { now: NOW });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(onlyRow(run).meteredCostUSD).toBe(1.797e306);
  });

  it('text: two charges of 1.797e308 cents print no Cursor-metered figure and no metered column', async () => {
    const run = await runCost(charged('1.797e308', '1.797e308'), ['--days', '7'], {
      now: NOW,
      env: { COLUMNS: '160' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('\nLast 7 days: $0.02 · 20 tokens\n');
    expect(run.stdout).not.toMatch(/metered|Metered|\$3,5|\$1,7|Infinity|∞/);
  });

  it('text: one charge of 1.797e308 cents prints its metered figure in full', async () => {
    const run = await runCost(charged('1.797e308'), ['--days', '7'], { now: NOW, env: { COLUMNS: '160' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\nCursor-metered: \$1,797(,000){101}\.00 \(last 7 days\)\n/);
  });

  it('JSON: two reported costs of 1.797e308 cents give no API-rate total for their model', async () => {
    const run = await runCost(
      rawPage([
        rawEvent(0, '"inputTokens":10,"totalCents":1.797e308'),
        rawEvent(1, '"inputTokens":10,"totalCents":1.797e308'),
      ]),
      ['--json', '--days', '7'],
      { now: NOW },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const row = onlyRow(run);
    expect(row).not.toHaveProperty('apiRateCostUSD');
    expect(row).not.toHaveProperty('last30DaysCostUSD');
  });
});

describe('a first page of {"totalUsageEventsCount":0} without the array is an empty window', () => {
  it('JSON: no events, zero cost and tokens, no metered total', async () => {
    const run = await runCost(answer('{"totalUsageEventsCount":0}'), ['--json', '--days', '7'], { now: NOW });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const row = onlyRow(run);
    expect(row).toMatchObject({ last30DaysCostUSD: 0, last30DaysTokens: 0, daily: [] });
    expect(row).not.toHaveProperty('meteredCostUSD');
  });

  it('text: it says there were no events', async () => {
    const run = await runCost(answer('{"totalUsageEventsCount":0}'), ['--days', '7'], { now: NOW });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('\nLast 7 days: $0.00 · 0 tokens\n');
    expect(run.stdout).toContain('No usage events in this window.');
  });

  it('a count of 1 without the array is not: fewer events than reported is an error with no totals', async () => {
    const run = await runCost(answer('{"totalUsageEventsCount":1}'), ['--days', '7'], { now: NOW });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('received 0 of 1 events');
  });
});
