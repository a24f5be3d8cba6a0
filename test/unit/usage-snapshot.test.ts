import { describe, expect, it } from 'vitest';
import { planName } from '../../src/usage/plan-name.js';
import { formatResetDate, resetText } from '../../src/usage/reset-text.js';
import { providerCostFrom, remainingPercent } from '../../src/usage/snapshot.js';
import { cycleMinutes } from '../../src/usage/summary.js';
import {
  figuresFrom,
  snapshotFrom,
  WORKED_NOW,
  WORKED_SAND,
  WORKED_SUMMARY,
} from '../helpers/usage-builders.js';

const NOW = new Date('2026-04-10T12:00:00Z');
const CYCLE = { billingCycleStart: '2026-04-01T00:00:00.000Z', billingCycleEnd: '2026-05-01T00:00:00.000Z' };

describe('usage windows', () => {
  it('maps the worked example to Total, Cursor and Third Party with the cycle length and end', () => {
    const snapshot = snapshotFrom({ summary: WORKED_SUMMARY, sand: WORKED_SAND, now: WORKED_NOW });
    const monthly = {
      windowMinutes: 44640,
      resetsAt: new Date('2026-08-05T00:00:00Z'),
      resetDescription: 'Resets Aug 5 at 12:00AM',
    };
    expect(snapshot.labels).toEqual({ primary: 'Total', secondary: 'Cursor', tertiary: 'Third Party' });
    expect(snapshot.primary).toEqual({ usedPercent: 42, ...monthly });
    expect(snapshot.secondary).toEqual({ usedPercent: 35, ...monthly });
    expect(snapshot.tertiary).toEqual({ usedPercent: 61, ...monthly });
    expect(snapshot.extraRateWindows).toEqual([
      {
        id: 'cursor-grok-bot',
        title: 'Grok Bot',
        usageKnown: true,
        showsPace: true,
        window: {
          usedPercent: 20,
          windowMinutes: 10080,
          resetsAt: new Date('2026-07-24T00:00:00Z'),
          resetDescription: 'Resets Jul 24 at 12:00AM',
        },
      },
    ]);
    expect(snapshot.details).toEqual([]);
    expect(snapshot.identity).toEqual({ providerID: 'cursor', loginMethod: 'Cursor Pro' });
    expect(snapshot.updatedAt).toEqual(WORKED_NOW);
  });

  it('a lane that is absent has no window', () => {
    const snapshot = snapshotFrom({
      summary: { ...CYCLE, individualUsage: { plan: { used: 1, limit: 4 } } },
      now: NOW,
    });
    expect(snapshot.primary?.usedPercent).toBe(25);
    expect([snapshot.secondary, snapshot.tertiary]).toEqual([null, null]);
  });

  it('without billing dates the primary has no duration, reset or description', () => {
    expect(snapshotFrom({ summary: {}, now: NOW }).primary).toEqual({ usedPercent: 0 });
  });

  it('a legacy request plan puts requests in primary unclamped (600/500 → 120) and drops lanes and Grok Bot', () => {
    const snapshot = snapshotFrom({
      summary: { ...CYCLE, individualUsage: { plan: { autoPercentUsed: 10, apiPercentUsed: 20 } } },
      legacy: { 'gpt-4': { numRequests: 600, maxRequestUsage: 500 } },
      sand: WORKED_SAND,
      now: NOW,
    });
    expect(snapshot.primary).toEqual({
      usedPercent: 120,
      windowMinutes: 43200,
      resetsAt: new Date('2026-05-01T00:00:00Z'),
      resetDescription: '600 / 500 requests',
      figures: [600, 500],
    });
    expect([snapshot.secondary, snapshot.tertiary, snapshot.extraRateWindows]).toEqual([null, null, []]);
    expect(snapshot.details).toEqual([
      { title: 'Usage', rows: [{ label: 'Request quota', value: '600 / 500', figures: [600, 500] }] },
    ]);
    expect(remainingPercent(snapshot.primary!)).toBe(0);
  });

  it.each([
    ['a limit of 0', { 'gpt-4': { numRequests: 120, maxRequestUsage: 0 } }],
    ['no request count', { 'gpt-4': { maxRequestUsage: 500 } }],
  ])('unusable legacy data (%s) keeps the token bars and adds no detail row', (_name, legacy) => {
    const snapshot = snapshotFrom({
      summary: { ...CYCLE, individualUsage: { plan: { autoPercentUsed: 10, apiPercentUsed: 20 } } },
      legacy,
      now: NOW,
    });
    expect(snapshot.primary?.usedPercent).toBe(15);
    expect(snapshot.secondary?.usedPercent).toBe(10);
    expect(snapshot.details).toEqual([]);
  });

  it.each([
    ['31 days', '2026-07-05T00:00:00Z', '2026-08-05T00:00:00Z', 44640],
    ['Jan 1 → Feb 1', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 44640],
    ['an end before the start', '2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', undefined],
    ['a zero-length cycle', '2026-02-01T00:00:00Z', '2026-02-01T00:00:00Z', undefined],
  ])('cycleMinutes for %s', (_name, start, end, minutes) => {
    expect(cycleMinutes(figuresFrom({ billingCycleStart: start, billingCycleEnd: end }))).toBe(minutes);
  });

  it('remaining is max(0, 100 − used)', () => {
    expect(remainingPercent({ usedPercent: 42 })).toBe(58);
    expect(remainingPercent({ usedPercent: 130 })).toBe(0);
  });
});

