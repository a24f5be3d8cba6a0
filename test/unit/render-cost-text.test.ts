import { describe, expect, it } from 'vitest';
import type { CostReport } from '../../src/cost/types.js';
import { type CostTextOptions, renderCostText } from '../../src/render/cost-text.js';
import { sampleCostReport } from '../helpers/cost-sample.js';

const ESC = '\u001b';
const WIDE: CostTextOptions = { colour: false, columns: 200, compact: false, breakdown: false, isTTY: false };
const render = (report: CostReport, options: Partial<CostTextOptions> = {}) =>
  renderCostText(report, { ...WIDE, ...options });

/** The CodexBar lines for the sample report. */
const SUMMARY = [
  'Cursor Cost (API-rate estimate)',
  'Today: $10.50 · 2.5M tokens',
  'Last 2 days: $13.92 · 3.7M tokens',
  'Cursor-metered: $3.50 (last 2 days)',
  "From Cursor's usage dashboard at vendor token rates; may differ from your invoice.",
];

const TOTALS = [
  'By kind:',
  '  Included: $11.00 · 3M tokens · 50 requests · $0.00 metered',
  '  On-demand: $2.92 · 700K tokens · 10 requests · $3.50 metered',
  'Requests: 55 reported · 5 estimated at list price',
  'Note: 5 requests had no cost from Cursor and were estimated at list price; an estimate is not what Cursor charged.',
];

const FULL_TABLE = [
  '┌────────────┬───────────────────────────┬─────────┬─────────┬─────────────┬────────────┬──────────────┬────────────┬───────────┐',
  '│ Date       │ Models                    │   Input │  Output │ Cache write │ Cache read │ Total tokens │ API-rate $ │ Metered $ │',
  '├────────────┼───────────────────────────┼─────────┼─────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤',
  '│ 2026-07-19 │ claude-4.5-sonnet +1 more │ 310,000 │  78,000 │           0 │    812,000 │    1,200,000 │      $3.42 │     $1.50 │',
  '│ 2026-07-20 │ claude-4.5-sonnet         │ 500,000 │ 120,000 │      80,000 │  1,800,000 │    2,500,000 │     $10.50 │     $2.00 │',
  '├────────────┼───────────────────────────┼─────────┼─────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤',
  '│ Total      │                           │ 810,000 │ 198,000 │      80,000 │  2,612,000 │    3,700,000 │     $13.92 │     $3.50 │',
  '└────────────┴───────────────────────────┴─────────┴─────────┴─────────────┴────────────┴──────────────┴────────────┴───────────┘',
];

const BREAKDOWN_TABLE = [
  '┌────────────┬───────────────────────────┬─────────┬─────────┬─────────────┬────────────┬──────────────┬────────────┬───────────┐',
  '│ Date       │ Models                    │   Input │  Output │ Cache write │ Cache read │ Total tokens │ API-rate $ │ Metered $ │',
  '├────────────┼───────────────────────────┼─────────┼─────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤',
  '│ 2026-07-19 │ claude-4.5-sonnet +1 more │ 310,000 │  78,000 │           0 │    812,000 │    1,200,000 │      $3.42 │     $1.50 │',
  '│            │ └─ claude-4.5-sonnet      │ 280,000 │  70,000 │           0 │    750,000 │    1,100,000 │      $2.90 │     $1.50 │',
  '│            │ └─ gpt-5                  │  30,000 │   8,000 │           0 │     62,000 │      100,000 │      $0.52 │     $0.00 │',
  '│ 2026-07-20 │ claude-4.5-sonnet         │ 500,000 │ 120,000 │      80,000 │  1,800,000 │    2,500,000 │     $10.50 │     $2.00 │',
  '│            │ └─ claude-4.5-sonnet      │ 500,000 │ 120,000 │      80,000 │  1,800,000 │    2,500,000 │     $10.50 │     $2.00 │',
  '├────────────┼───────────────────────────┼─────────┼─────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤',
  '│ Total      │                           │ 810,000 │ 198,000 │      80,000 │  2,612,000 │    3,700,000 │     $13.92 │     $3.50 │',
  '└────────────┴───────────────────────────┴─────────┴─────────┴─────────────┴────────────┴──────────────┴────────────┴───────────┘',
];

