import { COOKIE_HOSTS, SESSION_COOKIE_NAMES, TEAM_COOKIE_NAMES } from './catalog.js';

/** One stored cookie that may matter, before its value is read or decrypted. */
export interface CookieRow {
  name: string;
  /** Firefox `host`, Chromium `host_key`: `cursor.com` or `.cursor.com`. */
  host: string;
  /** Creation time, epoch ms: the newest cookie wins. */
  createdMs: number;
  /** Expiry, epoch ms; absent for a cookie that lives until the browser closes. */
  expiresMs?: number;
}

export const WANTED_NAMES: readonly string[] = [...SESSION_COOKIE_NAMES, ...TEAM_COOKIE_NAMES];
export const WANTED_HOSTS: readonly string[] = COOKIE_HOSTS;

/** `?, ?, …` for an `IN (…)` list. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}
