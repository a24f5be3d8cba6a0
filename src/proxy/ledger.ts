/**
 * The BYOK ledger, `<data dir>/codexbar/byok.sqlite`: one row per proxied request, committed when its answer
 * ends (docs/proxy.md, "What is stored"). Counts and hashes only: never a prompt, a completion, a key, a
 * token, a header or the body's raw `user`.
 *
 * better-sqlite3 is synchronous, so a write waits on a lock inside the event loop, where every stream in
 * flight would wait with it. The busy timeout is therefore short, and a row that cannot be written now (the
 * ledger locked by another process, the disk full) is kept in memory and written with the next one, or by
 * a timer; the answer has reached its client either way. WAL with `synchronous = NORMAL`: a commit survives
 * the process being killed (it is in the WAL, in the OS's hands), which is the loss this must not have.
 */
import path from 'node:path';
import { ensurePrivateDir } from '../cache/private-files.js';
import { createStoreFile, foreignFileReason } from '../cost/store/store-files.js';
import { ConfigError } from '../errors.js';
import {
  type SqliteDatabase as Database,
  loadSqlite,
  type SqliteStatement as Statement,
} from '../local/sqlite.js';
import type { RequestUsage } from './usage.js';

const LEDGER_FILE = 'byok.sqlite';
const FORMAT_VERSION = 1;
/** Short: a write holds the event loop for as long as it waits. */
const BUSY_TIMEOUT_MS = 25;
/** Rows kept while the ledger cannot be written; past this the oldest are dropped (and said). */
const MAX_PENDING_ROWS = 10_000;
/** How long a row waits in memory before the next try, unless another row comes first. */
const RETRY_MS = 1_000;

export type LedgerRoute = 'chat' | 'responses';

/** How an answer ended: only `completed` is a complete row; the others are partial, with what was seen. */
export const LEDGER_OUTCOMES = [
  'completed',
  'client-aborted',
  /** Cut at shutdown, past `--shutdown-grace`. */
  'shutdown',
  'upstream-timeout',
  'upstream-cut',
  'upstream-unreachable',
  'upstream-redirect',
  'body-too-large',
  'proxy-busy',
] as const;
export type LedgerOutcome = (typeof LEDGER_OUTCOMES)[number];

