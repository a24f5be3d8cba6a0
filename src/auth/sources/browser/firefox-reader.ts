import { COOKIE_HOSTS, type CookieRow, placeholders, WANTED_NAMES } from './catalog.js';
import { type Outcome, ok } from './outcome.js';
import { type Copied, readPrivateCopy } from './private-copy.js';

export interface FirefoxCookie extends CookieRow {
  /** Firefox stores values in plain text. */
  value: string;
}

interface Row {
  name: string;
  host: string;
  value: string | null;
  expiry: number | null;
  created: number | null;
  attributes: string | null;
}

/** Expiries above this are milliseconds (newer Firefox); below, seconds (this is the year 5138 in seconds). */
const MILLISECONDS_THRESHOLD = 1e11;

/**
 * The cursor.com cookies in a Firefox `cookies.sqlite` (table `moz_cookies`), read from a private copy.
 * Partitioned cookies (set while cursor.com was embedded in another site) are not the session and are left out.
 */
export function readFirefoxCookies(dbPath: string, shown: string): Promise<Outcome<Copied<FirefoxCookie[]>>> {
  return readPrivateCopy(dbPath, shown, (db) => {
    const rows = db
      .prepare<unknown[], Row>(
        `SELECT name, host, value, expiry, creationTime AS created, originAttributes AS attributes
           FROM moz_cookies WHERE name IN (${placeholders(WANTED_NAMES)}) AND host IN (${placeholders(COOKIE_HOSTS)})`,
      )
      .all(...WANTED_NAMES, ...COOKIE_HOSTS);
    const cookies: FirefoxCookie[] = [];
    for (const row of rows) {
      if (row.attributes?.includes('partitionKey=')) continue;
      const cookie: FirefoxCookie = {
        name: row.name,
        host: row.host,
        value: row.value ?? '',
        // creationTime is in microseconds.
        createdMs: Math.floor((row.created ?? 0) / 1000),
      };
      const expiry = row.expiry ?? 0;
      if (expiry > 0) cookie.expiresMs = expiry > MILLISECONDS_THRESHOLD ? expiry : expiry * 1000;
      cookies.push(cookie);
    }
    return ok(cookies);
  });
}
