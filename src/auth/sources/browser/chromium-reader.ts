import type { CellValue } from '../../sqlite/table-rows.js';
import { COOKIE_HOSTS, type CookieRow, placeholders, WANTED_NAMES } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';
import { type CookieReaders, type Copied, readPrivateCopy, type SqliteDatabase } from './private-copy.js';

export interface ChromiumCookie extends CookieRow {
  /** The plain `value` column: set only by very old versions, else empty. */
  value: string;
  encrypted: Buffer;
}

export interface ChromiumCookies {
  /** `meta.version`: at 24 and later every decrypted value starts with SHA-256 of its host key. */
  metaVersion: number;
  cookies: ChromiumCookie[];
}

interface Row {
  name: string;
  host: string;
  value: string | null;
  encrypted: Buffer | null;
  expiresMs: number | null;
  createdMs: number | null;
}

// Chromium times are microseconds since 1601-01-01; converted in SQL because they exceed 2^53.
const TO_EPOCH_MS = (column: string) => `(${column} / 1000 - 11644473600000)`;

/**
 * The cursor.com cookies in a Chromium `Cookies` database (tables `cookies` and `meta`), read from a private
 * copy. Partitioned cookies (a non-empty `top_frame_site_key`) are left out.
 */
export function readChromiumCookies(
  dbPath: string,
  shown: string,
): Promise<Outcome<Copied<ChromiumCookies>>> {
  return readPrivateCopy(dbPath, shown, chromiumReaders(shown));
}

/** The two ways to read the table, which must agree row for row (test/unit/cookie-pages.test.ts). */
export function chromiumReaders(shown: string): CookieReaders<ChromiumCookies> {
  return {
    sql: (db) => {
      const info = db.pragma('table_info(cookies)') as Array<{ name: string }>;
      const columns = new Set(info.map((column) => column.name));
      if (!hasCookieColumns(columns)) return notChromium(shown);
      const session = columns.has('has_expires') ? 'has_expires = 0 OR expires_utc = 0' : 'expires_utc = 0';
      const partitioned = columns.has('top_frame_site_key') ? `AND top_frame_site_key = ''` : '';
      const rows = db
        .prepare<unknown[], Row>(
          `SELECT name, host_key AS host, value, encrypted_value AS encrypted,
                  CASE WHEN ${session} THEN NULL ELSE ${TO_EPOCH_MS('expires_utc')} END AS expiresMs,
                  ${TO_EPOCH_MS('creation_utc')} AS createdMs
             FROM cookies
            WHERE name IN (${placeholders(WANTED_NAMES)}) AND host_key IN (${placeholders(COOKIE_HOSTS)}) ${partitioned}`,
        )
        .all(...WANTED_NAMES, ...COOKIE_HOSTS);
      return ok({ metaVersion: metaVersion(db), cookies: rows.map(toCookie) });
    },
    // The same rows and figures as the SQL above, from every row of the table (there is no engine to ask).
    pages: (tables) => {
      const table = tables.rows('cookies');
      if (table === undefined || !hasCookieColumns(new Set(table.columns))) return notChromium(shown);
      const cookies: ChromiumCookie[] = [];
      for (const row of table.rows) {
        const { name, host_key: host } = row;
        if (typeof name !== 'string' || typeof host !== 'string') continue;
        if (!WANTED_NAMES.includes(name) || !(COOKIE_HOSTS as readonly string[]).includes(host)) continue;
        if ('top_frame_site_key' in row && row.top_frame_site_key !== '') continue;
        const session = isZero(row.expires_utc) || ('has_expires' in row && isZero(row.has_expires));
        cookies.push(
          toCookie({
            name,
            host,
            value: typeof row.value === 'string' ? row.value : null,
            encrypted: Buffer.isBuffer(row.encrypted_value) ? row.encrypted_value : null,
            expiresMs: session ? null : toEpochMs(row.expires_utc),
            createdMs: toEpochMs(row.creation_utc),
          }),
        );
      }
      const version = tables.rows('meta')?.rows.find((row) => row.key === 'version')?.value;
      return ok({ metaVersion: integerOr0(version), cookies });
    },
  };
}

function hasCookieColumns(columns: Set<string>): boolean {
  return columns.has('encrypted_value') && columns.has('host_key');
}

function notChromium(shown: string): Outcome<never> {
  return skip('corrupt', `${shown} does not have Chromium's cookies table`);
}

function toCookie(row: Row): ChromiumCookie {
  const cookie: ChromiumCookie = {
    name: row.name,
    host: row.host,
    value: row.value ?? '',
    encrypted: row.encrypted ?? Buffer.alloc(0),
    createdMs: row.createdMs ?? 0,
  };
  if (row.expiresMs !== null) cookie.expiresMs = row.expiresMs;
  return cookie;
}

const isZero = (value: CellValue | undefined) => value !== null && value !== undefined && Number(value) === 0;

/** TO_EPOCH_MS in integers (the microseconds exceed 2^53), with SQL's NULL for what is not a number. */
function toEpochMs(value: CellValue | undefined): number | null {
  if (typeof value === 'bigint') return Number(value / 1000n - 11_644_473_600_000n);
  if (typeof value === 'number') return Math.trunc(value / 1000) - 11_644_473_600_000;
  return null;
}

function metaVersion(db: SqliteDatabase): number {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get();
  if (hasMeta === undefined) return 0;
  const row = db.prepare<[], { value: unknown }>(`SELECT value FROM meta WHERE key = 'version'`).get();
  return integerOr0(row?.value);
}

function integerOr0(value: unknown): number {
  const version = Number(value);
  return Number.isInteger(version) ? version : 0;
}
