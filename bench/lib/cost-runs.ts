/**
 * `codexbar cost` runs of the built CLI for bench/cost.ts: each sample records wall time, CPU time (user +
 * system), peak RSS, the events requests it made and the figures of its JSON row. A cold run gets a fresh
 * cache directory (so it writes a new event store); a warm run reuses one.
 *
 * Cold means an empty event store, not a first run ever: a fresh cache directory gets the compile cache that
 * the first run of the benchmark left, as any earlier codexbar run leaves it on a user's machine. Otherwise
 * every cold run would also compile the CLI and write a new compile cache.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { FakeCursor } from '../../test/fake-cursor/server.js';
import { type ChildRun, expectSuccess, runNode } from './child.js';
import { jsonRow, makeTempDir } from './cli-env.js';

const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';

/** What must not depend on concurrency or the store: counts and totals from the `cost --json` row. */
export interface CostFigures {
  events: number;
  totalTokens: unknown;
  apiRateCostUSD: unknown;
  meteredCostUSD: unknown;
  days: number;
}

function figuresOf(row: Record<string, unknown>): CostFigures {
  const byModel = (row.byModel as Array<{ requests?: number }> | undefined) ?? [];
  return {
    events: byModel.reduce((sum, model) => sum + (model.requests ?? 0), 0),
    totalTokens: (row.totals as { totalTokens?: unknown } | undefined)?.totalTokens,
    apiRateCostUSD: row.apiRateCostUSD,
    meteredCostUSD: row.meteredCostUSD,
    days: (row.daily as unknown[] | undefined)?.length ?? 0,
  };
}

export interface CostSample extends ChildRun {
  figures: CostFigures;
  /** The JSON row as printed, to compare warm and cold runs byte for byte. */
  stdout: string;
  /** Events requests made by this run, and the highest page asked for. */
  requests: number;
  lastPage: number;
}

export interface CostRunner {
  samples: CostSample[];
  /** One run; resolves to its wall time (for the stats helpers). */
  sample: () => Promise<number>;
}

export interface CostRunnerOptions {
  cli: string;
  env: NodeJS.ProcessEnv;
  fake: FakeCursor;
  args: readonly string[];
  /** A fresh cache directory per run (cold), or this one for every run (warm). */
  cacheDir?: string;
  label: string;
}

/** The compile cache the first run left, copied into each fresh cache directory. */
let compileCacheSeed: string | undefined;

function freshCacheDir(): string {
  const dir = makeTempDir('codexbar-bench-cache-');
  if (compileCacheSeed) cpSync(compileCacheSeed, path.join(dir, 'compile-cache'), { recursive: true });
  return dir;
}

export function costRunner(options: CostRunnerOptions): CostRunner {
  const samples: CostSample[] = [];
  const sample = async () => {
    const firstRequest = options.fake.requests.length;
    const cacheDir = options.cacheDir ?? freshCacheDir();
    const run = expectSuccess(
      await runNode([options.cli, 'cost', '--json', ...options.args], {
        env: { ...options.env, CODEXBAR_CACHE_DIR: cacheDir },
        peakRss: true,
        cpu: true,
        timeoutMs: 300_000,
      }),
      options.label,
    );
    const compileCache = path.join(cacheDir, 'compile-cache');
    if (compileCacheSeed === undefined && existsSync(compileCache)) compileCacheSeed = compileCache;
    const pages = options.fake.requests
      .slice(firstRequest)
      .filter((req) => req.path === EVENTS_PATH)
      .map((req) => Number((req.body as { page?: unknown }).page));
    samples.push({
      ...run,
      figures: figuresOf(jsonRow(run.stdout, options.label)),
      requests: pages.length,
      lastPage: Math.max(...pages),
    });
    return run.ms;
  };
  return { samples, sample };
}

export const peakOf = (samples: readonly CostSample[]) =>
  Math.max(...samples.map((run) => run.peakRssMB ?? Number.NaN));

export const cpuOf = (samples: readonly CostSample[]) => samples.map((run) => run.cpuMs ?? Number.NaN);
