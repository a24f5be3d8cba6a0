/**
 * `statusline --format waybar|swiftbar|i3blocks`: the line and the snapshot's other facts in the formats those
 * status bars read. Zod-free and chalk-free, like the line itself: the statusline fast path renders with it.
 *
 * The level (Waybar's `class`, SwiftBar's and i3blocks' colour) follows the most-constrained window, as an
 * alert does: `critical` below 10 % left, `warning` below 25 %, else `ok` (`usage`'s colour thresholds), and
 * `unknown` when the snapshot has no window with known usage. The text is the template's line, as printed
 * without `--format`; everything in it that came from cursor.com has been through safeText already
 * (docs/invariants.md, "Control characters never reach a terminal"), and each format escapes what it reads
 * as syntax on top: Pango markup for Waybar, `|` and a leading `-` for SwiftBar.
 */

import { formatCountdownDuration } from '../usage/countdown.js';
import { computePace } from '../usage/pace.js';
import type { RateWindow, UsageSnapshot } from '../usage/types.js';
import { snapshotWindows } from '../usage/windows.js';
import { safeText } from './safe-text.js';
import {
  ageSeconds,
  CRITICAL_LEFT_PERCENT,
  compactAge,
  dollars,
  percent,
  productLabel,
  type StatuslineView,
  WARNING_LEFT_PERCENT,
} from './statusline.js';

export const BAR_FORMATS = ['waybar', 'swiftbar', 'i3blocks'] as const;
export type BarFormat = (typeof BAR_FORMATS)[number];

/**
 * One account as a bar shows it: its line and snapshot, a failure's short marker, or `--no-wait`'s placeholder
 * before the account's first snapshot.
 */
export type BarEntry =
  | { kind: 'usage'; text: string; view: StatuslineView }
  | { kind: 'failure' | 'pending'; text: string };

type Level = 'ok' | 'warning' | 'critical' | 'unknown';

/** SwiftBar's and i3blocks' colours; `ok` and `unknown` keep the bar's own. */
const COLOURS: Partial<Record<Level | 'error', string>> = {
  warning: '#FFB000',
  critical: '#FF3B30',
  error: '#8E8E93',
};

/** Between the accounts' texts where a bar has one line for all of them (`--all-accounts`). */
const ACCOUNT_SEPARATOR = ' | ';

export function renderBar(format: BarFormat, entries: readonly BarEntry[]): string {
  // A template may hold a line break of its own: each of these formats is line-based.
  const lines = entries.map((entry) => ({ ...entry, text: entry.text.replace(/[\r\n]+/g, ' ') }));
  if (format === 'waybar') return `${waybar(lines)}\n`;
  if (format === 'swiftbar') return swiftbar(lines);
  return i3blocks(lines);
}

interface WindowFact {
  title: string;
  /** Percent left, 0–100; undefined when cursor.com does not say. */
  left?: number;
  window: RateWindow;
  pace: boolean;
}

/** Every window the snapshot has, main ones first, as `usage` lists them. */
function windowsOf(snapshot: UsageSnapshot): WindowFact[] {
  return snapshotWindows(snapshot).map(({ title, window, usageKnown, showsPace }) => ({
    title: safeText(title),
    left: usageKnown ? leftOf(window) : undefined,
    window,
    pace: showsPace,
  }));
}

function leftOf(window: RateWindow): number | undefined {
  const used = window.usedPercent;
  return Number.isFinite(used) ? Math.min(100, Math.max(0, 100 - used)) : undefined;
}

/** The percent left of the most-constrained window. */
function constrainedLeft(snapshot: UsageSnapshot): number | undefined {
  const lefts = windowsOf(snapshot).flatMap((fact) => (fact.left === undefined ? [] : [fact.left]));
  return lefts.length === 0 ? undefined : Math.min(...lefts);
}

