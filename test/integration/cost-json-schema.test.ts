/**
 * Every `cost --json` row validates against the documented shape (test/helpers/json-rows/cost.ts, which
 * docs/json.md is generated from): CodexBar's CostPayload plus the additive fields,
 * all strict, so an undocumented field fails.
 */
import { describe, expect, it } from 'vitest';
import { generateEvents, type UsageEventJson } from '../fake-cursor/events.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { writeConfig } from '../helpers/home.js';
import { costErrorRowSchema, costOutputSchema, costRowSchema } from '../helpers/json-rows/cost.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const generated = (count: number, extra: Partial<Parameters<typeof generateEvents>[0]> = {}) =>
  generateEvents({ count, start: new Date('2026-07-01T00:00:00Z'), end: NOW, seed: 9, ...extra });

const at = (iso: string) => String(Date.parse(iso));
/** Every field variant the row can carry: unknown models, an invalid cost, no tokens, no chargedCents. */
const ODD_EVENTS: UsageEventJson[] = [
  { timestamp: at('2026-07-20T11:00:00Z'), model: 'mystery-model-9', tokenUsage: { inputTokens: 10 } },
  { timestamp: at('2026-07-20T10:00:00Z'), model: 'gpt-5', tokenUsage: { inputTokens: 10, totalCents: -1 } },
  { timestamp: at('2026-07-20T09:00:00Z'), kind: 'USAGE_EVENT_KIND_USAGE_BASED', chargedCents: 4 },
  { timestamp: at('2026-07-19T09:00:00Z'), model: '', tokenUsage: { outputTokens: '7', totalCents: '1.5' } },
];

const manual = (events: FakeAccount['events']): FakeAccount[] => [{ cookies: [MANUAL_COOKIE_VALUE], events }];

/** One account, so one row. */
const oneRow = costOutputSchema.length(1);

async function jsonRun(accounts: FakeAccount[], args: string[] = [], prepareHome?: (home: string) => void) {
  // A config file decides the credential policy only when no CODEXBAR_CURSOR_COOKIE overrides it.
  const cookie = prepareHome ? null : undefined;
  const run = await runCost(accounts, ['--json', ...args], { now: NOW, prepareHome, cookie });
  return { run, rows: JSON.parse(run.stdout) as unknown };
}

describe('successful rows match the documented cost row exactly', () => {
  it.each([
    ['a generated 2,500-event month', manual({ events: generated(2500) }), []],
    [
      'events without totalCents or chargedCents',
      manual({ events: generated(300, { withoutTotalCentsEvery: 3, withoutChargedCentsEvery: 7 }) }),
      [],
    ],
    [
      'unknown models, an invalid cost, an event without tokens',
      manual({ events: ODD_EVENTS }),
      ['--days', '2'],
    ],
    ['an empty window (`{}`)', manual({ events: [] }), ['--days', '7']],
    ['--all', manual({ events: generated(50) }), ['--all']],
    [
      '--timezone Asia/Tokyo --month',
      manual({ events: generated(50) }),
      ['--timezone', 'Asia/Tokyo', '--month'],
    ],
    ['--by day', manual({ events: generated(300) }), ['--by', 'day', '--days', '7']],
    [
      '--by week --week-start sunday',
      manual({ events: generated(300) }),
      ['--by', 'week', '--week-start', 'sunday'],
    ],
    ['--by month', manual({ events: generated(300) }), ['--by', 'month', '--all']],
    ['--by model --order asc', manual({ events: ODD_EVENTS }), ['--by', 'model', '--order', 'asc']],
    ['--by kind', manual({ events: generated(300) }), ['--by', 'kind']],
    ['--by week on an empty window', manual({ events: [] }), ['--by', 'week', '--days', '7']],
  ])('%s', async (_name, accounts, args) => {
    const { run, rows } = await jsonRun(accounts, args);
    expect(run.code).toBe(0);
    const parsed = oneRow.parse(rows);
    const row = costRowSchema.parse(parsed[0]);
    // Without --by the row is as before; with it, the groups are checked too.
    const by = args.includes('--by') ? args[args.indexOf('--by') + 1] : undefined;
    expect(row.groupBy).toBe(by);
    expect(row.groups !== undefined).toBe(by !== undefined);
  });

  it('--pretty prints the same row (sorted keys, `"key" : value`)', async () => {
    const accounts = () => manual({ events: ODD_EVENTS });
    const compact = await jsonRun(accounts(), ['--days', '2']);
    const pretty = await jsonRun(accounts(), ['--days', '2', '--pretty']);
    expect(pretty.rows).toEqual(compact.rows);
    expect(pretty.run.stdout).toContain('"provider" : "cursor"');
    oneRow.parse(pretty.rows);
  });

  it('omits unknown values instead of writing 0 (unknown model: no cost key at all)', async () => {
    const { rows } = await jsonRun(manual({ events: ODD_EVENTS }), ['--days', '2']);
    const row = costRowSchema.parse((rows as unknown[])[0]);
    expect(row).not.toHaveProperty('meteredCostUSD');
    const mystery = row.daily
      .flatMap((day) => day.modelBreakdowns ?? [])
      .find((m) => m.modelName === 'mystery-model-9');
    expect(mystery).toEqual({ modelName: 'mystery-model-9', totalTokens: 10 });
  });

  it('the schema is strict: an undocumented field anywhere fails it', async () => {
    const row = onlyRow((await jsonRun(manual({ events: generated(20) }))).run);
    expect(costRowSchema.safeParse(row).success).toBe(true);
    expect(costRowSchema.safeParse({ ...row, kind: 'provider' }).success).toBe(false);
    const window = row.window as Record<string, unknown>;
    expect(costRowSchema.safeParse({ ...row, window: { ...window, label: 'x' } }).success).toBe(false);
  });
});

describe('error rows match the documented cost error row (no kind)', () => {
  it.each([
    ['incomplete pagination', manual({ events: generated(2500), count: 2600 }), undefined],
    [
      'HTTP 500 after retries',
      manual({ events: generated(10), faults: [{ page: 1, status: 500 }] }),
      undefined,
    ],
    ['a parse error', manual({ events: generated(10), faults: [{ page: 1, truncated: true }] }), undefined],
    ['not logged in', [{ cookies: ['someone-else'], events: { events: [] } }], undefined],
    [
      'cookie source Off in the config file',
      manual({ events: [] }),
      (home: string) =>
        void writeConfig(home, {
          version: 1,
          providers: [{ id: 'cursor', enabled: true, cookieSource: 'off' }],
        }),
    ],
  ] as const)('%s', async (_name, accounts, prepareHome) => {
    const { run, rows } = await jsonRun([...accounts] as FakeAccount[], [], prepareHome);
    expect(run.code).toBe(1);
    const parsed = oneRow.parse(rows);
    expect(costErrorRowSchema.parse(parsed[0]).updatedAt).toBe('2026-07-20T15:00:00Z');
  });
});
