import { describe, expect, it } from 'vitest';
import { usageStatusSchema } from '../../src/api/schemas/usage-status.js';
import { UNIFIED_CYCLE_END, UNIFIED_POOL, unifiedSummary, unifiedUsageStatus } from '../helpers/unified.js';
import { snapshotFrom } from '../helpers/usage-builders.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const CYCLE_END = UNIFIED_CYCLE_END;
const SUMMARY = unifiedSummary({ used: 0, totalPercentUsed: 0, autoPercentUsed: 0, apiPercentUsed: 0 });
const POOL = UNIFIED_POOL;

describe('unified Cursor/Grok weekly pool', () => {
  it('a usable pool with a current reset becomes the primary Weekly bar and replaces the monthly bars', () => {
    const snapshot = snapshotFrom({ summary: SUMMARY, sand: POOL, now: NOW });
    expect(snapshot.labels.primary).toBe('Weekly');
    expect(snapshot.primary).toEqual({
      usedPercent: 42,
      windowMinutes: 10080,
      resetsAt: new Date('2026-12-03T07:57:50.647Z'),
      resetDescription: 'Resets Dec 3 at 7:57AM',
    });
    expect([snapshot.secondary, snapshot.tertiary]).toEqual([null, null]);
    expect(snapshot.extraRateWindows).toEqual([]);
  });

  it('on-demand spend stays in providerCost', () => {
    const snapshot = snapshotFrom({ summary: SUMMARY, sand: POOL, now: NOW });
    expect(snapshot.providerCost).toMatchObject({ used: 12, limit: 40, resetsAt: new Date(CYCLE_END) });
  });

  it('a valid request quota keeps the request primary instead', () => {
    const snapshot = snapshotFrom({
      summary: SUMMARY,
      legacy: { 'gpt-4': { numRequests: 120, maxRequestUsage: 500 } },
      sand: POOL,
      now: NOW,
    });
    expect(snapshot.labels.primary).toBe('Total');
    expect(snapshot.primary?.resetDescription).toBe('120 / 500 requests');
  });

  it.each([
    ['a reset in the past', { ...POOL, nextResetTimestampUtc: '2026-11-28T11:00:00Z' }],
    ['a missing reset', { ...POOL, nextResetTimestampUtc: undefined }],
    ['a malformed reset', { ...POOL, nextResetTimestampUtc: 'Dec 3' }],
    ['no included pool', { ...POOL, includedLimitZero: true }],
    ['no usage percent', { ...POOL, usagePercent: undefined }],
    ['isUnified false', { ...POOL, isUnified: false }],
  ])('%s keeps the monthly Total/Cursor/Third Party layout', (_name, sand) => {
    const snapshot = snapshotFrom({ summary: SUMMARY, sand, now: NOW });
    expect(snapshot.labels.primary).toBe('Total');
    expect(snapshot.primary?.resetsAt).toEqual(new Date(CYCLE_END));
    expect(snapshot.secondary).not.toBeNull();
  });
});

describe('unified additional spend from v2/usage-status', () => {
  const VALID = unifiedUsageStatus('2026-11-05T00:00:00.000Z', '2026-12-05T00:00:00.000Z');
  const costWith = (usageStatus: unknown, overrides: { summary?: unknown; sand?: unknown } = {}) =>
    snapshotFrom({
      summary: overrides.summary ?? SUMMARY,
      sand: overrides.sand ?? POOL,
      usageStatus,
      now: NOW,
    }).providerCost;

  it('a valid monthly response supplies the spend in USD without adding creditsUsedCents', () => {
    expect(costWith(VALID)).toEqual({
      used: 18.34,
      limit: 50,
      currencyCode: 'USD',
      period: 'Monthly',
      resetsAt: new Date('2026-12-05T00:00:00.000Z'),
      updatedAt: NOW,
    });
  });

  it('accepts the money fields at the top level', () => {
    const { monthly, ...rest } = VALID;
    expect(costWith({ ...rest, ...monthly })).toMatchObject({ used: 18.34, limit: 50 });
  });

  it('accepts numeric strings', () => {
    expect(
      costWith({ ...VALID, monthly: { ...VALID.monthly, usedCents: '1834', limitCents: '5000' } }),
    ).toMatchObject({
      used: 18.34,
      limit: 50,
    });
  });

  it('a valid zero spend stays zero instead of the summary spend', () => {
    expect(costWith({ ...VALID, monthly: { ...VALID.monthly, usedCents: 0 } })).toMatchObject({
      used: 0,
      limit: 50,
    });
  });

  const SUMMARY_COST = { used: 12, limit: 40, resetsAt: new Date(CYCLE_END) };
  it.each([
    ['available: false', { ...VALID, monthly: { ...VALID.monthly, available: false } }],
    ['no available flag', { ...VALID, monthly: { ...VALID.monthly, available: undefined } }],
    ['no usedCents', { ...VALID, monthly: { ...VALID.monthly, usedCents: undefined } }],
    ['malformed limitCents', { ...VALID, monthly: { ...VALID.monthly, limitCents: 'lots' } }],
    ['negative usedCents', { ...VALID, monthly: { ...VALID.monthly, usedCents: -5 } }],
    ['no periodStart', { ...VALID, monthly: { ...VALID.monthly, periodStart: undefined } }],
    [
      'a period that has ended',
      { ...VALID, monthly: { ...VALID.monthly, resetsAt: '2026-11-28T11:59:59Z' } },
    ],
    [
      'a period that has not begun',
      { ...VALID, monthly: { ...VALID.monthly, periodStart: '2026-11-29T00:00:00Z' } },
    ],
    ['a team limit type', { ...VALID, limitType: 'team' }],
    ['an empty object', {}],
  ])('%s keeps the summary spend, cap and reset', (_name, status) => {
    expect(costWith(status)).toMatchObject(SUMMARY_COST);
  });

  it('is ignored for accounts that are not unified personal memberships', () => {
    expect(costWith(VALID, { sand: { ...POOL, isUnified: false } })).toMatchObject(SUMMARY_COST);
    expect(costWith(VALID, { summary: { ...SUMMARY, limitType: 'team' } })).toMatchObject(SUMMARY_COST);
  });

  it('the decoder ignores unknown fields and a malformed monthly object', () => {
    expect(usageStatusSchema.parse({ monthly: 'n/a', extra: true })).toMatchObject({ monthly: undefined });
  });
});