function levelOf(left: number | undefined): Level {
  if (left === undefined) return 'unknown';
  return left < CRITICAL_LEFT_PERCENT ? 'critical' : left < WARNING_LEFT_PERCENT ? 'warning' : 'ok';
}

const LEVEL_ORDER: readonly Level[] = ['unknown', 'ok', 'warning', 'critical'];

/** The worst of several accounts' levels; `unknown` only when none is known. */
function worstLevel(levels: readonly Level[]): Level {
  return levels.reduce<Level>(
    (worst, level) => (LEVEL_ORDER.indexOf(level) > LEVEL_ORDER.indexOf(worst) ? level : worst),
    'unknown',
  );
}

/**
 * The facts behind the line, one per line: who (label, plan, account), every window with its reset (the
 * primary one with its pace), on-demand spend, and how old the figures are.
 */
function details(view: StatuslineView): string[] {
  const { snapshot, now } = view;
  const plan = snapshot.identity.loginMethod?.replace(/^Cursor /, '');
  const who = [productLabel(view.account), plan, snapshot.identity.accountEmail]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .map(safeText);
  const lines = [who.join(' · ')];
  for (const fact of windowsOf(snapshot)) {
    const parts = [fact.left === undefined ? 'unknown' : `${percent(fact.left)} left`];
    const resetsAt = fact.window.resetsAt;
    if (resetsAt) {
      const countdown = formatCountdownDuration((resetsAt.getTime() - now.getTime()) / 1000);
      parts.push(countdown === undefined ? 'resets now' : `resets in ${countdown}`);
    }
    const pace = fact.pace ? computePace(fact.window, now)?.summary.split(' | ')[0] : undefined;
    if (pace) parts.push(pace);
    lines.push(`${fact.title}: ${parts.join(' · ')}`);
  }
  const cost = snapshot.providerCost;
  if (cost && Number.isFinite(cost.used) && cost.used >= 0) {
    lines.push(`On-demand: ${dollars(cost.used)}${cost.limit > 0 ? ` of ${dollars(cost.limit)}` : ''}`);
  }
  lines.push(`Updated ${compactAge(ageSeconds(view))} ago${view.stale ? ' (stale)' : ''}`);
  return lines;
}

// ---------------------------------------------------------------------------------------------- Waybar

interface WaybarObject {
  text: string;
  alt: string;
  tooltip: string;
  class: string | string[];
  percentage?: number;
}

/**
 * One JSON object on one line (a custom module's `"return-type": "json"`). `class` is the level, plus
 * `stale` for a stale snapshot, `pending` for `--no-wait`'s placeholder and `error` for a failed account (a
 * failure alone is `error`); `alt` is the level, or `error` or `pending` when no account has figures, for
 * `format-icons`; `percentage` is the most-constrained window's percent left, rounded.
 * Waybar reads `text` and `tooltip` as Pango markup, so `&`, `<` and `>` are escaped.
 */
function waybar(entries: readonly BarEntry[]): string {
  const usage = entries.flatMap((entry) => (entry.kind === 'usage' ? [entry] : []));
  const lefts = usage.flatMap((entry) => {
    const left = constrainedLeft(entry.view.snapshot);
    return left === undefined ? [] : [left];
  });
  const failed = entries.some((entry) => entry.kind === 'failure');
  const level = worstLevel(lefts.map(levelOf));
  const classes = [
    ...(usage.length > 0 ? [level] : []),
    ...(usage.some((entry) => entry.view.stale) ? ['stale'] : []),
    ...(entries.some((entry) => entry.kind === 'pending') ? ['pending'] : []),
    ...(failed ? ['error'] : []),
  ];
  const object: WaybarObject = {
    text: pango(entries.map((entry) => entry.text).join(ACCOUNT_SEPARATOR)),
    alt: usage.length > 0 ? level : failed ? 'error' : 'pending',
    tooltip: pango(
      entries
        .map((entry) => (entry.kind === 'usage' ? details(entry.view).join('\n') : entry.text))
        .join('\n\n'),
    ),
    class: classes.length === 1 ? classes[0]! : classes,
    percentage: lefts.length === 0 ? undefined : Math.round(Math.min(...lefts)),
  };
  // JSON.stringify, not encodeJson: one line, and Waybar needs none of CodexBar's encoding.
  return JSON.stringify(object);
}

