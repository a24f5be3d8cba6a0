import type { OutputStream } from '../cli/io.js';
import { encodeJson } from '../lib/json.js';
import {
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

export interface StatuslineSettings {
  template: string;
  json: boolean;
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
  if (settings.json || settings.colorFlag === false || env.NO_COLOR !== undefined) return false;
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

/** One account's line, as text (coloured when `statuslineColour` says so) and as the `--json` object. */
export function statuslineEntry(
  settings: StatuslineSettings,
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean,
  view: StatuslineView,
): { text: string; json: StatuslineJson } {
  const text = statuslineText(settings.template, view, statuslineColour(settings, env, isTTY));
  return { text, json: statuslineJson(text, view) };
}

export function printStatusline(
  out: OutputStream,
  settings: StatuslineSettings,
  env: Readonly<Record<string, string | undefined>>,
  view: StatuslineView,
): void {
  const entry = statuslineEntry(settings, env, out.isTTY === true, view);
  out.write(settings.json ? `${encodeJson(entry.json, { pretty: settings.pretty })}\n` : `${entry.text}\n`);
}
