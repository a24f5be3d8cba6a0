import { describe, expect, it } from 'vitest';
import {
  dueThreshold,
  onDemandLevel,
  parseThresholds,
  planLevel,
  trackFor,
} from '../../src/alert/thresholds.js';
import { DEFAULT_LABELS, type RateWindow, type UsageSnapshot } from '../../src/usage/types.js';

const END = new Date('2026-12-15T00:00:00.000Z');

function snapshot(overrides: Partial<UsageSnapshot> = {}): UsageSnapshot {
  const window = (usedPercent: number): RateWindow => ({
    usedPercent,
    resetsAt: END,
    resetDescription: 'Resets Dec 15',
  });
  return {
    primary: window(45),
    secondary: window(3),
    tertiary: window(90),
    labels: { ...DEFAULT_LABELS },
    extraRateWindows: [],
    details: [],
    updatedAt: END,
    identity: { providerID: 'cursor' },
    ...overrides,
  };
}

describe('parseThresholds', () => {
  it.each([
    ['50,80,95', [50, 80, 95]],
    [' 1 , 100 ', [1, 100]],
    ['99.5', [99.5]],
  ])('%j is %j', (text, expected) => {
    expect(parseThresholds('--at', text)).toEqual(expected);
  });

  it.each([
    ['0', 'from 1 to 100'],
    ['100.5', 'from 1 to 100'],
    ['', 'from 1 to 100'],
    ['-5', 'from 1 to 100'],
    ['80,50', 'increasing order'],
    ['50,50', 'increasing order'],
  ])('%j is refused (%s)', (text, words) => {
    expect(parseThresholds('--at', text)).toContain(words);
  });
});

describe('planLevel follows the most-used window', () => {
  it('API at 90 % beats Total at 45 % and Auto at 3 %', () => {
    expect(planLevel(snapshot())).toEqual({
      kind: 'plan',
      percent: 90,
      window: 'Third Party',
      cycle: '2026-12-15T00:00:00.000Z',
      resetDescription: 'Resets Dec 15',
    });
  });

  it('an extra window counts unless its usage is unknown; the cycle is the latest reset', () => {
    const weekly = new Date('2026-12-01T00:00:00.000Z');
    const extra = (usageKnown: boolean) =>
      snapshot({
        extraRateWindows: [
          { id: 'grok', title: 'Grok Bot', window: { usedPercent: 97, resetsAt: weekly }, usageKnown },
        ],
      });
    expect(planLevel(extra(true))).toMatchObject({
      percent: 97,
      window: 'Grok Bot',
      cycle: END.toISOString(),
    });
    expect(planLevel(extra(false))).toMatchObject({ percent: 90 });
  });

  it('no window: no level; no reset: no cycle', () => {
    expect(planLevel(snapshot({ primary: null, secondary: null, tertiary: null }))).toBeUndefined();
    expect(planLevel(snapshot({ primary: { usedPercent: 10 }, secondary: null, tertiary: null }))).toEqual({
      kind: 'plan',
      percent: 10,
      window: 'Total',
    });
  });
});

describe('onDemandLevel', () => {
  const cost = (used: number, limit: number) =>
    snapshot({ providerCost: { used, limit, currencyCode: 'USD', resetsAt: END, updatedAt: END } });

  it('spend as a percentage of a positive limit', () => {
    expect(onDemandLevel(cost(45, 50), 'UTC')).toMatchObject({
      percent: 90,
      usedUSD: 45,
      limitUSD: 50,
      cycle: END.toISOString(),
      resetDescription: 'Resets Dec 15 at 12:00AM',
    });
    expect(onDemandLevel(cost(45, 0), 'UTC')).toBeUndefined();
    expect(onDemandLevel(snapshot(), 'UTC')).toBeUndefined();
  });
});

describe('dueThreshold', () => {
  it.each([
    [49.9, undefined, undefined],
    [50, undefined, 50],
    [85, undefined, 80],
    [85, 50, 80],
    [85, 80, undefined],
    [85, 95, undefined],
    [100, 80, 95],
  ])('at %d %% with %s sent: %s', (percent, sent, due) => {
    expect(dueThreshold([50, 80, 95], percent, sent)).toBe(due);
  });
});

describe('trackFor', () => {
  const recorded = { cycle: '2026-12-15T00:00:00.000Z', sent: { desktop: 80 } };

  it('the same cycle, or none named, keeps the record', () => {
    expect(trackFor(recorded, '2026-12-15T00:00:00.000Z')).toBe(recorded);
    expect(trackFor(recorded, undefined)).toBe(recorded);
  });

  it('a later cycle, or the first known one, starts afresh', () => {
    expect(trackFor(recorded, '2027-01-15T00:00:00.000Z')).toEqual({
      cycle: '2027-01-15T00:00:00.000Z',
      sent: {},
    });
    expect(trackFor({ cycle: null, sent: { desktop: 80 } }, END.toISOString())).toEqual({
      cycle: END.toISOString(),
      sent: {},
    });
    expect(trackFor(undefined, undefined)).toEqual({ cycle: null, sent: {} });
  });

  it('an earlier cycle (an older cached snapshot) has nothing due', () => {
    expect(trackFor(recorded, '2026-11-15T00:00:00.000Z')).toBeUndefined();
  });
});
