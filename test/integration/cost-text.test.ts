/**
 * Text goldens for `codexbar cost` (CodexBar's lines, then the table and totals)
 * on a small hand-written account: five events over three days, TZ=UTC, now pinned, stdout a pipe (no colour,
 * no chart). The figures were worked out by hand from the events below before the output was compared.
 */
import { describe, expect, it } from 'vitest';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');

const event = (
  iso: string,
  model: string,
  kind: string,
  tokenUsage: UsageEventJson['tokenUsage'],
  chargedCents: number,
): UsageEventJson => ({
  timestamp: String(Date.parse(iso)),
  model,
  kind: `USAGE_EVENT_KIND_${kind}`,
  tokenUsage,
  chargedCents,
});

/**
 * 07-18: sonnet 12,000 in / 3,000 out / 50,000 cache read, $1.25 (charged $1.25); gpt-5 8,000 / 2,000 /
 *        10,000 cache read, $0.40 (charged $0.40) → 85,000 tokens, $1.65, metered $1.65.
 * 07-19: sonnet on-demand 20,000 / 5,000 / 10,000 cache write / 100,000 cache read, $3.10 (charged $3.50).
 * 07-20: Auto 15,000 / 4,000, $0.55 (charged $0.55); gpt-5 BYOK 6,000 / 1,000, $0.20 (charged $0.05)
 *        → 26,000 tokens, $0.75, metered $0.60.
 * Window: 61,000 in, 15,000 out, 10,000 cache write, 160,000 cache read = 246,000 tokens, $5.50, metered $5.75.
 */
const EVENTS: UsageEventJson[] = [
  event(
    '2026-07-20T12:00:00Z',
    'gpt-5',
    'USER_API_KEY',
    { inputTokens: 6000, outputTokens: 1000, totalCents: 20 },
    5,
  ),
  event(
    '2026-07-20T08:00:00Z',
    'default',
    'INCLUDED_IN_PRO',
    { inputTokens: 15000, outputTokens: 4000, totalCents: 55 },
    55,
  ),
  event(
    '2026-07-19T09:15:00Z',
    'claude-4.5-sonnet',
    'USAGE_BASED',
    {
      inputTokens: 20000,
      outputTokens: 5000,
      cacheWriteTokens: 10000,
      cacheReadTokens: 100000,
      totalCents: 310,
    },
    350,
  ),
  event(
    '2026-07-18T14:30:00Z',
    'gpt-5',
    'INCLUDED_IN_PRO',
    { inputTokens: 8000, outputTokens: 2000, cacheReadTokens: 10000, totalCents: 40 },
    40,
  ),
  event(
    '2026-07-18T10:00:00Z',
    'claude-4.5-sonnet',
    'INCLUDED_IN_PRO',
    { inputTokens: 12000, outputTokens: 3000, cacheReadTokens: 50000, totalCents: 125 },
    125,
  ),
];

const SUMMARY = `Cursor Cost (API-rate estimate)
Today: $0.75 · 26K tokens
Last 30 days: $5.50 · 246K tokens
Cursor-metered: $5.75 (last 30 days)
From Cursor's usage dashboard at vendor token rates; may differ from your invoice.`;

/** At 80 columns the hint line breaks between words. */
const SUMMARY_80 = SUMMARY.replace('may differ from your invoice.', 'may differ from your\ninvoice.');

const TOTALS = `By kind:
  Included: $2.20 · 104K tokens · 3 requests · $2.20 metered
  On-demand: $3.10 · 135K tokens · 1 request · $3.50 metered
  BYOK: $0.20 · 7K tokens · 1 request · $0.05 metered
Requests: 5 reported`;

const COMPACT_NOTE = 'Compact view: widen the terminal for the input, output and cache columns.';

// One line per day, its most expensive model and how many more; full names when the
// full columns fit, short labels in the compact columns.
const FULL_TABLE = `┌────────────┬───────────────────────────┬────────┬────────┬─────────────┬────────────┬──────────────┬────────────┬───────────┐
│ Date       │ Models                    │  Input │ Output │ Cache write │ Cache read │ Total tokens │ API-rate $ │ Metered $ │
├────────────┼───────────────────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ 2026-07-18 │ claude-4.5-sonnet +1 more │ 20,000 │  5,000 │           0 │     60,000 │       85,000 │      $1.65 │     $1.65 │
│ 2026-07-19 │ claude-4.5-sonnet         │ 20,000 │  5,000 │      10,000 │    100,000 │      135,000 │      $3.10 │     $3.50 │
│ 2026-07-20 │ default +1 more           │ 21,000 │  5,000 │           0 │          0 │       26,000 │      $0.75 │     $0.60 │
├────────────┼───────────────────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ Total      │                           │ 61,000 │ 15,000 │      10,000 │    160,000 │      246,000 │      $5.50 │     $5.75 │
└────────────┴───────────────────────────┴────────┴────────┴─────────────┴────────────┴──────────────┴────────────┴───────────┘`;

const COMPACT_TABLE = `┌────────────┬────────────────────┬────────┬────────────┬───────────┐
│ Date       │ Models             │ Tokens │ API-rate $ │ Metered $ │
├────────────┼────────────────────┼────────┼────────────┼───────────┤
│ 2026-07-18 │ sonnet-4.5 +1 more │    85K │      $1.65 │     $1.65 │
│ 2026-07-19 │ sonnet-4.5         │   135K │      $3.10 │     $3.50 │
│ 2026-07-20 │ auto +1 more       │    26K │      $0.75 │     $0.60 │
├────────────┼────────────────────┼────────┼────────────┼───────────┤
│ Total      │                    │   246K │      $5.50 │     $5.75 │
└────────────┴────────────────────┴────────┴────────────┴───────────┘`;

