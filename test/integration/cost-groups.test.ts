/**
 * Report shapes end to end: `--by` groups in JSON and CSV, and weeks and months
 * that add up to the window in every time zone, including those 30 and 45 minutes off the hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsPageSchema } from '../../src/api/schemas/events.js';
import { createCostAggregator } from '../../src/cost/aggregate.js';
import { groupReport } from '../../src/cost/groups.js';
import { resolveCostWindow } from '../../src/cost/window.js';
import { generateEvents } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE, onlyRow } from '../helpers/cost-cli.js';
import { type StoreHarness, storeHarness } from '../helpers/store-cli.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const DAY = 86_400_000;
const raw = generateEvents({
  count: 1500,
  start: new Date(NOW.getTime() - 95 * DAY),
  end: new Date(NOW.getTime() - 1000),
  seed: 45,
  withoutTotalCentsEvery: 97,
});

interface Figures {
  totalTokens?: number;
  apiRateCostUSD?: number;
  meteredCostUSD?: number;
  requests: number;
}
type Group = Figures & {
  key: string;
  firstDay?: string;
  lastDay?: string;
  models: (Figures & { modelName: string })[];
};
type Row = Record<string, unknown> & { groups?: Group[]; daily: { date: string }[] };

let store: StoreHarness;
beforeAll(async () => {
  store = await storeHarness(raw, NOW, [MANUAL_COOKIE_VALUE]);
});
afterAll(() => store.close());

async function row(args: string[], zone = 'UTC'): Promise<Row> {
  const run = await store.cost(['--days', '90', '--no-cache', '--timezone', zone, ...args]);
  expect(run.code, run.stderr).toBe(0);
  return onlyRow(run) as Row;
}

const sum = (values: (number | undefined)[]) =>
  values.reduce<number>((total, value) => total + (value ?? 0), 0);

/** Every group's figures add up to the window's, and every day lies in exactly one group. */
function expectGroupsMakeTheWindow(
  window: Row,
  by: 'week' | 'month',
  weekStart: 'monday' | 'sunday' = 'monday',
) {
  const groups = window.groups!;
  expect(sum(groups.map((group) => group.totalTokens))).toBe((window.totals as Figures).totalTokens);
  expect(sum(groups.map((group) => group.requests))).toBe(
    sum((window.byModel as Figures[]).map((model) => model.requests)),
  );
  expect(sum(groups.map((group) => group.apiRateCostUSD))).toBeCloseTo(window.apiRateCostUSD as number, 9);
  expect(sum(groups.map((group) => group.meteredCostUSD))).toBeCloseTo(window.meteredCostUSD as number, 9);
  for (const day of window.daily) {
    const containing = groups.filter((group) => group.firstDay! <= day.date && day.date <= group.lastDay!);
    expect(containing, day.date).toHaveLength(1);
    const key = containing[0]!.key;
    if (by === 'month') expect(day.date.startsWith(key)).toBe(true);
    else {
      const start = Date.parse(`${key}T00:00:00Z`);
      expect(new Date(start).getUTCDay()).toBe(weekStart === 'monday' ? 1 : 0);
      expect(Date.parse(`${day.date}T00:00:00Z`) - start).toBeLessThan(7 * DAY);
    }
  }
}

