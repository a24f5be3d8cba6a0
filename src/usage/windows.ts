/**
 * Every window a usage snapshot has, main ones first as `usage` lists them: Total, Cursor (Auto), Third Party
 * (API), then the extra windows (the unified weekly pool, Grok Bot). What `alert` watches for its most-used
 * window and what the status bars list and rank are the same set.
 */
import type { RateWindow, UsageSnapshot } from './types.js';

export interface SnapshotWindow {
  title: string;
  window: RateWindow;
  /** An extra window can be listed while cursor.com does not say how much of it is used. */
  usageKnown: boolean;
  /** The primary window, and the extra windows that show one (paid Grok Bot allowances). */
  showsPace: boolean;
}

export function snapshotWindows(snapshot: UsageSnapshot): SnapshotWindow[] {
  const windows: SnapshotWindow[] = [];
  for (const key of ['primary', 'secondary', 'tertiary'] as const) {
    const window = snapshot[key];
    if (window) {
      windows.push({ title: snapshot.labels[key], window, usageKnown: true, showsPace: key === 'primary' });
    }
  }
  for (const extra of snapshot.extraRateWindows) {
    windows.push({
      title: extra.title,
      window: extra.window,
      usageKnown: extra.usageKnown !== false,
      showsPace: extra.showsPace === true,
    });
  }
  return windows;
}
