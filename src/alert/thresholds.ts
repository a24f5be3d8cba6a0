import { resetText } from '../usage/reset-text.js';
import type { UsageSnapshot } from '../usage/types.js';
import { snapshotWindows } from '../usage/windows.js';

/**
 * `codexbar alert`'s rules, pure: which level a snapshot is at, which billing cycle it belongs to, and which
 * threshold is due on a channel given what that channel already sent in the cycle. The command reads and
 * writes the record (state.ts) and delivers (deliver.ts); nothing here touches the disk or the network.
 */

/** What an alert is about: the plan's most-constrained window, or on-demand spend against its limit. */
export type AlertKind = 'plan' | 'on-demand';

/** Where an alert goes. */
export const CHANNELS = ['desktop', 'webhook', 'exec'] as const;
export type Channel = (typeof CHANNELS)[number];

/** How far along one kind is, as the snapshot tells it. */
export interface Level {
  kind: AlertKind;
  percent: number;
  /** The window's label (`Total`, `Auto`, `Grok Bot`, …), or `On-demand`. */
  window: string;
  /** The billing cycle's end (ISO 8601), which names the cycle; undefined when the snapshot has none. */
  cycle?: string;
  /** Cursor's own reset text for the window, when it has one (`Resets Dec 15 at 12:00AM`). */
  resetDescription?: string;
  /** On-demand only: dollars used and the limit. */
  usedUSD?: number;
  limitUSD?: number;
}

/** One kind's record for one account: the cycle it is about and the highest threshold each channel sent. */
export interface Track {
  cycle: string | null;
  sent: Partial<Record<Channel, number>>;
}

/**
 * `--at 50,80,95`: percentages from 1 to 100 (fractions allowed), strictly increasing. Anything else is an
 * error sentence naming the flag; the command turns it into an argument error (exit 64).
 */
export function parseThresholds(flag: string, text: string): number[] | string {
  const parts = text.split(',').map((part) => part.trim());
  const values: number[] = [];
  for (const part of parts) {
    const value = /^\d+(\.\d+)?$/.test(part) ? Number(part) : Number.NaN;
    if (!(value >= 1 && value <= 100)) {
      return `${flag} takes percentages from 1 to 100, separated by commas (got '${part}' in '${text}').`;
    }
    const last = values.at(-1);
    if (last !== undefined && value <= last) {
      return `${flag} must list each percentage once, in increasing order (got '${text}').`;
    }
    values.push(value);
  }
  return values;
}

/**
 * The plan's level: the highest used percent over every window the snapshot has (Total, Auto, API, the
 * unified weekly pool, Grok Bot), so the pool that runs out first is the one watched. An extra window whose
 * usage is not known is left out. The cycle is the latest reset among the windows: the billing cycle's end
 * (a weekly extra window resets inside it and does not re-arm the thresholds).
 */
export function planLevel(snapshot: UsageSnapshot): Level | undefined {
  let top: Level | undefined;
  let cycleEnd: number | undefined;
  for (const { title: label, window, usageKnown } of snapshotWindows(snapshot)) {
    if (!usageKnown || !Number.isFinite(window.usedPercent)) continue;
    const end = window.resetsAt?.getTime();
    if (end !== undefined && Number.isFinite(end) && (cycleEnd === undefined || end > cycleEnd))
      cycleEnd = end;
    if (top === undefined || window.usedPercent > top.percent) {
      top = { kind: 'plan', percent: window.usedPercent, window: label };
      if (window.resetDescription !== undefined) top.resetDescription = window.resetDescription;
    }
  }
  if (top && cycleEnd !== undefined) top.cycle = new Date(cycleEnd).toISOString();
  return top;
}

/** On-demand spend as a percentage of its limit; none without a positive limit. */
export function onDemandLevel(snapshot: UsageSnapshot, timeZone: string): Level | undefined {
  const cost = snapshot.providerCost;
  if (!cost || !(cost.limit > 0) || !Number.isFinite(cost.used)) return undefined;
  const level: Level = {
    kind: 'on-demand',
    percent: (cost.used / cost.limit) * 100,
    window: 'On-demand',
    usedUSD: cost.used,
    limitUSD: cost.limit,
  };
  const end = cost.resetsAt?.getTime();
  if (cost.resetsAt && end !== undefined && Number.isFinite(end)) {
    level.cycle = cost.resetsAt.toISOString();
    level.resetDescription = resetText(cost.resetsAt, timeZone);
  }
  return level;
}

/**
 * The record to decide this level's cycle against:
 * - the same cycle, or a snapshot that names none: the recorded track;
 * - a later cycle (or the first one known): a fresh track, so every threshold is armed again;
 * - an earlier cycle (an older cached snapshot): undefined, nothing is due.
 */
export function trackFor(recorded: Track | undefined, cycle: string | undefined): Track | undefined {
  const fresh: Track = { cycle: cycle ?? null, sent: {} };
  if (recorded === undefined) return fresh;
  if (cycle === undefined || recorded.cycle === cycle) return recorded;
  if (recorded.cycle === null) return fresh;
  const then = Date.parse(recorded.cycle);
  const now = Date.parse(cycle);
  if (Number.isNaN(then) || now > then) return fresh;
  return undefined;
}

/**
 * The threshold a channel is due to send: the highest one the level has reached (inclusive), when the
 * channel has sent nothing as high in this cycle. A level that jumps past several thresholds at once sends
 * one alert, for the highest; the lower ones count as sent with it. So a channel with no record (a first run,
 * or a record that was lost) sends at most one alert, never one per threshold.
 */
export function dueThreshold(
  thresholds: readonly number[],
  percent: number,
  sentUpTo: number | undefined,
): number | undefined {
  let top: number | undefined;
  for (const threshold of thresholds) if (percent >= threshold) top = threshold;
  if (top === undefined) return undefined;
  return sentUpTo !== undefined && sentUpTo >= top ? undefined : top;
}
