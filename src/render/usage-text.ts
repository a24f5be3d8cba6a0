/**
 * The `usage` text section: header, one rate/pace/reset group per window,
 * Grok Bot, detail rows, the on-demand lines CodexBar's card shows, then Account and Plan.
 * Returns the section without a trailing newline; sections are joined by one blank line.
 */

import type { ChalkInstance } from 'chalk';
import type { ProviderStatus, StatusIndicator } from '../api/status-page.js';
import { formatCountdown } from '../usage/countdown.js';
import { computePace } from '../usage/pace.js';
import type { ProviderCost, RateWindow, UsageSnapshot } from '../usage/types.js';
import { palette } from './colour.js';
import { formatFixed, formatUSD, UNKNOWN } from './format.js';
import { safeText } from './safe-text.js';

export interface UsageTextOptions {
  /** The instant countdowns and pace are measured from. */
  now: Date;
  colour: boolean;
  /** With `--status`: the last line. */
  status?: ProviderStatus;
}

const BAR_WIDTH = 12;
const MAIN_WINDOWS = ['primary', 'secondary', 'tertiary'] as const;

export function renderUsageText(snapshot: UsageSnapshot, options: UsageTextOptions): string {
  const c = palette(options.colour);
  const lines: string[] = [c.bold.magentaBright('== Cursor (web) ==')];
  for (const key of MAIN_WINDOWS) {
    const window = snapshot[key];
    if (window) lines.push(...windowLines(c, snapshot.labels[key], window, true, options.now));
  }
  for (const extra of snapshot.extraRateWindows) {
    // Upstream shows no pace for extras; paid weekly Grok Bot opts in via showsPace.
    lines.push(...windowLines(c, extra.title, extra.window, extra.showsPace === true, options.now));
  }
  for (const section of snapshot.details) {
    for (const row of section.rows) {
      const shown = row.secondaryValue ? `${row.value} · ${row.secondaryValue}` : row.value;
      lines.push(labelled(c, row.label, row.figures?.some(isNegative) ? UNKNOWN : safeText(shown)));
    }
  }
  if (snapshot.providerCost) lines.push(...onDemandLines(c, snapshot.providerCost));
  const { accountEmail, loginMethod } = snapshot.identity;
  if (accountEmail) lines.push(labelled(c, 'Account', safeText(accountEmail)));
  if (loginMethod) lines.push(labelled(c, 'Plan', safeText(capitalizeWords(loginMethod))));
  if (options.status) lines.push(statusLine(c, options.status));
  return lines.join('\n');
}

/**
 * docs/invariants.md, "No unknown price as zero": figures no account can have (negative money or counts,
 * a reset more than 400 days away) print as unknown in text, and `--verbose` says which; JSON keeps
 * cursor.com's numbers.
 */
export function implausibleFigures(snapshot: UsageSnapshot, now: Date): string[] {
  const notes: string[] = [];
  const windows = [
    ...MAIN_WINDOWS.map((key) => snapshot[key]),
    ...snapshot.extraRateWindows.map((e) => e.window),
  ];
  if (windows.some((window) => window?.resetsAt && resetTooFar(window.resetsAt, now))) {
    notes.push('a reset more than 400 days away is shown as unknown');
  }
  const cost = snapshot.providerCost;
  if (cost && [cost.used, cost.limit, cost.personalUsed].some(isNegative)) {
    notes.push('a negative on-demand amount is shown as unknown');
  }
  const counts = [
    ...snapshot.details.flatMap((section) => section.rows.map((row) => row.figures)),
    ...windows.map((window) => window?.figures),
  ];
  if (counts.some((figures) => figures?.some(isNegative))) {
    notes.push('a negative request count is shown as unknown');
  }
  return notes.map((note) => `[cursor] cursor.com sent an impossible figure: ${note}`);
}

const MAX_RESET_DAYS = 400;

function resetTooFar(resetsAt: Date, now: Date): boolean {
  return resetsAt.getTime() - now.getTime() > MAX_RESET_DAYS * 86_400_000;
}

