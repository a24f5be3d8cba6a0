/**
 * Which windows of a snapshot get a pace (docs/behaviour.md §13, §15.3): primary, secondary and tertiary
 * whenever `computePace` qualifies them, and extra windows only when they are flagged `showsPace`
 * (the paid weekly Grok Bot allowance, docs/behaviour.md §12.8). Upstream never paces
 * extras; ours is an additive choice.
 */

import { computePace, type PacePayload } from '../usage/pace.js';
import type { RateWindow, UsageSnapshot } from '../usage/types.js';

export type Pace = PacePayload;

export interface SnapshotPace {
  primary?: Pace;
  secondary?: Pace;
  tertiary?: Pace;
  /** Keyed by extra window id, e.g. `cursor-grok-bot`. */
  extra: Map<string, Pace>;
}

export function paceFor(window: RateWindow | null, now: Date): Pace | undefined {
  if (!window) return undefined;
  return computePace(window, now);
}

export function snapshotPace(snapshot: UsageSnapshot, now: Date): SnapshotPace {
  const extra = new Map<string, Pace>();
  for (const entry of snapshot.extraRateWindows) {
    if (!entry.showsPace) continue;
    const pace = paceFor(entry.window, now);
    if (pace) extra.set(entry.id, pace);
  }
  return {
    primary: paceFor(snapshot.primary, now),
    secondary: paceFor(snapshot.secondary, now),
    tertiary: paceFor(snapshot.tertiary, now),
    extra,
  };
}
