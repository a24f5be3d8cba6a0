import { COOKIE_HOSTS, type CookieRow, placeholders, WANTED_NAMES } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';
import { type Copied, readPrivateCopy, type SqliteDatabase } from './private-copy.js';

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
  return readPrivateCopy(dbPath, shown, (db) => {
    const info = db.pragma('table_info(cookies)') as Array<{ name: string }>;
    const columns = new Set(info.map((column) => column.name));
    if (!columns.has('encrypted_value') || !columns.has('host_key')) {
      return skip('corrupt', `${shown} does not have Chromium's cookies table`);
    }
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
    const cookies = rows.map((row) => {
      const cookie: ChromiumCookie = {
        name: row.name,
        host: row.host,
        value: row.value ?? '',
        encrypted: row.encrypted ?? Buffer.alloc(0),
        createdMs: row.createdMs ?? 0,
      };
      if (row.expiresMs !== null) cookie.expiresMs = row.expiresMs;
      return cookie;
    });
    return ok({ metaVersion: metaVersion(db), cookies });
  });
}

function metaVersion(db: SqliteDatabase): number {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get();
  if (hasMeta === undefined) return 0;
  const row = db.prepare<[], { value: unknown }>(`SELECT value FROM meta WHERE key = 'version'`).get();
  const version = Number(row?.value);
  return Number.isInteger(version) ? version : 0;
}
