/**
 * The two cached data routes: one response cache each for `/usage` and `/cost`, fed by the data source
 * (docs/behaviour.md §Serve.8–11). The dashboard snapshot reads through the same caches.
 */
import type { CostRow } from '../render/cost-json.js';
import type { UsageRow } from '../render/usage-json.js';
import { type CacheJob, ResponseCache, type Served } from './cache.js';
import type { CursorDataSource, ServeConfig } from './data-source.js';
import { type ServeSettings, staleWindowSeconds } from './settings.js';

export interface ServeDataOptions {
  source: CursorDataSource;
  settings: ServeSettings;
  /** The cache clock in ms; injected by tests to step past the refresh interval without waiting. */
  now: () => number;
  /** Cost cooldown length (docs/behaviour.md §Serve.11); injectable for tests. */
  cooldownMs?: number;
}

interface ConfigJobs {
  usage: CacheJob<UsageRow>;
  cost: CacheJob<CostRow>;
}

export class ServeData {
  private readonly usageCache: ResponseCache<UsageRow>;
  private readonly costCache: ResponseCache<CostRow>;
  private readonly jobsByConfig = new WeakMap<ServeConfig, ConfigJobs>();

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

  /** `budgetMs`: how long this request may wait for a fetch (0.8 × the timeout left); undefined is no bound. */
  usage(config: ServeConfig, budgetMs?: number): Promise<Served<UsageRow>> {
    return this.usageCache.serve(this.jobs(config).usage, budgetMs);
  }

  cost(config: ServeConfig, budgetMs?: number): Promise<Served<CostRow>> {
    return this.costCache.serve(this.jobs(config).cost, budgetMs);
  }

  /** Requests that share a config read share its jobs too, instead of building them per request. */
  private jobs(config: ServeConfig): ConfigJobs {
    let jobs = this.jobsByConfig.get(config);
    if (!jobs) {
      const { source } = this.options;
      jobs = {
        usage: {
          key: `usage|cursor|${config.hash}`,
          fetch: (signal) => source.usage(config, signal),
          timeoutRows: () => source.usageTimeoutRows(config),
        },
        cost: {
          key: `cost|cursor|${config.hash}`,
          fetch: (signal) => source.cost(config, signal),
          timeoutRows: () => source.costTimeoutRows(config),
        },
      };
      this.jobsByConfig.set(config, jobs);
    }
    return jobs;
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