describe('--by week and --by month add up to the window', () => {
  it.each(['Asia/Kathmandu', 'Australia/Adelaide', 'America/St_Johns', 'Pacific/Chatham'])(
    'TZ %s, through the CLI',
    async (zone) => {
      expectGroupsMakeTheWindow(await row(['--json', '--by', 'week'], zone), 'week');
      expectGroupsMakeTheWindow(
        await row(['--json', '--by', 'week', '--week-start', 'sunday'], zone),
        'week',
        'sunday',
      );
      expectGroupsMakeTheWindow(await row(['--json', '--by', 'month'], zone), 'month');
    },
  );

  it('in every time zone this Node knows, through the aggregator and the grouping', () => {
    // Every fifth event keeps ~400 zones fast while each day still has several.
    const events = eventsPageSchema.parse({
      usageEventsDisplay: raw.filter((_, i) => i % 5 === 0),
    }).usageEventsDisplay;
    const zones = Intl.supportedValuesOf('timeZone');
    expect(zones.length).toBeGreaterThan(300);
    for (const zone of zones) {
      // 15 days across a month's end: two months and three weeks, and few days to keep ~400 zones fast.
      const window = resolveCostWindow({
        since: { year: 2026, month: 10, day: 25 },
        until: { year: 2026, month: 11, day: 8 },
        timeZone: zone,
        now: NOW,
      });
      const aggregator = createCostAggregator({ timeZone: zone, pricing: null, today: NOW });
      for (const event of events) {
        if (event.timestamp! >= window.start.getTime() && event.timestamp! <= window.end.getTime())
          aggregator.add(event);
      }
      const report = aggregator.finish(window, { generatedAt: NOW, reportedEventCount: null });
      const requests = report.daily.reduce((total, day) => total + day.requestCount, 0);
      for (const options of [
        { by: 'week', weekStart: 'monday' },
        { by: 'week', weekStart: 'sunday' },
        { by: 'month', weekStart: 'monday' },
      ] as const) {
        const groups = groupReport(report, options);
        const label = `${zone} ${options.by} ${options.weekStart}`;
        expect(groups.length, label).toBeGreaterThan(1);
        expect(sum(groups.map((group) => group.totalTokens ?? undefined)), label).toBe(
          report.totals.totalTokens,
        );
        expect(sum(groups.map((group) => group.requestCount)), label).toBe(requests);
        expect(sum(groups.map((group) => group.costUSD ?? undefined)), label).toBeCloseTo(
          report.totals.costUSD!,
          9,
        );
      }
    }
  });
});

/** RFC 4180 fields of one line (quotes doubled inside quoted fields). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
}

const FIGURES = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheCreationTokens',
  'totalTokens',
  'apiRateCostUSD',
  'meteredCostUSD',
  'requests',
] as const;

/** A JSON number as a CSV field carries it: integers exactly, fractions to 15 significant digits. */
const asCsvNumber = (value: number | undefined) =>
  value === undefined ? '' : Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));

describe('--format csv', () => {
  it.each(['day', 'week', 'month', 'kind'] as const)(
    '--by %s: one row per group and model, the JSON’s numbers',
    async (by) => {
      const json = await row(['--json', '--by', by]);
      const csv = await store.cost(['--days', '90', '--no-cache', '--format', 'csv', '--by', by]);
      expect(csv.code).toBe(0);
      expect(csv.stdout.endsWith('\r\n')).toBe(true);
      const [header, ...lines] = csv.stdout.slice(0, -2).split('\r\n').map(csvFields);
      const groupColumn = { day: 'date', week: 'week', month: 'month', kind: 'kind' }[by];
      expect(header).toEqual([groupColumn, 'model', ...FIGURES]);
      const expected = json.groups!.flatMap((group) =>
        group.models.map((model) => [
          group.key,
          model.modelName,
          ...FIGURES.map((field) =>
            asCsvNumber((model as unknown as Record<string, number | undefined>)[field]),
          ),
        ]),
      );
      expect(lines).toEqual(expected);
      expect(lines.length).toBeGreaterThan(json.groups!.length);
    },
  );

  it('--by model: one row per model; CSV is never coloured and the total cost parses back', async () => {
    const json = await row(['--json', '--by', 'model']);
    const csv = await store.cost(['--days', '90', '--no-cache', '--format', 'csv', '--by', 'model']);
    const lines = csv.stdout.trim().split('\r\n').map(csvFields);
    expect(lines[0]![0]).toBe('model');
    expect(lines.slice(1).map((line) => line[0])).toEqual(json.groups!.map((group) => group.key));
    expect(sum(lines.slice(1).map((line) => Number(line[6]) || 0))).toBeCloseTo(
      json.apiRateCostUSD as number,
      6,
    );
    expect(csv.stdout).not.toContain('\u001b');
  });

  it('--format csv without --by is one row per day and model; usage refuses csv', async () => {
    const csv = await store.cost(['--days', '90', '--no-cache', '--format', 'csv']);
    expect(csv.stdout.split('\r\n')[0]!.startsWith('date,model,')).toBe(true);
    const usage = await store.run(['usage', '--format', 'csv']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("--format must be one of text, json (got 'csv').");
  });
});