describe('provider cost', () => {
  const end = '2026-05-01T00:00:00.000Z';
  const costOf = (individualOnDemand: unknown, teamOnDemand?: unknown) =>
    providerCostFrom(
      figuresFrom({
        billingCycleEnd: end,
        individualUsage: { onDemand: individualOnDemand },
        teamUsage: teamOnDemand === undefined ? {} : { onDemand: teamOnDemand },
      }),
      NOW,
    );

  it.each([
    [
      'a personal cap beats the team budget (5/100 over 25/500)',
      { used: 500, limit: 10000 },
      { used: 2500, limit: 50000 },
      { used: 5, limit: 100 },
    ],
    [
      'a budget with nothing spent is shown (0/75)',
      { used: 0, limit: 7500 },
      undefined,
      { used: 0, limit: 75 },
    ],
    [
      'spend without a limit is shown with limit 0 (10/0)',
      { used: 1000, limit: null },
      undefined,
      { used: 10, limit: 0 },
    ],
    [
      'the team budget, with the personal share',
      { used: 4471, limit: null },
      { used: 20000, limit: 100000 },
      { used: 200, limit: 1000, personalUsed: 44.71 },
    ],
    [
      'the team budget without personal spend',
      { used: 0 },
      { used: 300, limit: 5000 },
      { used: 3, limit: 50 },
    ],
  ])('%s', (_name, mine, team, expected) => {
    expect(costOf(mine, team)).toEqual({
      ...expected,
      currencyCode: 'USD',
      period: 'Monthly',
      resetsAt: new Date(end),
      updatedAt: NOW,
    });
  });

  it('nothing spent and no limit means no provider cost', () => {
    expect(costOf({ used: 0, limit: null })).toBeUndefined();
    expect(costOf({ used: 0, limit: 0 }, { used: 0, limit: 0 })).toBeUndefined();
  });

  it('the snapshot carries it: the worked example is 12.34 of 50', () => {
    const snapshot = snapshotFrom({ summary: WORKED_SUMMARY, now: WORKED_NOW });
    expect(snapshot.providerCost).toMatchObject({ used: 12.34, limit: 50, period: 'Monthly' });
  });
});

describe('plan name', () => {
  it.each([
    ['enterprise', 'Cursor Enterprise'],
    ['express', 'Cursor Start'],
    ['free', 'Cursor Free'],
    ['free_trial', 'Cursor Pro Trial'],
    ['hobby', 'Cursor Hobby'],
    ['pro', 'Cursor Pro'],
    ['PRO', 'Cursor Pro'],
    ['pro_student', 'Cursor Pro'],
    ['pro_plus', 'Cursor Pro+'],
    ['team', 'Cursor Team'],
    ['ultra', 'Cursor Ultra'],
    ['custom_plan', 'Cursor custom_plan'],
    ['Custom_Plan', 'Cursor Custom_Plan'],
    ['constructor', 'Cursor constructor'],
  ])('%s → %s', (membership, name) => {
    expect(planName(membership)).toBe(name);
  });

  it('no membershipType means no plan name', () => {
    expect(planName(undefined)).toBeUndefined();
  });
});

describe('reset text: "Resets MMM d \'at\' h:mma", en_US_POSIX, in the local zone', () => {
  it.each([
    ['2026-02-01T00:00:00Z', 'UTC', 'Resets Feb 1 at 12:00AM'],
    ['2026-08-05T00:00:00Z', 'UTC', 'Resets Aug 5 at 12:00AM'],
    ['2026-09-15T12:05:00Z', 'UTC', 'Resets Sep 15 at 12:05PM'],
    ['2026-12-31T23:59:59Z', 'UTC', 'Resets Dec 31 at 11:59PM'],
    ['2026-02-01T00:00:00Z', 'America/New_York', 'Resets Jan 31 at 7:00PM'],
    ['2026-07-24T00:00:00Z', 'Asia/Kolkata', 'Resets Jul 24 at 5:30AM'],
  ])('%s in %s → %s', (iso, zone, text) => {
    expect(resetText(new Date(iso), zone)).toBe(text);
  });

  it('uses ASCII only (no narrow no-break space before AM/PM)', () => {
    expect(formatResetDate(new Date('2026-03-03T13:00:00Z'), 'UTC')).toBe('Mar 3 at 1:00PM');
  });
});
