/**
 * Splitting a window into the Admin API's 30-day requests. The API's bounds
 * are inclusive epoch ms, so consecutive pieces meet without sharing a millisecond: nothing is asked for
 * twice and nothing is left out. A longer window is split, never truncated.
 */

export const DAY_MS = 86_400_000;
export const ADMIN_MAX_SPAN_MS = 30 * DAY_MS;

export interface TimeRange {
  start: Date;
  /** Inclusive. */
  end: Date;
}

export function splitWindow(start: Date, end: Date, maxSpanMs = ADMIN_MAX_SPAN_MS): TimeRange[] {
  const ranges: TimeRange[] = [];
  const last = end.getTime();
  for (let from = start.getTime(); from <= last; from += maxSpanMs) {
    ranges.push({ start: new Date(from), end: new Date(Math.min(from + maxSpanMs - 1, last)) });
  }
  return ranges;
}
