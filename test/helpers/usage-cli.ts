import { afterEach, beforeEach, expect } from 'vitest';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { type CliResult, makeTempHome, type RunOptions, runCli } from './cli.js';
import { expectNoColleagueLeak } from './colleagues.js';
import { usageOutputSchema } from './json-rows/usage.js';
import { startTimelineProxy, type TimelineProxy } from './timeline-proxy.js';

/**
 * `codexbar usage --provider cursor --verbose` (in-process) against a fresh fake cursor.com, with a
 * manual cookie header and a pinned clock. Every run also checks that no colleague appears in its output.
 */

export interface UsageRunOptions {
  /** Extra arguments, e.g. `['--json']` or `['--no-color']`. */
  args?: string[];
  /** The whole manual Cookie header; defaults to the harness's. */
  cookieHeader?: string;
  /** Route the CLI through a timeline proxy (test/helpers/timeline-proxy.ts). */
  timeline?: boolean;
  /** Shorter budgets, e.g. so a test of an abandoned answer waits milliseconds, not seconds. */
  timing?: RunOptions['timing'];
}

export interface UsageRun {
  result: CliResult;
  fake: FakeCursor;
  timeline?: TimelineProxy;
}

export interface UsageCliHarness {
  run(account: FakeAccount, options?: UsageRunOptions): Promise<UsageRun>;
}

/** Call once per test file, at the top level: a temp HOME per test, servers closed after each. */
export function useUsageCli(defaults: { now: Date; cookieHeader: string }): UsageCliHarness {
  let home: { home: string; cleanup: () => void } | undefined;
  let fake: FakeCursor | undefined;
  let proxy: TimelineProxy | undefined;

  beforeEach(() => {
    home = makeTempHome();
  });
  afterEach(async () => {
    await proxy?.close();
    await fake?.close();
    home?.cleanup();
    proxy = undefined;
    fake = undefined;
    home = undefined;
  });

  return {
    async run(account, options = {}) {
      // A test may run the CLI more than once; each run gets its own server.
      await proxy?.close();
      await fake?.close();
      proxy = undefined;
      fake = await startFakeCursor({ accounts: [account] });
      if (options.timeline) proxy = await startTimelineProxy(fake.url);
      const result = await runCli(['usage', '--provider', 'cursor', '--verbose', ...(options.args ?? [])], {
        home: home!.home,
        now: defaults.now,
        timing: options.timing,
        env: {
          CODEXBAR_CURSOR_BASE_URL: proxy?.url ?? fake.url,
          CODEXBAR_CURSOR_COOKIE: options.cookieHeader ?? defaults.cookieHeader,
        },
      });
      expectNoColleagueLeak(result);
      return { result, fake, timeline: proxy };
    },
  };
}

/** Exit 0; on failure the message shows stderr, which says why. */
export function expectSuccess(result: CliResult): void {
  expect(result.code, result.stderr).toBe(0);
}

/** The one `usage` row of a `--json` run, checked against its documented schema (docs/json.md). */
export function usageJson(result: CliResult): UsageJsonRow {
  const rows = JSON.parse(result.stdout) as UsageJsonRow[];
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  usageOutputSchema.parse(rows);
  return rows[0]!;
}

export interface JsonWindow {
  usedPercent: number;
  windowMinutes?: number;
  resetsAt?: string;
  resetDescription?: string;
}

export interface JsonPace {
  stage: string;
  deltaPercent: number;
  expectedUsedPercent: number;
  willLastToReset: boolean;
  summary: string;
}

/** The parts of the usage row (docs/behaviour.md §16) these tests read. */
export interface UsageJsonRow {
  provider: string;
  usage: {
    primary: JsonWindow | null;
    secondary: JsonWindow | null;
    tertiary: JsonWindow | null;
    extraRateWindows?: Array<{ id: string; title: string; window: JsonWindow }>;
    providerCost?: {
      used: number;
      limit: number;
      currencyCode: string;
      period?: string;
      resetsAt?: string;
      personalUsed?: number;
    };
    memberBudget?: { used: number; limit: number; currencyCode: string };
    details?: Array<{ rows: Array<{ label: string; value: string }> }>;
  };
  pace?: {
    primary?: JsonPace;
    secondary?: JsonPace;
    tertiary?: JsonPace;
    extra?: Record<string, JsonPace>;
  };
}

/** The paths the fake saw, in arrival order. */
export const requestedPaths = (fake: FakeCursor): string[] => fake.requests.map((request) => request.path);
