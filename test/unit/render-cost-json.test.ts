import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { encodeJson } from '../../src/lib/json.js';
import { costErrorRow, costRow } from '../../src/render/cost-json.js';
import { sampleCostReport } from '../helpers/cost-sample.js';

const roundTrip = (row: Record<string, unknown>) => JSON.parse(encodeJson([row]))[0];

describe('cost --json row', () => {
  it("writes CodexBar's fields in order, then our additive ones", () => {
    expect(Object.keys(roundTrip(costRow(sampleCostReport())))).toEqual([
      'provider',
      'source',
      'updatedAt',
      'currencyCode',
      'sessionTokens',
      'sessionCostUSD',
      'historyDays',
      'historyCoverageIsEstablished',
      'last30DaysTokens',
      'last30DaysCostUSD',
      'meteredCostUSD',
      'daily',
      'projects',
      'totals',
      'provenance',
      'coverage',
      'window',
      'apiRateCostUSD',
      'byModel',
      'byKind',
      'requestCounts',
    ]);
  });

  it('fills the CodexBar fields from the report (today = session, window = last30Days)', () => {
    const row = roundTrip(costRow(sampleCostReport()));
    expect(row).toMatchObject({
      provider: 'cursor',
      source: 'web',
      updatedAt: '2026-07-20T15:00:03Z',
      currencyCode: 'USD',
      sessionTokens: 2_500_000,
      sessionCostUSD: 10.5,
      historyDays: 2,
      historyCoverageIsEstablished: true,
      last30DaysTokens: 3_700_000,
      last30DaysCostUSD: 13.92,
      meteredCostUSD: 3.5,
      projects: [],
      provenance: 'mixed',
      coverage: { priced: 60, unpriced: 0, unmetered: 0, estimated: 5 },
      window: { start: '2026-07-19T00:00:00Z', end: '2026-07-20T15:00:00Z', timeZone: 'UTC' },
      apiRateCostUSD: 13.92,
      requestCounts: { reported: 55, estimated: 5, unpriced: 0 },
    });
  });

  it('writes daily entries with cache-write as cacheCreationTokens and per-model breakdowns', () => {
    const json = encodeJson([costRow(sampleCostReport())]);
    expect(json).toContain(
      '{"date":"2026-07-19","inputTokens":310000,"outputTokens":78000,"cacheReadTokens":812000,' +
        '"cacheCreationTokens":0,"totalTokens":1200000,"totalCost":3.42,' +
        '"modelsUsed":["claude-4.5-sonnet","gpt-5"],' +
        '"modelBreakdowns":[{"modelName":"claude-4.5-sonnet","cost":2.9,"totalTokens":1100000},' +
        '{"modelName":"gpt-5","cost":0.52,"totalTokens":100000}]}',
    );
  });

  it('sums totals with provenance and coverage inside', () => {
    expect(roundTrip(costRow(sampleCostReport())).totals).toEqual({
      inputTokens: 810_000,
      outputTokens: 198_000,
      cacheReadTokens: 2_612_000,
      cacheCreationTokens: 80_000,
      totalTokens: 3_700_000,
      totalCost: 13.92,
      provenance: 'mixed',
      coverage: { priced: 60, unpriced: 0, unmetered: 0, estimated: 5 },
    });
  });

  it('omits unknown values instead of writing 0', () => {
    const report = sampleCostReport();
    report.meteredCostUSD = null;
    report.today = { tokens: null, costUSD: null };
    report.daily[0]!.costUSD = null;
    report.daily[0]!.models[1]!.costUSD = null;
    report.byKind.onDemand.meteredUSD = null;
    const row = roundTrip(costRow(report));
    expect(row).not.toHaveProperty('meteredCostUSD');
    expect(row).not.toHaveProperty('sessionTokens');
    expect(row).not.toHaveProperty('sessionCostUSD');
    expect(row.daily[0]).not.toHaveProperty('totalCost');
    expect(row.daily[0].modelBreakdowns[1]).toEqual({ modelName: 'gpt-5', totalTokens: 100_000 });
    expect(row.byKind.onDemand).toEqual({ requests: 10, totalTokens: 700_000, apiRateCostUSD: 2.92 });
  });

  it('always writes daily and projects; with no days the totals carry only totalTokens/totalCost', () => {
    const report = sampleCostReport();
    report.daily = [];
    report.totals = {
      inputTokens: null,
      outputTokens: null,
      cacheReadTokens: null,
      cacheCreationTokens: null,
      totalTokens: 0,
      costUSD: 0,
    };
    const row = roundTrip(costRow(report));
    expect(row.daily).toEqual([]);
    expect(row.projects).toEqual([]);
    expect(row.totals).toEqual({ totalTokens: 0, totalCost: 0 });
  });

  it('writes byModel and all five byKind buckets for scripts', () => {
    const row = roundTrip(costRow(sampleCostReport()));
    expect(Object.keys(row.byKind)).toEqual(['included', 'onDemand', 'notCharged', 'byok', 'other']);
    expect(row.byModel[1]).toEqual({
      modelName: 'gpt-5',
      apiRateCostUSD: 0.52,
      meteredCostUSD: 0,
      inputTokens: 30_000,
      outputTokens: 8_000,
      cacheReadTokens: 62_000,
      cacheCreationTokens: 0,
      totalTokens: 100_000,
      requests: 10,
      requestCounts: { reported: 5, estimated: 5, unpriced: 0 },
    });
  });

  it('pretty-prints empty projects as "[" blank line "]"', () => {
    expect(encodeJson([costRow(sampleCostReport())], { pretty: true })).toContain(
      '    "projects" : [\n\n    ],\n',
    );
  });
});

describe('cost --json error row', () => {
  it('matches the spec example: updatedAt, empty daily and projects, error without kind', () => {
    const error = new ConfigError(
      'Cursor cost is unavailable because the Cursor cookie source is set to Off.',
    );
    expect(encodeJson([costErrorRow(error, new Date('2026-07-20T15:00:00.123Z'))])).toBe(
      '[{"provider":"cursor","source":"web","updatedAt":"2026-07-20T15:00:00Z","daily":[],"projects":[],' +
        '"error":{"code":1,"message":"Cursor cost is unavailable because the Cursor cookie source is set to Off."}}]',
    );
  });
});
