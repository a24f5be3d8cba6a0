/**
 * The one-line status: a template of `{token}`s filled from the usage snapshot,
 * the JSON object, and the short markers a failure prints. Zod-free and chalk-free: the statusline fast
 * path renders with it.
 */

import {
  AccountSelectionError,
  ApiError,
  ConfigError,
  errorBody,
  type JsonErrorBody,
  NoSessionError,
  NotLoggedInError,
  ParseError,
  TimeoutError,
  UnsupportedError,
} from '../errors.js';
import { formatCountdownDuration } from '../usage/countdown.js';
import { computePace } from '../usage/pace.js';
import type { UsageSnapshot } from '../usage/types.js';
import { safeText } from './safe-text.js';

export const STATUSLINE_TOKENS = [
  'label',
  'left',
  'used',
  'reset',
  'pace',
  'ondemand',
  'plan',
  'account',
  'age',
] as const;
type Token = (typeof STATUSLINE_TOKENS)[number];

export const DEFAULT_TEMPLATE = '{label} {left} · {reset} · {ondemand}';
/** Parts of a template between these are dropped, with the separator, when they come out empty. */
const SEPARATOR = ' · ';
/**
 * What a line joins its parts with, and the placeholder's ellipsis, where the locale is not UTF-8: a terminal
 * there draws `·` as `~`, which reads as the stale marker (docs/invariants.md, "No cached figure as fresh").
 */
const ASCII_SEPARATOR = ' | ';

/**
 * Whether the terminal's locale is UTF-8: the first of LC_ALL, LC_CTYPE and LANG that is set decides, as
 * setlocale(3) does. With none set (Windows, a bare service) nothing says otherwise, so the line keeps its
 * Unicode, as it always has.
 */
export function isUtf8Locale(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  return locale === undefined || /\.utf-?8(@|$)/i.test(locale);
}
const TOKEN = /\{([A-Za-z]+)\}/g;

/** The unknown `{token}`s of a template (empty when it is fine). */
export function unknownTokens(template: string): string[] {
  const known: readonly string[] = STATUSLINE_TOKENS;
  return [...template.matchAll(TOKEN)]
    .map((match) => match[0])
    .filter((token) => !known.includes(token.slice(1, -1)));
}

export interface StatuslineView {
  snapshot: UsageSnapshot;
  fetchedAt: Date;
  now: Date;
  stale: boolean;
  /** The token account's label when a flag named it: `{label}` and `account`. */
  account?: string;
  /** The locale is not UTF-8: the parts are joined with ` | ` (isUtf8Locale). */
  ascii?: boolean;
}

export interface StatuslineJson {
  provider: 'cursor';
  account?: string;
  text: string;
  leftPercent?: number;
  usedPercent?: number;
  resetsAt?: Date;
  stale: boolean;
  fetchedAt?: Date;
  ageSeconds?: number;
  error?: JsonErrorBody;
  /** `--no-wait` with no snapshot yet: the placeholder, while the background refresh fetches. */
  pending?: true;
}

/** `Cursor 58% left · 15d 9h · $12.34/$50`; a stale snapshot gets a leading `~`. */
export function statuslineText(template: string, view: StatuslineView, colour: boolean): string {
  const values = tokenValues(view);
  const fill = (part: string) => part.replace(TOKEN, (_whole, name: string) => values[name as Token] ?? '');
  const parts = template.split(SEPARATOR).map(fill);
  const line = parts
    .filter((part) => part.trim() !== '')
    .join(view.ascii ? ASCII_SEPARATOR : SEPARATOR)
    .trim();
  const text = `${view.stale ? '~' : ''}${line}`;
  const left = remainingPercent(view.snapshot);
  return colour && left !== undefined ? paint(text, left) : text;
}

export function statuslineJson(text: string, view: StatuslineView): StatuslineJson {
  const primary = view.snapshot.primary;
  return {
    provider: 'cursor',
    account: view.account,
    text,
    leftPercent: remainingPercent(view.snapshot),
    usedPercent: primary?.usedPercent,
    resetsAt: primary?.resetsAt,
    stale: view.stale,
    fetchedAt: view.fetchedAt,
    ageSeconds: ageSeconds(view),
  };
}

/**
 * A failure as one short line, `Cursor: not logged in`, so a prompt stays readable; `Cursor (work): …` for
 * a token account named by a flag.
 */
export function failureText(error: unknown, account?: string): string {
  return `${productLabel(account)}: ${failureMarker(error)}`;
}

