/** The worked example as a hand-built snapshot (TZ=UTC, now 2026-07-20T15:00:00Z). */

import { DEFAULT_LABELS, type RateWindow, type UsageSnapshot } from '../../src/usage/types.js';

export const NOW = new Date('2026-07-20T15:00:00Z');
const CYCLE_END = new Date('2026-08-05T00:00:00Z');
const CYCLE_MINUTES = 44640;

function cycleWindow(usedPercent: number): RateWindow {
  return {
    usedPercent,
    windowMinutes: CYCLE_MINUTES,
    resetsAt: CYCLE_END,
    resetDescription: 'Resets Aug 5 at 12:00AM',
  };
}

/**
 * The worked example: Total 42 %, Cursor 35 %, Third Party 61 %, Grok Bot 20 % weekly; Pro plan,
 * dev@example.com.
 */
export function workedExampleSnapshot(options: { grokShowsPace?: boolean } = {}): UsageSnapshot {
  return {
    primary: cycleWindow(42),
    secondary: cycleWindow(35),
    tertiary: cycleWindow(61),
    labels: { ...DEFAULT_LABELS },
    extraRateWindows: [
      {
        id: 'cursor-grok-bot',
        title: 'Grok Bot',
        window: {
          usedPercent: 20,
          windowMinutes: 10080,
          resetsAt: new Date('2026-07-24T00:00:00Z'),
          resetDescription: 'Resets Jul 24 at 12:00AM',
        },
        usageKnown: true,
        showsPace: options.grokShowsPace ?? false,
      },
    ],
    details: [],
    updatedAt: new Date('2026-07-20T15:00:01Z'),
    identity: {
      providerID: 'cursor',
      accountEmail: 'dev@example.com',
      loginMethod: 'Cursor Pro',
      accountID: 'user_01J0EXAMPLE',
    },
  };
}

/** The worked example's legacy request plan: 120/500 requests with the cycle known, Enterprise. */
export function legacyRequestSnapshot(): UsageSnapshot {
  return {
    primary: { ...cycleWindow(24), resetDescription: '120 / 500 requests' },
    secondary: null,
    tertiary: null,
    labels: { ...DEFAULT_LABELS },
    extraRateWindows: [],
    details: [{ title: 'Usage', rows: [{ label: 'Request quota', value: '120 / 500' }] }],
    updatedAt: new Date('2026-07-20T15:00:01Z'),
    identity: { providerID: 'cursor', accountEmail: 'dev@example.com', loginMethod: 'Cursor Enterprise' },
  };
}
