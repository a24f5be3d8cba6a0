/**
 * The local event store (docs/invariants.md, "When a stored range may be trusted"): a SQLite database
 * (better-sqlite3) per store key holding the events of fetched time ranges, in compact chunks, with each
 * range's event count.
 *
 * - WAL mode and a busy timeout: two runs can read and write it at the same time; every write is one short
 *   transaction that never spans a network request, so no run holds a lock while it waits.
 * - The key is stored inside the database too and checked on open: a store of another account (or team) is
 *   never read, whatever its file name. A file that is not a store of ours (corrupt, foreign, another
 *   format) is set aside and a new one is started.
 */
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { loadSqlite, type SqliteDatabase } from '../../local/sqlite.js';
import { EventRows } from '../events/rows.js';
import { ChunkFormatError, decodeChunk, encodeChunk, type Labels, type StoreIds } from './chunk-codec.js';
import { KeptEvents } from './kept-events.js';
import { createStoreFile, foreignFileReason, setStoreAside } from './store-files.js';

/**
 * The chunks are in the machine's byte order; a store copied to a machine of the other order is foreign.
 * Format 2 added the chunk checksum: a format-1 store is set aside and fetched again once.
 */
const FORMAT = `codexbar-cost-events/2/${os.endianness().toLowerCase()}`;
const BUSY_TIMEOUT_MS = 5000;
/** Events per chunk: big enough to keep rows few, small enough that a range edge re-encodes little. */
const CHUNK_EVENTS = 2000;
/**
 * Adjacent ranges merge into one (one verification request) while the result stays this small, so a range
 * that must be fetched again always fits the pagination cap.
 */
export const MAX_MERGED_RANGE_EVENTS = 100_000;

/**
 * A stored time range `[start, end)` in epoch ms, the number of events cursor.com reported in it, and when
 * its events were fetched (the earliest, for ranges merged from several runs).
 */
export interface StoredRange {
  start: number;
  end: number;
  count: number;
  fetchedAt: number;
}

/**
 * A fetched range `[start, end)`: its events are those of `events` with a timestamp inside it (`events` may
 * hold more, e.g. recent ones, which are not stored), and they are all its events.
 */
export interface RangeEvents {
  start: number;
  end: number;
  events: KeptEvents;
}

class StoreUnusableError extends Error {}