function pango(text: string): string {
  return text.replace(/[&<>]/g, (character) =>
    character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;',
  );
}

// ------------------------------------------------------------------------------------- SwiftBar and xbar

/**
 * Each account's title line (SwiftBar and xbar cycle through several), `---`, then each account's facts as
 * menu lines (a `---` between accounts), and a Refresh item. Every text line turns off emoji and SF Symbol
 * parsing (`:name:` in cursor.com's text stays text); a low level colours the title and its window's line.
 */
function swiftbar(entries: readonly BarEntry[]): string {
  const titles = entries.map((entry) => {
    if (entry.kind !== 'usage') return swiftbarLine(entry.text, markerColour(entry));
    return swiftbarLine(entry.text, COLOURS[levelOf(constrainedLeft(entry.view.snapshot))]);
  });
  const sections = entries.map((entry) => {
    if (entry.kind !== 'usage') return [swiftbarLine(entry.text, markerColour(entry))];
    const [who = '', ...rest] = details(entry.view);
    const windows = windowsOf(entry.view.snapshot);
    return [
      swiftbarLine(who),
      ...rest.map((line, index) => {
        const fact = windows[index];
        return swiftbarLine(line, fact ? COLOURS[levelOf(fact.left)] : undefined);
      }),
    ];
  });
  const lines = [
    ...titles,
    '---',
    ...sections.flatMap((section, index) => [...(index > 0 ? ['---'] : []), ...section]),
  ];
  lines.push('---', 'Refresh | refresh=true');
  return lines.map((line) => `${line}\n`).join('');
}

/** A failure's marker is grey; the placeholder keeps the bar's own colour. */
function markerColour(entry: BarEntry): string | undefined {
  return entry.kind === 'failure' ? COLOURS.error : undefined;
}

/**
 * `text | params`. A `|` in the text would start the parameters, so it becomes `¦`; a leading `-` would make
 * the line a separator or a submenu item, so it becomes `‐` (U+2010).
 */
function swiftbarLine(text: string, colour?: string): string {
  const safe = text.replace(/\|/g, '¦').replace(/^-/, '\u2010');
  return `${safe} | ${colour ? `color=${colour} ` : ''}emojize=false symbolize=false`;
}

// ------------------------------------------------------------------------------------------------ i3blocks

/**
 * i3blocks' three lines: the full text, the short text (the primary window's percent left, `~` when stale;
 * a failure's marker or the placeholder), and the colour for `warning`, `critical` or a failure (no third
 * line otherwise). With several accounts, each line joins theirs and the colour is the worst. No markup:
 * leave the block's `markup` unset.
 */
function i3blocks(entries: readonly BarEntry[]): string {
  const full = entries.map((entry) => entry.text).join(ACCOUNT_SEPARATOR);
  const short = entries
    .map((entry) => {
      if (entry.kind !== 'usage') return entry.text;
      const primary = entry.view.snapshot.primary;
      const left = primary ? leftOf(primary) : undefined;
      return left === undefined ? entry.text : `${entry.view.stale ? '~' : ''}${percent(left)}`;
    })
    .join(ACCOUNT_SEPARATOR);
  const usage = entries.flatMap((entry) => (entry.kind === 'usage' ? [entry] : []));
  const level = worstLevel(usage.map((entry) => levelOf(constrainedLeft(entry.view.snapshot))));
  const colour =
    COLOURS[level] ?? (entries.some((entry) => entry.kind === 'failure') ? COLOURS.error : undefined);
  return `${full}\n${short}\n${colour === undefined ? '' : `${colour}\n`}`;
}
