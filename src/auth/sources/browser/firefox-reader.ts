import type { CellValue } from '../../sqlite/table-rows.js';
import { COOKIE_HOSTS, type CookieRow, placeholders, WANTED_NAMES } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';
import { type CookieReaders, type Copied, readPrivateCopy } from './private-copy.js';

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
  return readPrivateCopy(dbPath, shown, firefoxReaders(shown));
}

/** The two ways to read the table, which must agree row for row (test/unit/cookie-pages.test.ts). */
export function firefoxReaders(shown: string): CookieReaders<FirefoxCookie[]> {
  return {
    sql: (db) => {
      const rows = db
        .prepare<unknown[], Row>(
          `SELECT name, host, value, expiry, creationTime AS created, originAttributes AS attributes
             FROM moz_cookies WHERE name IN (${placeholders(WANTED_NAMES)}) AND host IN (${placeholders(COOKIE_HOSTS)})`,
        )
        .all(...WANTED_NAMES, ...COOKIE_HOSTS);
      return ok(toCookies(rows));
    },
    // The same rows as the SQL above, from every row of the table (there is no engine to ask).
    pages: (tables) => {
      const table = tables.rows('moz_cookies');
      // What SQLite answers for a missing table, in the words the SQL path's failure uses.
      if (table === undefined)
        return skip('corrupt', `${shown} does not have the cookie table this browser should have`);
      const rows: Row[] = [];
      for (const row of table.rows) {
        const { name, host } = row;
        if (typeof name !== 'string' || typeof host !== 'string') continue;
        if (!WANTED_NAMES.includes(name) || !(COOKIE_HOSTS as readonly string[]).includes(host)) continue;
        rows.push({
          name,
          host,
          value: typeof row.value === 'string' ? row.value : null,
          expiry: numberOrNull(row.expiry),
          created: numberOrNull(row.creationTime),
          attributes: typeof row.originAttributes === 'string' ? row.originAttributes : null,
        });
      }
      return ok(toCookies(rows));
    },
  };
}

function toCookies(rows: readonly Row[]): FirefoxCookie[] {
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
  return cookies;
}

function numberOrNull(value: CellValue | undefined): number | null {
  return typeof value === 'bigint' || typeof value === 'number' ? Number(value) : null;
}