const COMPACT_TABLE = [
  '┌────────────┬────────────────────┬────────┬────────────┬───────────┐',
  '│ Date       │ Models             │ Tokens │ API-rate $ │ Metered $ │',
  '├────────────┼────────────────────┼────────┼────────────┼───────────┤',
  '│ 2026-07-19 │ sonnet-4.5 +1 more │   1.2M │      $3.42 │     $1.50 │',
  '│ 2026-07-20 │ sonnet-4.5         │   2.5M │     $10.50 │     $2.00 │',
  '├────────────┼────────────────────┼────────┼────────────┼───────────┤',
  '│ Total      │                    │   3.7M │     $13.92 │     $3.50 │',
  '└────────────┴────────────────────┴────────┴────────────┴───────────┘',
];

const page = (...blocks: string[][]) => blocks.map((block) => block.join('\n')).join('\n\n');

describe('cost text: CodexBar lines, table and totals', () => {
  it('prints the CodexBar lines, the full per-day table with a Total row, then by-kind and request totals', () => {
    expect(render(sampleCostReport())).toBe(page(SUMMARY, FULL_TABLE, TOTALS));
  });

  it('--breakdown adds "└─ model" rows under each day (one line per day and model)', () => {
    expect(render(sampleCostReport(), { breakdown: true })).toBe(page(SUMMARY, BREAKDOWN_TABLE, TOTALS));
  });

  it('--compact keeps Date, Models (short labels), Tokens, API-rate $ and Metered $', () => {
    expect(render(sampleCostReport(), { compact: true })).toBe(page(SUMMARY, COMPACT_TABLE, TOTALS));
  });

  it('switches to the compact layout below 100 columns and says why', () => {
    const text = render(sampleCostReport(), { columns: 99 });
    expect(text).toBe(
      page(
        SUMMARY,
        [...COMPACT_TABLE, 'Compact view: widen the terminal for the input, output and cache columns.'],
        TOTALS,
      ),
    );
  });

  it('uses the widest layout that fits and never breaks inside a model name', () => {
    // 122 columns: all columns with short labels; 121: the compact columns.
    const wide = render(sampleCostReport(), { columns: 122, breakdown: true });
    expect(wide).toContain('│ 2026-07-19 │ sonnet-4.5 +1 more │ 310,000 │');
    expect(wide).toContain('│            │ └─ gpt-5           │  30,000 │');
    const narrower = render(sampleCostReport(), { columns: 121, breakdown: true });
    expect(narrower).toContain('│ 2026-07-19 │ sonnet-4.5 +1 more │   1.2M │');
    for (const text of [wide, narrower]) {
      const lines = text.split('\n').filter((line) => line.startsWith('│'));
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(122);
      expect(
        lines.some((line) => /│ +(sonnet|4\.5|claude)\b/.test(line) && !/sonnet-4\.5|gpt-5/.test(line)),
      ).toBe(false);
    }
  });
});

