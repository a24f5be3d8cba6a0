import { describe, expect, it } from 'vitest';
import { formatCountdown } from '../../src/usage/countdown.js';
import { computePace, roundHalfAwayFromZero } from '../../src/usage/pace.js';
import type { RateWindow } from '../../src/usage/types.js';
import { snapshotFrom, WORKED_NOW, WORKED_SAND, WORKED_SUMMARY } from '../helpers/usage-builders.js';

const DAY = 86_400;
const NOW = new Date('2026-06-01T00:00:00Z');

/** A window of `days` days with `daysLeft` until its reset. */
function windowOf(usedPercent: number, days: number, daysLeft: number): RateWindow {
  return {
    usedPercent,
    windowMinutes: days * 1440,
    resetsAt: new Date(NOW.getTime() + daysLeft * DAY * 1000),
  };
}

describe('reset countdown', () => {
  it.each([
    [0.4, 'now'],
    [1, 'in 1m'],
    [59, 'in 1m'],
    [61, 'in 2m'],
    [3600, 'in 1h'],
    [3600 + 5 * 60, 'in 1h 5m'],
    [DAY, 'in 1d'],
    [DAY + 3600, 'in 1d 1h'],
    [DAY + 7 * 60, 'in 1d 7m'],
    [15 * DAY + 9 * 3600, 'in 15d 9h'],
    [15 * DAY + 9 * 3600 + 30 * 60, 'in 15d 9h'],
  ])('%d s → %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });

  it('counts from now to the reset: the worked example resets in 15d 9h', () => {
    expect(formatCountdown((Date.parse('2026-08-05T00:00:00Z') - WORKED_NOW.getTime()) / 1000)).toBe(
      'in 15d 9h',
    );
  });
});

describe('pace', () => {
  it('90 % used with 6 of 30 days left is 10 % in deficit and runs out in 2d 16h', () => {
    const pace = computePace(windowOf(90, 30, 6), NOW);
    expect(pace).toEqual({
      stage: 'ahead',
      deltaPercent: 10,
      expectedUsedPercent: 80,
      willLastToReset: false,
      etaSeconds: 230400,
      summary: '10% in deficit | Expected 80% used | Runs out in 2d 16h',
    });
  });

  it('reproduces the three pace lines of the worked example', () => {
    const snapshot = snapshotFrom({ summary: WORKED_SUMMARY, sand: WORKED_SAND, now: WORKED_NOW });
    const paces = [snapshot.primary, snapshot.secondary, snapshot.tertiary].map((w) =>
      computePace(w!, WORKED_NOW),
    );
    expect(paces).toEqual([
      {
        stage: 'behind',
        deltaPercent: -8,
        expectedUsedPercent: 50,
        willLastToReset: true,
        summary: '8% in reserve | Expected 50% used | Lasts until reset',
      },
      {
        stage: 'farBehind',
        deltaPercent: -15,
        expectedUsedPercent: 50,
        willLastToReset: true,
        summary: '15% in reserve | Expected 50% used | Lasts until reset',
      },
      {
        stage: 'ahead',
        deltaPercent: 11,
        expectedUsedPercent: 50,
        willLastToReset: false,
        etaSeconds: 863115,
        summary: '11% in deficit | Expected 50% used | Runs out in 9d 23h',
      },
    ]);
  });

  it('79 % used with 5000 s left of 5 h: expected 72, delta 7, eta 3456', () => {
    const window = { usedPercent: 79, windowMinutes: 300, resetsAt: new Date(NOW.getTime() + 5_000_000) };
    expect(computePace(window, NOW)).toMatchObject({
      expectedUsedPercent: 72,
      deltaPercent: 7,
      etaSeconds: 3456,
    });
  });

  it('exactly half-way at 50 % is on pace and lasts', () => {
    expect(computePace(windowOf(50, 30, 15), NOW)?.summary).toBe(
      'On pace | Expected 50% used | Lasts until reset',
    );
  });

  it('nothing used lasts until reset', () => {
    expect(computePace(windowOf(0, 30, 15), NOW)).toMatchObject({
      willLastToReset: true,
      stage: 'farBehind',
    });
  });

  it.each([
    ['|delta| ≤ 2 is on track', 52, 'onTrack'],
    ['|delta| ≤ 6 ahead is slightly ahead', 56, 'slightlyAhead'],
    ['|delta| ≤ 6 behind is slightly behind', 44, 'slightlyBehind'],
    ['|delta| ≤ 12 ahead is ahead', 62, 'ahead'],
    ['|delta| ≤ 12 behind is behind', 38, 'behind'],
    ['|delta| > 12 ahead is far ahead', 63, 'farAhead'],
    ['|delta| > 12 behind is far behind', 37, 'farBehind'],
  ])('stage: %s', (_rule, used, stage) => {
    expect(computePace(windowOf(used, 30, 15), NOW)?.stage).toBe(stage);
  });

  it.each([
    ['no duration', { usedPercent: 40, resetsAt: new Date(NOW.getTime() + DAY * 1000) }],
    ['no reset', { usedPercent: 40, windowMinutes: 43200 }],
    ['a reset in the past', windowOf(40, 30, -1)],
    ['a reset further away than the window', windowOf(40, 30, 31)],
    ['nothing remaining', windowOf(100, 30, 15)],
    ['over the limit (legacy 120 %)', windowOf(120, 30, 15)],
    ['elapsed 0 while used > 0', windowOf(10, 30, 30)],
    ['expected below 3 %', windowOf(1, 30, 29.5)],
  ])('no pace with %s', (_name, window) => {
    expect(computePace(window, NOW)).toBeUndefined();
  });

  it('rounds half away from zero, as Swift .rounded()', () => {
    expect([2.5, -2.5, -8.4, 0.5, -0.4].map(roundHalfAwayFromZero)).toEqual([3, -3, -8, 1, 0]);
  });

  it('a delta of exactly -x.5 rounds away from zero in JSON and text', () => {
    // 15 of 30 days gone (expected 50 %), 41.5 % used: delta −8.5.
    const pace = computePace(windowOf(41.5, 30, 15), NOW);
    expect(pace?.deltaPercent).toBe(-9);
    expect(pace?.summary.startsWith('9% in reserve')).toBe(true);
  });
});
