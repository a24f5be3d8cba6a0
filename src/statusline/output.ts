import { encodeJson } from '../lib/json.js';
import { BAR_FORMATS, type BarEntry, type BarFormat, renderBar } from '../render/status-bars.js';
import {
  failureJson,
  failureText,
  isUtf8Locale,
  pendingJson,
  pendingText,
  type StatuslineJson,
  type StatuslineView,
  statuslineJson,
  statuslineText,
} from '../render/statusline.js';

/**
 * `statusline` settings and printing, shared by the full command and the fast path, so both print the same
 * bytes. Nothing here loads commander or zod.
 */

/** `--max-age` (statusline, usage, guard), in seconds: from 0 s to a day. */
export const MAX_AGE_RANGE = { min: 0, max: 86_400 };
/** statusline's `--timeout`, in seconds: from 1 s to 10 min. */
export const STATUSLINE_TIMEOUT_RANGE = { min: 1, max: 600 };
export const STATUSLINE_DEFAULT_MAX_AGE_MS = 60_000;
export const STATUSLINE_DEFAULT_TIMEOUT_MS = 3000;

/** `--format`: the plain line (the default), `--json`'s object, or a status bar's own format. */
export const STATUSLINE_FORMATS = ['line', 'json', ...BAR_FORMATS] as const;
export type StatuslineFormat = (typeof STATUSLINE_FORMATS)[number];

export interface StatuslineSettings {
  template: string;
  json: boolean;
  /** `--format waybar|swiftbar|i3blocks`; undefined for the line or `--json`. */
  bar?: BarFormat;
  pretty: boolean;
  /** `--color` (true), `--no-color` (false), or neither. */
  colorFlag?: boolean;
  strict: boolean;
}

/**
 * Colour only for text: `--no-color` and then `NO_COLOR` (any value) turn it off, `--color` or `FORCE_COLOR`
 * turn it on, `TERM=dumb` turns it off, otherwise a TTY decides.
 */
export function statuslineColour(
  settings: StatuslineSettings,
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
): boolean {
  if (
    settings.json ||
    settings.bar !== undefined ||
    settings.colorFlag === false ||
    env.NO_COLOR !== undefined
  )
    return false;
  const force = env.FORCE_COLOR;
  if (
    settings.colorFlag === true ||
    (force !== undefined && force !== '0' && force.toLowerCase() !== 'false')
  ) {
    return true;
  }
  if (env.TERM?.toLowerCase() === 'dumb') return false;
  return isTTY;
}

/** One account as each form prints it: the line, the `--json` object, and what a status bar shows. */
export interface StatuslineEntry {
  text: string;
  json: StatuslineJson;
  bar: BarEntry;
}

/** One account's line, as text (coloured when `statuslineColour` says so), JSON and a bar's entry. */
export function statuslineEntry(
  settings: StatuslineSettings,
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
  view: StatuslineView,
): StatuslineEntry {
  const localised = { ...view, ascii: !isUtf8Locale(env) };
  const text = statuslineText(settings.template, localised, statuslineColour(settings, env, isTTY));
  return { text, json: statuslineJson(text, localised), bar: { kind: 'usage', text, view: localised } };
}

/** `--no-wait` before an account's first snapshot: its placeholder in every form. */
export function pendingEntry(
  env: Readonly<Record<string, string | undefined>>,
  account: string | undefined,
): StatuslineEntry {
  const text = pendingText(account, !isUtf8Locale(env));
  return { text, json: pendingJson(text, account), bar: { kind: 'pending', text } };
}

/** A failed account: its short marker in every form. */
export function failureEntry(error: unknown, account: string | undefined): StatuslineEntry {
  const text = failureText(error, account);
  return { text, json: failureJson(error, account), bar: { kind: 'failure', text } };
}

/**
 * What stdout gets. Text: one line per account. JSON: one object, or with `array` (`--all-accounts`) an
 * array of them. A status bar's format: see src/render/status-bars.ts (one output for all the accounts).
 */
export function renderStatusline(
  entries: readonly StatuslineEntry[],
  settings: StatuslineSettings,
  array: boolean,
): string {
  if (settings.bar !== undefined) {
    return renderBar(
      settings.bar,
      entries.map((entry) => entry.bar),
    );
  }
  if (!settings.json) return entries.map((entry) => `${entry.text}\n`).join('');
  const objects = entries.map((entry) => entry.json);
  return `${encodeJson(array ? objects : objects[0], { pretty: settings.pretty })}\n`;
}
