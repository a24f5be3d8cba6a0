import { z } from 'zod';
import type { LocalEnvironment } from '../../local/environment.js';
import { authPaths } from '../paths.js';
import { type SourceResult, skipped } from '../types.js';
import { cookieSession, readStoreFile } from './store-file.js';

/**
 * One Foundation `HTTPCookie` property dictionary. Which keys appear depends on Foundation, so only what we
 * use is checked and everything else is ignored.
 */
const storedCookieSchema = z.object({
  Name: z.string().min(1),
  Value: z.string(),
  Expires: z.unknown().optional(),
});

/** The file is a list; each entry is checked on its own, so one odd entry does not hide the others. */
const storedSessionFileSchema = z.array(z.unknown());

interface StoredCookie {
  name: string;
  value: string;
  expiresAt?: Date;
}

/** The stored cookies that have not expired, in stored order; entries that are not cookies are skipped. */
function liveStoredCookies(json: unknown[], now: Date): { cookies: StoredCookie[]; expired: number } {
  const cookies: StoredCookie[] = [];
  let expired = 0;
  for (const item of json) {
    const parsed = storedCookieSchema.safeParse(item);
    if (!parsed.success) continue;
    // Surrounding whitespace (a trailing newline) is not part of a cookie value.
    const cookie: StoredCookie = { name: parsed.data.Name.trim(), value: parsed.data.Value.trim() };
    const expiresAt = expiryOf(parsed.data.Expires);
    // A cookie whose Expires is at or before now is dropped.
    if (expiresAt !== undefined) {
      if (expiresAt.getTime() <= now.getTime()) {
        expired += 1;
        continue;
      }
      cookie.expiresAt = expiresAt;
    }
    cookies.push(cookie);
  }
  return { cookies, expired };
}

/** Dates are stored as epoch seconds (with `Expires_isDate`); a date string is accepted too, leniently. */
function expiryOf(value: unknown): Date | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000);
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : new Date(ms);
  }
  return undefined;
}

/**
 * Reads `<data>/CodexBar/cursor-session.json` read-only. Unlike CodexBar we never prune expired cookies from
 * the file, delete it or fix its mode: in this version the tool does not modify it at all.
 */
export async function load(env: LocalEnvironment): Promise<SourceResult> {
  const read = await readStoreFile(authPaths(env).storedSession, env, storedSessionFileSchema, {
    missing: (shown) => `no stored session at ${shown}`,
    what: 'a list of cookies',
  });
  if (!read.ok) return read.skip;
  const { shown } = read;
  const { cookies, expired } = liveStoredCookies(read.value, env.now());
  if (cookies.length === 0) {
    return expired > 0
      ? skipped('expired', `every cookie in ${shown} has expired`)
      : skipped('absent', `${shown} holds no cookies`);
  }
  // `name=value` pairs joined with "; ", in stored order.
  const header = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  return cookieSession('stored', `stored session cookies (${shown})`, header);
}