export interface LedgerRow {
  /** When the request head arrived, ms since the epoch. */
  startedAt: number;
  durationMs: number;
  /** `host[:port]` of the upstream. */
  upstreamHost: string;
  route: LedgerRoute;
  model?: string;
  stream: boolean;
  /** The status the client got. */
  status: number;
  outcome: LedgerOutcome;
  usage?: RequestUsage;
  /** 32 hex digits (src/proxy/request-body.ts). */
  conversation?: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  id INTEGER PRIMARY KEY,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  upstream_host TEXT NOT NULL,
  route TEXT NOT NULL,
  model TEXT,
  stream INTEGER NOT NULL,
  status INTEGER NOT NULL,
  completed INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  prompt_tokens INTEGER,
  cached_tokens INTEGER,
  cache_write_tokens INTEGER,
  completion_tokens INTEGER,
  reasoning_tokens INTEGER,
  provider_cost_usd REAL,
  conversation TEXT
);
CREATE INDEX IF NOT EXISTS requests_by_time ON requests (started_at);
`;

const INSERT = `INSERT INTO requests (started_at, duration_ms, upstream_host, route, model, stream, status,
  completed, outcome, prompt_tokens, cached_tokens, cache_write_tokens, completion_tokens, reasoning_tokens,
  provider_cost_usd, conversation) VALUES (@startedAt, @durationMs, @upstreamHost, @route, @model, @stream,
  @status, @completed, @outcome, @promptTokens, @cachedTokens, @cacheWriteTokens, @completionTokens,
  @reasoningTokens, @providerCostUSD, @conversation)`;

/** The ledger is the user's history: a file that cannot be used is refused, never replaced. */
export class LedgerUnusableError extends ConfigError {
  constructor(message: string) {
    super(message, 'Move it away to start a new ledger; codexbar never replaces one.');
  }
}

export function ledgerPath(dataDir: string): string {
  return path.join(dataDir, LEDGER_FILE);
}

/**
 * Opens (or creates) the ledger, owner-only in an owner-only directory; a file that is not ours (a link,
 * not a regular file, someone else's, readable by others) or another format is refused, never replaced:
 * it holds the user's history.
 */
export async function openLedgerDatabase(file: string): Promise<Database> {
  ensurePrivateDir(path.dirname(file));
  const foreign = await foreignFileReason(file);
  if (foreign) throw new LedgerUnusableError(`The BYOK ledger ${file} cannot be used: ${foreign}.`);
  await createStoreFile(file);
  const engine = await loadSqlite();
  const db = engine.open(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== 0 && version !== FORMAT_VERSION) {
      throw new LedgerUnusableError(`The BYOK ledger ${file} is format ${version}, not ${FORMAT_VERSION}.`);
    }
    db.transaction(() => {
      db.exec(SCHEMA);
      db.pragma(`user_version = ${FORMAT_VERSION}`);
    }).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

type Params = Record<string, string | number | null>;

function paramsOf(row: LedgerRow): Params {
  const usage = row.usage ?? {};
  return {
    startedAt: Math.round(row.startedAt),
    durationMs: Math.max(0, Math.round(row.durationMs)),
    upstreamHost: row.upstreamHost,
    route: row.route,
    model: row.model ?? null,
    stream: row.stream ? 1 : 0,
    status: row.status,
    completed: row.outcome === 'completed' ? 1 : 0,
    outcome: row.outcome,
    promptTokens: usage.promptTokens ?? null,
    cachedTokens: usage.cachedTokens ?? null,
    cacheWriteTokens: usage.cacheWriteTokens ?? null,
    completionTokens: usage.completionTokens ?? null,
    reasoningTokens: usage.reasoningTokens ?? null,
    providerCostUSD: usage.providerCostUSD ?? null,
    conversation: row.conversation ?? null,
  };
}

/** What the ledger tells the proxy's log: never a row's content, only that writing failed or recovered. */
export type LedgerNote = (line: string) => void;

export class Ledger {
  private readonly insert: Statement<Params>;
  private readonly pending: Params[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private failing = false;
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly db: Database,
    private readonly note: LedgerNote,
    private readonly retryMs = RETRY_MS,
  ) {
    this.insert = db.prepare<Params>(INSERT);
  }

  /** Rows written so far would be `SELECT count(*)`; this is the rows still waiting in memory. */
  get pendingRows(): number {
    return this.pending.length;
  }

  /** Queues the row and writes every queued row now; never throws. */
  record(row: LedgerRow): void {
    if (this.pending.length >= MAX_PENDING_ROWS) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push(paramsOf(row));
    this.flush();
  }

  /** Writes what is queued, in one transaction; on failure keeps it for the retry timer. */
  flush(): void {
    if (this.closed || this.pending.length === 0) return;
    try {
      const rows = this.pending.splice(0);
      try {
        this.db.transaction(() => {
          for (const params of rows) this.insert.run(params);
        })();
      } catch (error) {
        this.pending.unshift(...rows);
        throw error;
      }
      if (this.failing || this.dropped > 0) {
        const lost = this.dropped > 0 ? `; ${this.dropped} older rows could not be kept` : '';
        this.note(`[proxy] the ledger is written again${lost}`);
        this.failing = false;
        this.dropped = 0;
      }
    } catch (error) {
      if (!this.failing) {
        this.note(
          `[proxy] cannot write the ledger (${errorCode(error)}); the answers still pass, rows wait in memory`,
        );
        this.failing = true;
      }
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== undefined || this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.flush();
    }, this.retryMs);
    this.retryTimer.unref();
  }

  /** One last write of what waits, then closes; rows that still cannot be written are said, not kept. */
  close(): void {
    if (this.closed) return;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.flush();
    if (this.pending.length > 0) {
      this.note(`[proxy] ${this.pending.length} ledger rows could not be written before exit`);
    }
    this.closed = true;
    this.db.close();
  }
}

/** `SQLITE_FULL`, `SQLITE_BUSY`, …: the error's code, never its message (it could quote a value). */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'unknown error';
}

export async function openLedger(file: string, note: LedgerNote, retryMs?: number): Promise<Ledger> {
  return new Ledger(await openLedgerDatabase(file), note, retryMs);
}