type Database = SqliteDatabase;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS labels (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS ranges (
  start_ms INTEGER PRIMARY KEY, end_ms INTEGER NOT NULL, event_count INTEGER NOT NULL,
  fetched_at_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY, first_ms INTEGER NOT NULL, last_ms INTEGER NOT NULL,
  event_count INTEGER NOT NULL, data BLOB NOT NULL, checksum INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_time ON chunks (first_ms, last_ms);
`;

interface ChunkRow {
  id: number;
  first_ms: number;
  last_ms: number;
  event_count: number;
  data: Buffer;
  checksum: number;
}

/**
 * A chunk's CRC-32, over its blob and the columns that place it (time span and count). CRC-32 sees every
 * flip of one bit, and every burst of up to 32, which a re-encoding would otherwise decode to other
 * numbers no check notices (docs/invariants.md, "When a stored range may be trusted").
 */
function chunkChecksum(first: number, last: number, count: number, data: Uint8Array): number {
  return crc32(`${first}/${last}/${count}`, crc32(data));
}

/** Rows made room for up front, at most: a count read from the file is only a claim until decoded. */
const MAX_PRESIZED_ROWS = 1_000_000;

/**
 * Room for every event the chunks claim, so a 150,000-event read is not copied through eight doublings of
 * every column; a damaged count only changes the first size (decodeInto still checks every chunk's count).
 */
function presize(chunks: readonly ChunkRow[]): number {
  let total = 0;
  for (const chunk of chunks) {
    const count = chunk.event_count;
    if (Number.isSafeInteger(count) && count > 0) total += count;
  }
  return Math.min(total, MAX_PRESIZED_ROWS);
}

interface RangeRow {
  start_ms: number;
  end_ms: number;
  event_count: number;
  fetched_at_ms: number;
}

/** SQLite's answer for a file that is not a database of ours, as opposed to a busy or full disk. */
function isStoreDamage(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    error instanceof ChunkFormatError ||
    error instanceof StoreUnusableError ||
    (typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB'))
  );
}

/** Whose events a store holds: an account's (`cost`) or a team's (`team cost`). */
export type StoreOwner = 'account' | 'team';

export interface OpenStoreOptions {
  file: string;
  key: string;
  owner: StoreOwner;
  /** The tag of `--verbose` lines: `[cursor-cost]` or `[cursor-team]`. */
  tag: string;
  /** `--verbose` notes (a store set aside, and why). */
  note: (line: string) => void;
  /** How the file is named in notes (home shortened to ~). */
  shown: string;
}

/**
 * Opens (or creates) the store for `key`. A file that is not ours, not a database, or a store of another key
 * or format is set aside and replaced, once; if that fails too the error propagates and the caller runs
 * without a store.
 */
export async function openEventStore(options: OpenStoreOptions): Promise<EventStore> {
  const engine = await loadSqlite();
  const open = async (): Promise<Database> => {
    const foreign = await foreignFileReason(options.file);
    if (foreign) throw new StoreUnusableError(foreign);
    await createStoreFile(options.file);
    return initDatabase(engine.open(options.file, { timeout: BUSY_TIMEOUT_MS }), options);
  };
  try {
    return new EventStore(await open(), options, open);
  } catch (error) {
    if (!isStoreDamage(error)) throw error;
    await setAside(options, error);
    return new EventStore(await open(), options, open);
  }
}

async function setAside(options: OpenStoreOptions, error: unknown): Promise<void> {
  const aside = await setStoreAside(options.file);
  options.note(
    `${options.tag} The event store ${options.shown} could not be used (${storeErrorText(error)}); ` +
      `moved it to ${path.basename(aside)} and started a new one`,
  );
}

/** The store's tables and pragmas on a newly opened database; refused when it is another format or key's. */
function initDatabase(db: Database, { key, owner }: OpenStoreOptions): Database {
  try {
    // Big pages: a store is a few dozen blobs of ~100 KB, so fewer, larger pages mean fewer writes.
    db.pragma('page_size = 65536');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.transaction(() => {
      db.exec(SCHEMA);
      const insert = db.prepare('INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)');
      insert.run('format', FORMAT);
      insert.run('key', key);
    }).immediate();
    const meta = new Map(
      db
        .prepare<[], { name: string; value: string }>('SELECT name, value FROM meta')
        .all()
        .map((row) => [row.name, row.value]),
    );
    if (meta.get('format') !== FORMAT) throw new StoreUnusableError(`it is not a ${FORMAT} store`);
    if (meta.get('key') !== key) throw new StoreUnusableError(`it belongs to another ${owner}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** An error for `--verbose`: its message, after its code (`SQLITE_BUSY: …`) when the message lacks it. */
export function storeErrorText(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export class EventStore {
  private readonly labelIds = new Map<string, number>();
  private readonly labelTexts = new Map<number, string>();

  constructor(
    private db: Database,
    private readonly options: OpenStoreOptions,
    private readonly reopen: () => Promise<Database>,
  ) {
    try {
      this.loadLabels();
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * After damage a read or a write met (a chunk that fails its checksum or does not decode): the store is
   * set aside and a new one started, as on open. False for any other error, which leaves the store as it
   * is. A new store that cannot be opened leaves this one closed: every later use fails, and is noted.
   */
  async startOverIfDamaged(error: unknown): Promise<boolean> {
    if (!isStoreDamage(error)) return false;
    this.db.close();
    this.forgetLabels();
    await setAside(this.options, error);
    this.db = await this.reopen();
    this.loadLabels();
    return true;
  }

  close(): void {
    this.db.close();
  }

  /** Every stored range, in time order. */
  ranges(): StoredRange[] {
    return this.db
      .prepare<[], RangeRow>(
        'SELECT start_ms, end_ms, event_count, fetched_at_ms FROM ranges ORDER BY start_ms',
      )
      .all()
      .map((row) => ({
        start: row.start_ms,
        end: row.end_ms,
        count: row.event_count,
        fetchedAt: row.fetched_at_ms,
      }));
  }

  /** The stored events with a timestamp in `[start, end)`, read in one snapshot. */
  read(start: number, end: number): EventRows {
    return this.db.transaction(() => {
      this.loadLabels();
      const chunks = this.chunksOverlapping(start, end);
      const events = new EventRows(presize(chunks));
      for (const chunk of chunks) this.decodeInto(chunk, events, start, end);
      return events;
    })();
  }

  /**
   * Replaces what the store holds for each range with its fetched events, in one transaction: ranges and
   * chunks overlapping it are cut back to what lies outside it, the new events and range are written, and
   * adjacent ranges merge. `fetchedAt` dates the check by count alone (src/cost/store/ranged-collect.ts).
   */
  replace(pieces: readonly RangeEvents[], fetchedAt: number): void {
    if (pieces.length === 0) return;
    try {
      this.db
        .transaction(() => {
          this.loadLabels();
          for (const piece of pieces) {
            this.cutOut(piece.start, piece.end);
            const rows = piece.events.rowsInTimeOrder(piece.start, piece.end);
            this.writeChunks(piece.events, rows);
            this.insertRange(piece.start, piece.end, rows.length, fetchedAt);
          }
          this.mergeAdjacent();
        })
        .immediate();
    } catch (error) {
      // Labels added in a transaction that rolled back are gone from the file: forget them here too.
      this.forgetLabels();
      throw error;
    }
  }

  private insertRange(start: number, end: number, count: number, fetchedAt: number): void {
    this.db
      .prepare('INSERT INTO ranges (start_ms, end_ms, event_count, fetched_at_ms) VALUES (?, ?, ?, ?)')
      .run(start, end, count, fetchedAt);
  }

  private chunksOverlapping(start: number, end: number): ChunkRow[] {
    return this.db
      .prepare<[number, number], ChunkRow>(
        'SELECT id, first_ms, last_ms, event_count, data, checksum FROM chunks WHERE first_ms < ? AND last_ms >= ? ORDER BY first_ms, id',
      )
      .all(end, start);
  }

  private decodeInto(chunk: ChunkRow, into: EventRows | KeptEvents, start?: number, end?: number): void {
    if (chunkChecksum(chunk.first_ms, chunk.last_ms, chunk.event_count, chunk.data) !== chunk.checksum) {
      throw new ChunkFormatError('a chunk does not match its checksum');
    }
    if (decodeChunk(chunk.data, this.labels, into, start, end) !== chunk.event_count) {
      throw new ChunkFormatError('chunk count does not match its events');
    }
  }

  /** Removes `[start, end)` from the store: ranges and chunks overlapping it keep only what lies outside. */
  private cutOut(start: number, end: number): void {
    const db = this.db;
    for (const chunk of this.chunksOverlapping(start, end)) {
      db.prepare('DELETE FROM chunks WHERE id = ?').run(chunk.id);
      if (chunk.first_ms >= start && chunk.last_ms < end) continue;
      const decoded = new KeptEvents(chunk.event_count);
      this.decodeInto(chunk, decoded);
      this.writeChunks(decoded, decoded.rowsInTimeOrder(start, end, true));
    }
    const overlapping = db
      .prepare<[number, number], RangeRow>(
        'SELECT start_ms, end_ms, event_count, fetched_at_ms FROM ranges WHERE start_ms < ? AND end_ms > ?',
      )
      .all(end, start);
    for (const range of overlapping) {
      db.prepare('DELETE FROM ranges WHERE start_ms = ?').run(range.start_ms);
      // What is left of a range on either side keeps the events the store holds there: all of them, since
      // the whole range was fetched complete. Its count is theirs, and it is verified before use like any.
      if (range.start_ms < start) this.insertRemainder(range.start_ms, start, range.fetched_at_ms);
      if (range.end_ms > end) this.insertRemainder(end, range.end_ms, range.fetched_at_ms);
    }
  }

  private insertRemainder(start: number, end: number, fetchedAt: number): void {
    const { total } = this.db
      .prepare<[number, number], { total: number | null }>(
        'SELECT SUM(event_count) AS total FROM chunks WHERE first_ms >= ? AND last_ms < ?',
      )
      .get(start, end)!;
    this.insertRange(start, end, total ?? 0, fetchedAt);
  }

  /** Rows already in time order, in chunks of CHUNK_EVENTS, so chunks cover disjoint stretches of time. */
  private writeChunks(events: KeptEvents, rows: readonly number[]): void {
    const insert = this.db.prepare(
      'INSERT INTO chunks (first_ms, last_ms, event_count, data, checksum) VALUES (?, ?, ?, ?, ?)',
    );
    const storeIds: StoreIds = [];
    for (let from = 0; from < rows.length; from += CHUNK_EVENTS) {
      const slice = rows.slice(from, from + CHUNK_EVENTS);
      const first = events.timestamp[slice[0]!]!;
      const last = events.timestamp[slice[slice.length - 1]!]!;
      const data = encodeChunk(events, slice, this.labels, storeIds);
      insert.run(first, last, slice.length, data, chunkChecksum(first, last, slice.length, data));
    }
  }

  private mergeAdjacent(): void {
    const ranges = this.ranges();
    for (let i = 1; i < ranges.length; i++) {
      const previous = ranges[i - 1]!;
      const current = ranges[i]!;
      if (previous.end !== current.start || previous.count + current.count > MAX_MERGED_RANGE_EVENTS)
        continue;
      const merged = {
        start: previous.start,
        end: current.end,
        count: previous.count + current.count,
        fetchedAt: Math.min(previous.fetchedAt, current.fetchedAt),
      };
      this.db.prepare('DELETE FROM ranges WHERE start_ms = ?').run(current.start);
      this.db
        .prepare('UPDATE ranges SET end_ms = ?, event_count = ?, fetched_at_ms = ? WHERE start_ms = ?')
        .run(merged.end, merged.count, merged.fetchedAt, merged.start);
      ranges[i] = merged;
    }
  }

  private forgetLabels(): void {
    this.labelIds.clear();
    this.labelTexts.clear();
  }

  private loadLabels(): void {
    this.forgetLabels();
    for (const row of this.db
      .prepare<[], { id: number; text: string }>('SELECT id, text FROM labels')
      .iterate()) {
      this.labelIds.set(row.text, row.id);
      this.labelTexts.set(row.id, row.text);
    }
  }

  private readonly labels: Labels = {
    idOf: (text) => {
      let id = this.labelIds.get(text);
      if (id === undefined) {
        this.db.prepare('INSERT OR IGNORE INTO labels (text) VALUES (?)').run(text);
        id = this.db.prepare<[string], { id: number }>('SELECT id FROM labels WHERE text = ?').get(text)!.id;
        this.labelIds.set(text, id);
        this.labelTexts.set(id, text);
      }
      return id;
    },
    textOf: (id) => {
      const text = this.labelTexts.get(id);
      if (text === undefined) throw new ChunkFormatError(`label ${id} is missing`);
      return text;
    },
  };
}