describe('cost text: unknown values', () => {
  it('shows an unknown cost as an em dash, never $0.00', () => {
    const report = sampleCostReport();
    report.today = { tokens: 2_500_000, costUSD: null };
    report.totals.costUSD = null;
    report.daily[0]!.costUSD = null;
    const lines = render(report).split('\n');
    expect(lines.slice(1, 3)).toEqual(['Today: — · 2.5M tokens', 'Last 2 days: — · 3.7M tokens']);
    expect(lines.find((line) => line.startsWith('│ 2026-07-19'))).toMatch(/│ +— │ +\$1\.50 │$/);
    expect(lines.find((line) => line.startsWith('│ Total'))).toMatch(/│ +— │ +\$3\.50 │$/);
  });

  it('drops " · N tokens" when tokens are unknown', () => {
    const report = sampleCostReport();
    report.today = { tokens: null, costUSD: 0 };
    expect(render(report).split('\n')[1]).toBe('Today: $0.00');
  });

  it('leaves out the Cursor-metered line and the Metered $ column when the metered total is unknown', () => {
    const report = sampleCostReport();
    report.meteredCostUSD = null;
    const text = render(report);
    expect(text).not.toContain('Cursor-metered');
    expect(text).not.toContain('Metered $');
    expect(text.split('\n')[3]).toBe(
      "From Cursor's usage dashboard at vendor token rates; may differ from your invoice.",
    );
  });

  it('uses the window label for the window line and, lowercased, for the metered line', () => {
    const report = sampleCostReport();
    report.window.label = 'Month to date';
    const lines = render(report).split('\n');
    expect(lines[2]).toBe('Month to date: $13.92 · 3.7M tokens');
    expect(lines[3]).toBe('Cursor-metered: $3.50 (month to date)');
  });

  it('says so when the window has no usage instead of printing an empty table', () => {
    const report = sampleCostReport();
    report.daily = [];
    expect(render(report)).toMatch(/invoice\.\n\nNo usage events in this window\.$/);
  });
});

describe('cost text: request counts and notes', () => {
  it('lists unpriced requests with their model names and leaves zero counts out', () => {
    const report = sampleCostReport();
    report.requestCounts = { reported: 1234, estimated: 0, unpriced: 3 };
    report.byModel[1]!.modelName = 'mystery-model';
    report.byModel[1]!.requestCounts = { reported: 0, estimated: 0, unpriced: 3 };
    const text = render(report);
    expect(text).toContain('\nRequests: 1,234 reported · 3 unpriced\n');
    expect(text).toMatch(
      /\nNote: 3 requests had no known price \(mystery-model\); their cost is left out of the API-rate totals\.$/,
    );
    expect(text).not.toContain('estimated');
  });

  it('prints all three request counts when all are non-zero', () => {
    const report = sampleCostReport();
    report.requestCounts = { reported: 1234, estimated: 12, unpriced: 3 };
    expect(render(report)).toContain(
      '\nRequests: 1,234 reported · 12 estimated at list price · 3 unpriced\n',
    );
  });

  it('skips empty by-kind buckets and the By kind block when every bucket is empty', () => {
    const report = sampleCostReport();
    for (const kind of Object.values(report.byKind)) kind.requests = 0;
    expect(render(report)).not.toContain('By kind');
  });
});

describe('cost text: chart and colours', () => {
  it('draws the daily-spend chart only when stdout is a TTY, bars scaled to the biggest day', () => {
    expect(render(sampleCostReport())).not.toContain('Daily API-rate spend');
    const text = render(sampleCostReport(), { isTTY: true, columns: 120 });
    expect(text.split('\n').slice(-3)).toEqual([
      'Daily API-rate spend',
      `2026-07-19  ${'█'.repeat(13)}${' '.repeat(27)}   $3.42`,
      `2026-07-20  ${'█'.repeat(40)}  $10.50`,
    ]);
  });

  it('colours the header bold cyan (1;36) and the table only when colour is on', () => {
    const coloured = render(sampleCostReport(), { colour: true });
    expect(coloured.split('\n')[0]).toBe(
      `${ESC}[1m${ESC}[36mCursor Cost (API-rate estimate)${ESC}[39m${ESC}[22m`,
    );
    expect(coloured.split('\n')[1]).toBe('Today: $10.50 · 2.5M tokens');
    expect(coloured).toContain(`${ESC}[36mDate${ESC}[39m`);
    expect(render(sampleCostReport(), { isTTY: true, breakdown: true })).not.toContain(ESC);
  });
});
