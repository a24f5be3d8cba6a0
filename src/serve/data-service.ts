/**
 * The two cached data routes: one response cache each for `/usage` and `/cost`, fed by the data source.
 * The dashboard snapshot reads through the same caches.
 */
import type { CostRow } from '../render/cost-json.js';
import type { UsageRow } from '../render/usage-json.js';
import { type CacheJob, type FetchOutcome, getOrInsert, ResponseCache, type Served } from './cache.js';
import type { CursorDataSource, ServeConfig, UsageSelection } from './data-source.js';
import { type ServeSettings, staleWindowSeconds } from './settings.js';

export interface ServeDataOptions {
  source: CursorDataSource;
  settings: ServeSettings;
  /** The cache clock in ms; injected by tests to step past the refresh interval without waiting. */
  now: () => number;
  /** Cost cooldown length; injectable for tests. */
  cooldownMs?: number;
}

/**
 * What the fetches behind one route saw for one account (the token-account label, `default` without one),
 * over the server's life: `/metrics` reports it, so a failing cursor.com shows even while the last good rows
 * are served.
 */
export interface FetchRecord {
  data: 'usage' | 'cost';
  account: string;
  /** Fetches whose row for this account was an error row. */
  errors: number;
  /** When the last fetch with a good row for this account ended, on the cache clock (ms). */
  lastSuccessAt?: number;
}

export class ServeData {
  private readonly usageCache: ResponseCache<UsageRow>;
  private readonly costCache: ResponseCache<CostRow>;
  // Requests that share a config read share its jobs too, instead of building them per request; a
  // config's usage jobs are by the selection's key, one per account selection.
  private readonly usageJobs = new WeakMap<ServeConfig, Map<string, CacheJob<UsageRow>>>();
  private readonly costJobs = new WeakMap<ServeConfig, CacheJob<CostRow>>();
  private readonly records = new Map<string, FetchRecord>();

  constructor(private readonly options: ServeDataOptions) {
    const interval = options.settings.refreshIntervalSeconds;
    const cacheOptions = {
      refreshIntervalMs: interval * 1000,
      staleWindowMs: staleWindowSeconds(interval) * 1000,
      now: options.now,
    };
    this.usageCache = new ResponseCache<UsageRow>(cacheOptions);
    this.costCache = new ResponseCache<CostRow>({ ...cacheOptions, cooldownMs: options.cooldownMs });
  }

  /**
   * `budgetMs`: how long this request may wait for a fetch (0.8 × the timeout left); undefined is no bound.
   * Keyed by the selected accounts too, so `?account=work` and the default
   * answer never share an entry, a fetch or a refresh.
   */
  usage(config: ServeConfig, selection: UsageSelection, budgetMs?: number): Promise<Served<UsageRow>> {
    const { source } = this.options;
    const jobs = getOrInsert(this.usageJobs, config, () => new Map<string, CacheJob<UsageRow>>());
    const job = getOrInsert(jobs, selection.key, () => ({
      key: `usage|cursor|${config.hash}|${selection.key}`,
      fetch: (signal: AbortSignal) =>
        source.usage(config, selection, signal).then((outcome) => this.record('usage', outcome)),
      timeoutRows: () => source.usageTimeoutRows(config, selection),
    }));
    return this.usageCache.serve(job, budgetMs);
  }

  cost(config: ServeConfig, budgetMs?: number): Promise<Served<CostRow>> {
    const { source } = this.options;
    const job = getOrInsert(this.costJobs, config, () => ({
      key: `cost|cursor|${config.hash}`,
      fetch: (signal: AbortSignal) =>
        source.cost(config, signal).then((outcome) => this.record('cost', outcome)),
      timeoutRows: () => source.costTimeoutRows(config),
    }));
    return this.costCache.serve(job, budgetMs);
  }

  /** Every account's fetch record, in the order they were first seen. */
  fetchRecords(): FetchRecord[] {
    return [...this.records.values()];
  }

  /** Counts each row of a finished fetch: an error for its account, or its success time. */
  private record<Row extends { account?: unknown }>(
    data: FetchRecord['data'],
    outcome: FetchOutcome<Row>,
  ): FetchOutcome<Row> {
    const now = this.options.now();
    for (const { row, error } of outcome.rows) {
      const account = typeof row.account === 'string' ? row.account : 'default';
      const record = getOrInsert(
        this.records,
        `${data}\u0000${account}`,
        (): FetchRecord => ({ data, account, errors: 0 }),
      );
      if (error) record.errors++;
      else record.lastSuccessAt = now;
    }
    return outcome;
  }

  waitingRequests(): number {
    return this.usageCache.waitingRequests() + this.costCache.waitingRequests();
  }

  runningFetches(): number {
    return this.usageCache.runningFetches() + this.costCache.runningFetches();
  }

  close(): void {
    this.usageCache.close();
    this.costCache.close();
  }
}
