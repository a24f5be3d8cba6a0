/** A small hand-built CostReport (two days, two models) for the cost renderer tests. */

import type { CostModelRow, CostReport, KindTotals } from '../../src/cost/types.js';

function model(overrides: Partial<CostModelRow> & Pick<CostModelRow, 'modelName'>): CostModelRow {
  return {
    costUSD: null,
    meteredUSD: null,
    inputTokens: null,
    outputTokens: null,
    cacheReadTokens: null,
    cacheCreationTokens: null,
    totalTokens: null,
    requestCount: 0,
    requestCounts: { reported: 0, estimated: 0, unpriced: 0 },
    invalidReportedCost: false,
    ...overrides,
  };
}

const emptyKind: KindTotals = { requests: 0, totalTokens: 0, costUSD: 0, meteredUSD: 0, models: [] };

export function sampleCostReport(): CostReport {
  const sonnetJul19 = model({
    modelName: 'claude-4.5-sonnet',
    costUSD: 2.9,
    meteredUSD: 1.5,
    inputTokens: 280_000,
    outputTokens: 70_000,
    cacheReadTokens: 750_000,
    cacheCreationTokens: 0,
    totalTokens: 1_100_000,
    requestCount: 30,
    requestCounts: { reported: 30, estimated: 0, unpriced: 0 },
  });
  const gptJul19 = model({
    modelName: 'gpt-5',
    costUSD: 0.52,
    meteredUSD: 0,
    inputTokens: 30_000,
    outputTokens: 8_000,
    cacheReadTokens: 62_000,
    cacheCreationTokens: 0,
    totalTokens: 100_000,
    requestCount: 10,
    requestCounts: { reported: 5, estimated: 5, unpriced: 0 },
  });
  const sonnetJul20 = model({
    modelName: 'claude-4.5-sonnet',
    costUSD: 10.5,
    meteredUSD: 2,
    inputTokens: 500_000,
    outputTokens: 120_000,
    cacheReadTokens: 1_800_000,
    cacheCreationTokens: 80_000,
    totalTokens: 2_500_000,
    requestCount: 20,
    requestCounts: { reported: 20, estimated: 0, unpriced: 0 },
  });
  return {
    window: {
      start: new Date('2026-07-19T00:00:00Z'),
      end: new Date('2026-07-20T15:00:00Z'),
      timeZone: 'UTC',
      historyDays: 2,
      label: 'Last 2 days',
    },
    generatedAt: new Date('2026-07-20T15:00:03.250Z'),
    daily: [
      {
        date: '2026-07-19',
        inputTokens: 310_000,
        outputTokens: 78_000,
        cacheReadTokens: 812_000,
        cacheCreationTokens: 0,
        totalTokens: 1_200_000,
        costUSD: 3.42,
        meteredUSD: 1.5,
        requestCount: 40,
        modelsUsed: ['claude-4.5-sonnet', 'gpt-5'],
        models: [sonnetJul19, gptJul19],
      },
      {
        date: '2026-07-20',
        inputTokens: 500_000,
        outputTokens: 120_000,
        cacheReadTokens: 1_800_000,
        cacheCreationTokens: 80_000,
        totalTokens: 2_500_000,
        costUSD: 10.5,
        meteredUSD: 2,
        requestCount: 20,
        modelsUsed: ['claude-4.5-sonnet'],
        models: [sonnetJul20],
      },
    ],
    totals: {
      inputTokens: 810_000,
      outputTokens: 198_000,
      cacheReadTokens: 2_612_000,
      cacheCreationTokens: 80_000,
      totalTokens: 3_700_000,
      costUSD: 13.92,
    },
    today: { tokens: 2_500_000, costUSD: 10.5 },
    meteredCostUSD: 3.5,
    provenance: 'mixed',
    coverage: { priced: 60, unpriced: 0, unmetered: 0, estimated: 5 },
    byModel: [
      model({
        ...sonnetJul20,
        costUSD: 13.4,
        meteredUSD: 3.5,
        inputTokens: 780_000,
        outputTokens: 190_000,
        cacheReadTokens: 2_550_000,
        cacheCreationTokens: 80_000,
        totalTokens: 3_600_000,
        requestCount: 50,
        requestCounts: { reported: 50, estimated: 0, unpriced: 0 },
      }),
      gptJul19,
    ],
    byKind: {
      included: { requests: 50, totalTokens: 3_000_000, costUSD: 11, meteredUSD: 0, models: [] },
      onDemand: { requests: 10, totalTokens: 700_000, costUSD: 2.92, meteredUSD: 3.5, models: [] },
      notCharged: { ...emptyKind },
      byok: { ...emptyKind },
      other: { ...emptyKind },
    },
    requestCounts: { reported: 55, estimated: 5, unpriced: 0 },
    eventCount: 60,
    skippedEvents: 0,
    reportedEventCount: 60,
  };
}
