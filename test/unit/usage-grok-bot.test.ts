import { describe, expect, it } from 'vitest';
import { sandStatusSchema } from '../../src/api/schemas/sand-status.js';
import { grokAllowance, grokBotWindow } from '../../src/usage/grok-bot.js';
import { computePace } from '../../src/usage/pace.js';
import { sandFrom } from '../helpers/usage-builders.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const RESET = '2026-12-03T07:57:50.647Z';
const context = { now: NOW, timeZone: 'UTC', requestQuotaUsable: false };
const windowOf = (json: unknown) => grokBotWindow(sandFrom(json), context);
/** What a paid allowance with a valid reset shows: the percent, the reset and a full week for pace. */
const paidWeek = (usedPercent: number) => ({
  id: 'cursor-grok-bot',
  title: 'Grok Bot',
  usageKnown: true,
  showsPace: true,
  window: {
    usedPercent,
    windowMinutes: 10080,
    resetsAt: new Date(RESET),
    resetDescription: 'Resets Dec 3 at 7:57AM',
  },
});

describe('Grok Bot allowance', () => {
  it.each([
    [
      'includedLimitZero:false beats hasNonZeroIncludedLimit:false',
      { includedLimitZero: false, hasNonZeroIncludedLimit: false },
      'paid',
    ],
    [
      'includedLimitZero:true beats hasNonZeroIncludedLimit:true',
      { includedLimitZero: true, hasNonZeroIncludedLimit: true },
      undefined,
    ],
    ['the older flag alone still grants a paid allowance', { hasNonZeroIncludedLimit: true }, 'paid'],
    ['no flags and no trial grant nothing', {}, undefined],
    [
      'a trial that expires in the future',
      { includedLimitZero: true, sandTrialExpiresAt: '2026-12-01T00:00:00Z' },
      'trial',
    ],
    ['an expired trial', { includedLimitZero: true, sandTrialExpiresAt: '2026-11-01T00:00:00Z' }, undefined],
    ['a malformed trial date', { includedLimitZero: true, sandTrialExpiresAt: 'next week' }, undefined],
    ['a null trial date', { includedLimitZero: true, sandTrialExpiresAt: null }, undefined],
    [
      'paid wins over a trial',
      { includedLimitZero: false, sandTrialExpiresAt: '2026-12-01T00:00:00Z' },
      'paid',
    ],
  ])('%s', (_rule, json, allowance) => {
    expect(grokAllowance(sandFrom(json), NOW)).toBe(allowance);
  });
});

describe('Grok Bot window', () => {
  it('a paid allowance uses nextResetTimestampUtc and 10080 minutes even when currentPeriodStart is mid-week', () => {
    const extra = windowOf({
      usagePercent: 42,
      nextResetTimestampUtc: RESET,
      currentPeriodStart: '2026-11-29T07:57:50.647Z',
      includedLimitZero: false,
    });
    expect(extra).toEqual(paidWeek(42));
  });

  it('a paid allowance with no currentPeriodStart still covers the full week, so pace uses 7 days', () => {
    const extra = windowOf({ usagePercent: 42, nextResetTimestampUtc: RESET, hasNonZeroIncludedLimit: true });
    expect(extra?.window.windowMinutes).toBe(10080);
    // 4d 19h 58m of 7 days left: 31 % of the week has passed.
    expect(computePace(extra!.window, NOW)?.expectedUsedPercent).toBe(31);
  });

  it.each([
    ['missing', undefined],
    ['malformed', 'soon'],
  ])('a %s reset leaves no reset, no duration and no pace', (_name, reset) => {
    const extra = windowOf({ usagePercent: 42, nextResetTimestampUtc: reset, includedLimitZero: false });
    expect(extra?.window).toEqual({ usedPercent: 42 });
    expect(extra?.showsPace).toBe(false);
  });

  it('an active trial at 100 % is shown, without reset, duration or pace', () => {
    const extra = windowOf({
      usagePercent: 100,
      hasAvailableUsage: false,
      nextResetTimestampUtc: RESET,
      includedLimitZero: true,
      sandTrialExpiresAt: '2026-12-10T00:00:00Z',
    });
    expect(extra).toEqual({
      id: 'cursor-grok-bot',
      title: 'Grok Bot',
      usageKnown: true,
      showsPace: false,
      window: { usedPercent: 100 },
    });
  });

  it('an expired trial is hidden', () => {
    expect(
      windowOf({ usagePercent: 10, includedLimitZero: true, sandTrialExpiresAt: '2026-11-28T11:59:59Z' }),
    ).toBeUndefined();
  });

  it('no usagePercent means no window', () => {
    expect(windowOf({ includedLimitZero: false, nextResetTimestampUtc: RESET })).toBeUndefined();
  });

  it.each([false, true])(
    'hasAvailableUsage:%s is ignored: the paid week shows its own percent, reset and 10080 minutes',
    (hasAvailableUsage) => {
      const extra = windowOf({
        usagePercent: 5,
        nextResetTimestampUtc: RESET,
        includedLimitZero: false,
        hasAvailableUsage,
      });
      expect(extra).toEqual(paidWeek(5));
    },
  );

  it.each([
    [150, 100],
    [-3, 0],
  ])('usedPercent %d is clamped to %d', (raw, clamped) => {
    expect(windowOf({ usagePercent: raw, includedLimitZero: false })?.window.usedPercent).toBe(clamped);
  });

  it('is hidden on a usable legacy request plan', () => {
    const sand = sandFrom({ usagePercent: 5, includedLimitZero: false });
    expect(grokBotWindow(sand, { ...context, requestQuotaUsable: true })).toBeUndefined();
  });
});

describe('get-sand-usage-status decoding is lenient', () => {
  it('reads numeric strings as numbers and ignores unknown fields', () => {
    expect(sandStatusSchema.parse({ usagePercent: '42.5', somethingNew: 1 })).toMatchObject({
      usagePercent: 42.5,
    });
  });

  it('a wrongly typed field reads as absent instead of failing the response', () => {
    const sand = sandStatusSchema.parse({ usagePercent: 'lots', isUnified: 'yes', includedLimitZero: false });
    expect(sand).toMatchObject({ usagePercent: undefined, isUnified: undefined, includedLimitZero: false });
  });

  it('an empty object is valid', () => {
    expect(sandStatusSchema.safeParse({}).success).toBe(true);
  });

  it('a body that is not an object is rejected', () => {
    expect(sandStatusSchema.safeParse([1, 2]).success).toBe(false);
  });
});
