/**
 * Which parts of a cost window come from the event store and which are fetched.
 * Pure: the window, the stored ranges and the settled boundary in; steps in time order out.
 *
 * - Only settled time (before `settledBefore`, 48 hours ago) is ever taken from the store; recent events can
 *   still change and are always fetched.
 * - Each stored range's part inside the window is one `stored` step: it is verified before use.
 * - Everything else is fetched, in as few requests as possible: the gaps between stored parts, and the last
 *   gap together with the recent part. A cold run is therefore exactly today's single fetch of the window.
 */
import type { StoredRange } from './event-store.js';

/** Epoch ms, half-open: `[start, end)`. */
export interface TimeSpan {
  start: number;
  end: number;
}

/** A stored step keeps when its range was fetched: a check by count alone trusts it only for a day. */
export type PlanStep = ({ kind: 'stored'; fetchedAt: number } | { kind: 'fetch' }) & TimeSpan;

export interface PlanInput {
  window: TimeSpan;
  stored: readonly StoredRange[];
  /** Events at or after this instant are recent: always fetched, never stored. */
  settledBefore: number;
}

export function planWindow({ window, stored, settledBefore }: PlanInput): PlanStep[] {
  const settledEnd = Math.min(window.end, settledBefore);
  const covered = stored
    .map((range) => ({
      start: Math.max(range.start, window.start),
      end: Math.min(range.end, settledEnd),
      fetchedAt: range.fetchedAt,
    }))
    .filter((span) => span.start < span.end)
    .sort((a, b) => a.start - b.start);
  const steps: PlanStep[] = [];
  let at = window.start;
  for (const span of covered) {
    if (span.start < at) continue; // stored ranges never overlap; this only guards against a damaged store
    if (span.start > at) steps.push({ kind: 'fetch', start: at, end: span.start });
    steps.push({ kind: 'stored', ...span });
    at = span.end;
  }
  if (at < window.end) steps.push({ kind: 'fetch', start: at, end: window.end });
  return steps;
}

/** The part of a fetched span that is settled, and may be stored; undefined when none is. */
export function settledPart(span: TimeSpan, settledBefore: number): TimeSpan | undefined {
  const end = Math.min(span.end, settledBefore);
  return span.start < end ? { start: span.start, end } : undefined;
}