const BREAKDOWN_FULL_TABLE = `┌────────────┬───────────────────────────┬────────┬────────┬─────────────┬────────────┬──────────────┬────────────┬───────────┐
│ Date       │ Models                    │  Input │ Output │ Cache write │ Cache read │ Total tokens │ API-rate $ │ Metered $ │
├────────────┼───────────────────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ 2026-07-18 │ claude-4.5-sonnet +1 more │ 20,000 │  5,000 │           0 │     60,000 │       85,000 │      $1.65 │     $1.65 │
│            │ └─ claude-4.5-sonnet      │ 12,000 │  3,000 │           0 │     50,000 │       65,000 │      $1.25 │     $1.25 │
│            │ └─ gpt-5                  │  8,000 │  2,000 │           0 │     10,000 │       20,000 │      $0.40 │     $0.40 │
│ 2026-07-19 │ claude-4.5-sonnet         │ 20,000 │  5,000 │      10,000 │    100,000 │      135,000 │      $3.10 │     $3.50 │
│            │ └─ claude-4.5-sonnet      │ 20,000 │  5,000 │      10,000 │    100,000 │      135,000 │      $3.10 │     $3.50 │
│ 2026-07-20 │ default +1 more           │ 21,000 │  5,000 │           0 │          0 │       26,000 │      $0.75 │     $0.60 │
│            │ └─ default                │ 15,000 │  4,000 │           0 │          0 │       19,000 │      $0.55 │     $0.55 │
│            │ └─ gpt-5                  │  6,000 │  1,000 │           0 │          0 │        7,000 │      $0.20 │     $0.05 │
├────────────┼───────────────────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ Total      │                           │ 61,000 │ 15,000 │      10,000 │    160,000 │      246,000 │      $5.50 │     $5.75 │
└────────────┴───────────────────────────┴────────┴────────┴─────────────┴────────────┴──────────────┴────────────┴───────────┘`;

const BREAKDOWN_COMPACT_TABLE = `┌────────────┬────────────────────┬────────┬────────────┬───────────┐
│ Date       │ Models             │ Tokens │ API-rate $ │ Metered $ │
├────────────┼────────────────────┼────────┼────────────┼───────────┤
│ 2026-07-18 │ sonnet-4.5 +1 more │    85K │      $1.65 │     $1.65 │
│            │ └─ sonnet-4.5      │    65K │      $1.25 │     $1.25 │
│            │ └─ gpt-5           │    20K │      $0.40 │     $0.40 │
│ 2026-07-19 │ sonnet-4.5         │   135K │      $3.10 │     $3.50 │
│            │ └─ sonnet-4.5      │   135K │      $3.10 │     $3.50 │
│ 2026-07-20 │ auto +1 more       │    26K │      $0.75 │     $0.60 │
│            │ └─ auto            │    19K │      $0.55 │     $0.55 │
│            │ └─ gpt-5           │     7K │      $0.20 │     $0.05 │
├────────────┼────────────────────┼────────┼────────────┼───────────┤
│ Total      │                    │   246K │      $5.50 │     $5.75 │
└────────────┴────────────────────┴────────┴────────────┴───────────┘`;

const page = (...blocks: string[]) => `${blocks.join('\n\n')}\n`;

async function costText(columns: string, args: string[]) {
  const run = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events: EVENTS } }], args, {
    now: NOW,
    env: { COLUMNS: columns },
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
  return run.stdout;
}

describe('cost text goldens (TZ=UTC, now 2026-07-20T15:00:00Z, stdout not a TTY)', () => {
  it.each([
    ['160', [], page(SUMMARY, FULL_TABLE, TOTALS)],
    ['80', [], page(SUMMARY_80, `${COMPACT_TABLE}\n${COMPACT_NOTE}`, TOTALS)],
    ['160', ['--breakdown'], page(SUMMARY, BREAKDOWN_FULL_TABLE, TOTALS)],
    ['80', ['--breakdown'], page(SUMMARY_80, `${BREAKDOWN_COMPACT_TABLE}\n${COMPACT_NOTE}`, TOTALS)],
    ['160', ['--compact'], page(SUMMARY, COMPACT_TABLE, TOTALS)],
    ['80', ['--compact'], page(SUMMARY_80, COMPACT_TABLE, TOTALS)],
    ['160', ['--compact', '--breakdown'], page(SUMMARY, BREAKDOWN_COMPACT_TABLE, TOTALS)],
  ])('COLUMNS=%s %j prints exactly the expected text', async (columns, args, expected) => {
    expect(await costText(columns, args)).toBe(expected);
  });

  it('no line is wider than COLUMNS, the hint line included', async () => {
    for (const args of [[], ['--breakdown']]) {
      const lines = (await costText('80', args)).split('\n');
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    }
  });

  it('an empty window prints the summary lines and says there were no events', async () => {
    const run = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events: [] } }], ['--days', '7'], {
      now: NOW,
      env: { COLUMNS: '160' },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      page(
        `Cursor Cost (API-rate estimate)
Today: $0.00 · 0 tokens
Last 7 days: $0.00 · 0 tokens
From Cursor's usage dashboard at vendor token rates; may differ from your invoice.`,
        'No usage events in this window.',
      ),
    );
  });
});