function isNegative(value: number | undefined): boolean {
  return value !== undefined && value < 0;
}

/** Each indicator's words and colour. */
const STATUS_LINES: Record<StatusIndicator, [string, 'green' | 'yellow' | 'red' | 'blue' | 'gray']> = {
  none: ['Operational', 'green'],
  minor: ['Partial outage', 'yellow'],
  major: ['Major outage', 'red'],
  critical: ['Critical issue', 'red'],
  maintenance: ['Maintenance', 'blue'],
  unknown: ['Status unknown', 'gray'],
};

/** `Status: Operational – All Systems Operational`, coloured as a whole by indicator. */
function statusLine(c: ChalkInstance, status: ProviderStatus): string {
  const description = status.description ? ` \u2013 ${safeText(status.description)}` : '';
  const [label, tint] = STATUS_LINES[status.indicator];
  return c[tint](`Status: ${label}${description}`);
}

function windowLines(
  c: ChalkInstance,
  label: string,
  window: RateWindow,
  paced: boolean,
  now: Date,
): string[] {
  const lines = [rateLine(c, label, window)];
  const pace = paced ? computePace(window, now) : undefined;
  if (pace) lines.push(labelled(c, 'Pace', pace.summary));
  const reset = resetText(window, now);
  if (reset) lines.push(c.gray(reset));
  return lines;
}

/**
 * `Total: 58% left [======------]`. Labels are escaped like any value: from the cache they are a file's
 * text (docs/invariants.md, "Control characters never reach a terminal").
 */
function rateLine(c: ChalkInstance, label: string, window: RateWindow): string {
  const remaining = Math.min(100, Math.max(0, 100 - window.usedPercent));
  const percent = remaining > 0 && remaining < 1 ? '<1% left' : `${formatFixed(remaining, 0)}% left`;
  const tint = remaining < 10 ? c.red : remaining < 25 ? c.yellow : c.green;
  const filled = Math.floor((remaining / 100) * BAR_WIDTH);
  const bar = `[${'='.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return `${safeText(label)}: ${tint(percent)} ${c.magentaBright(bar)}`;
}

/**
 * `Resets in 15d 9h` / `Resets now` from `resetsAt`; otherwise the raw `resetDescription`, keeping a
 * leading "Resets " or putting one in front.
 */
function resetText(window: RateWindow, now: Date): string | undefined {
  if (window.resetsAt) {
    if (resetTooFar(window.resetsAt, now)) return `Resets ${UNKNOWN}`;
    const seconds = (window.resetsAt.getTime() - now.getTime()) / 1000;
    return `Resets ${formatCountdown(seconds)}`;
  }
  const description = window.resetDescription?.trim();
  if (!description) return undefined;
  // An impossible figure: a legacy plan's `<used> / <limit> requests` with a negative count.
  if (window.figures?.some(isNegative)) return `Resets ${UNKNOWN}`;
  return safeText(description.startsWith('Resets ') ? description : `Resets ${description}`);
}

/**
 * What CodexBar's card shows for on-demand spend: `used / limit` when capped,
 * plain `used` when unlimited, and the member's own share of a team pool.
 */
function onDemandLines(c: ChalkInstance, cost: ProviderCost): string[] {
  const money = (value: number) => (value < 0 ? UNKNOWN : formatUSD(value));
  const spend = cost.limit !== 0 ? `${money(cost.used)} / ${money(cost.limit)}` : money(cost.used);
  const lines = [labelled(c, 'On-demand', spend)];
  if (cost.personalUsed !== undefined && cost.personalUsed !== 0) {
    lines.push(labelled(c, 'Your spend', money(cost.personalUsed)));
  }
  return lines;
}

function labelled(c: ChalkInstance, label: string, value: string): string {
  return `${c.magentaBright(safeText(label))}: ${value}`;
}

/**
 * The plan is capitalized per word. Only first letters are raised, so
 * `Cursor Pro+` and mapped names stay as they are.
 */
function capitalizeWords(text: string): string {
  return text.replace(/(^|\s)(\S)/g, (_match, space: string, first: string) => space + first.toUpperCase());
}
