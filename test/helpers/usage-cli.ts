import { expect } from 'vitest';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import type { CliResult, RunOptions } from './cli.js';
import { expectNoColleagueLeak } from './colleagues.js';
import { usageOutputSchema } from './json-rows/usage.js';
import type { Scene } from './scene.js';
import { startTimelineProxy, type TimelineProxy } from './timeline-proxy.js';

/**
 * `codexbar usage --provider cursor --verbose` in the scene (test/helpers/scene.ts) against a fake cursor.com
 * of its own serving `account`, with the scene's manual cookie header (`CODEXBAR_CURSOR_COOKIE` in its `env`)
 * and clock. Every run also checks that no colleague appears in its output.
 */

export interface UsageRunOptions {
  /** Extra arguments, e.g. `['--json']` or `['--no-color']`. */
  args?: string[];
  /** The whole manual Cookie header, instead of the scene's. */
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

export async function runUsage(
  scene: Scene,
  account: FakeAccount,
  options: UsageRunOptions = {},
): Promise<UsageRun> {
  // A test may run the CLI more than once; each run gets its own server.
  const fake = await scene.serve([account]);
  let timeline: TimelineProxy | undefined;
  if (options.timeline) {
    const proxy = await startTimelineProxy(fake.url);
    scene.defer(() => proxy.close());
    timeline = proxy;
  }
  const env: Record<string, string> = {};
  if (timeline) env.CODEXBAR_CURSOR_BASE_URL = timeline.url;
  if (options.cookieHeader !== undefined) env.CODEXBAR_CURSOR_COOKIE = options.cookieHeader;
  const result = await scene.run(['usage', '--provider', 'cursor', '--verbose', ...(options.args ?? [])], {
    timing: options.timing,
    env,
  });
  expectNoColleagueLeak(result);
  return { result, fake, timeline };
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

/** The parts of the usage row these tests read. */
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