export function failureJson(error: unknown, account?: string): StatuslineJson {
  return {
    provider: 'cursor',
    account,
    text: failureText(error, account),
    stale: false,
    error: errorBody(error),
  };
}

/**
 * `statusline --no-wait` before the account's first snapshot: `Cursor …` (`Cursor ...` where the locale is not
 * UTF-8), printed at once while the one background refresh fetches the figures.
 */
export function pendingText(account: string | undefined, ascii: boolean): string {
  return `${productLabel(account)} ${ascii ? '...' : '…'}`;
}

export function pendingJson(text: string, account: string | undefined): StatuslineJson {
  return { provider: 'cursor', account, text, stale: false, pending: true };
}

/** `Cursor`, or `Cursor (work)` for a token account named by a flag. */
export function productLabel(account: string | undefined): string {
  return account?.trim() ? `Cursor (${safeText(account)})` : 'Cursor';
}

function failureMarker(error: unknown): string {
  if (error instanceof NoSessionError && error.noDesktopSession) return 'no desktop session';
  if (error instanceof NoSessionError || error instanceof NotLoggedInError) return 'not logged in';
  if (error instanceof AccountSelectionError) return 'no such account';
  if (error instanceof TimeoutError) return 'timed out';
  if (error instanceof ApiError) return error.transport ? 'offline' : 'cursor.com error';
  if (error instanceof ParseError) return 'unexpected response';
  if (error instanceof ConfigError) return 'config error';
  if (error instanceof UnsupportedError) return 'unavailable';
  return 'error';
}

function tokenValues(view: StatuslineView): Record<Token, string> {
  const { snapshot, now } = view;
  const primary = snapshot.primary;
  const left = remainingPercent(snapshot);
  const resetIn = primary?.resetsAt && (primary.resetsAt.getTime() - now.getTime()) / 1000;
  const pace = primary ? computePace(primary, now) : undefined;
  return {
    label: productLabel(view.account),
    left: left === undefined ? '' : `${percent(left)} left`,
    used: primary ? `${percent(Math.max(0, primary.usedPercent))} used` : '',
    reset: resetIn === undefined ? '' : (formatCountdownDuration(resetIn) ?? 'now'),
    pace: pace?.summary.split(' | ')[0] ?? '',
    ondemand: onDemand(snapshot),
    // cursor.com's text, live or from a snapshot: it goes into prompts and tmux (docs/invariants.md,
    // "Control characters never reach a terminal").
    plan: safeText(snapshot.identity.loginMethod?.replace(/^Cursor /, '') ?? ''),
    account: safeText(snapshot.identity.accountEmail ?? ''),
    age: compactAge(ageSeconds(view)),
  };
}

function remainingPercent(snapshot: UsageSnapshot): number | undefined {
  const primary = snapshot.primary;
  return primary ? Math.min(100, Math.max(0, 100 - primary.usedPercent)) : undefined;
}

/** `usage`'s rounding: half to even, and `<1%` for a sliver. */
export function percent(value: number): string {
  if (value > 0 && value < 1) return '<1%';
  const rounded = Math.round(value);
  const even = Math.abs(value % 1) === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
  return `${even}%`;
}

/** `$12.34/$50` when there is on-demand spend; whole dollars drop their cents. */
function onDemand(snapshot: UsageSnapshot): string {
  const cost = snapshot.providerCost;
  if (!cost || !(cost.used > 0)) return '';
  return cost.limit > 0 ? `${dollars(cost.used)}/${dollars(cost.limit)}` : dollars(cost.used);
}

export function dollars(value: number): string {
  const cents = Math.round(value * 100);
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

export function ageSeconds(view: StatuslineView): number {
  return Math.max(0, Math.floor((view.now.getTime() - view.fetchedAt.getTime()) / 1000));
}

/** `12s`, `5m`, `3h`, `2d`: the largest whole unit. */
export function compactAge(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** Below this percent left a line is yellow (a status bar's `warning`); `usage`'s threshold. */
export const WARNING_LEFT_PERCENT = 25;
/** Below this percent left a line is red (a status bar's `critical`). */
export const CRITICAL_LEFT_PERCENT = 10;

/** Green, yellow below 25 % left, red below 10 % (`usage`'s thresholds). */
function paint(text: string, left: number): string {
  const code = left < CRITICAL_LEFT_PERCENT ? 31 : left < WARNING_LEFT_PERCENT ? 33 : 32;
  return `\u001b[${code}m${text}\u001b[39m`;
}
