/**
 * Repeated `codexbar cost` runs against ONE fake cursor.com and ONE home, so a run can find what the run
 * before it stored (docs/invariants.md, "When a stored range may be trusted"). The clock is frozen unless a
 * run passes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UsageEventJson } from '../fake-cursor/events.js';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import type { CliResult, RunOptions } from './cli.js';
import { eventsRequests, MANUAL_COOKIE } from './cost-cli.js';
import { openScene } from './scene.js';

export interface StoreRun extends CliResult {
  /** get-filtered-usage-events requests this run made. */
  eventRequests: number;
}

export interface StoreHarness {
  home: string;
  fake: FakeCursor;
  account: FakeAccount;
  /** Replaces what the fake cursor.com serves (events newest first, as the dashboard lists them). */
  serve(events: UsageEventJson[]): void;
  cost(args: readonly string[], options?: { now?: Date; cookie?: string }): Promise<StoreRun>;
  /** Any other command in the same HOME, against the same fake, at the same clock. */
  run(args: readonly string[], options?: Partial<RunOptions>): Promise<CliResult>;
  /** The files under `<cache dir>/codexbar/cost`. */
  storeFiles(): string[];
  storeDir: string;
  close(): Promise<void>;
}

/** A scene (test/helpers/scene.ts) kept open over several tests, its fake serving one account's events. */
export async function storeHarness(
  events: UsageEventJson[],
  now: Date,
  cookies: string[],
): Promise<StoreHarness> {
  const scene = openScene({ now, frozen: true, env: { CODEXBAR_CURSOR_COOKIE: MANUAL_COOKIE } });
  const account: FakeAccount = { cookies, events: { events } };
  const fake = await scene.serve([account]);
  const storeDir = path.join(scene.home, '.cache', 'codexbar', 'cost');
  return {
    home: scene.home,
    fake,
    account,
    storeDir,
    serve(next) {
      // A new scenario object: the fake caches each scenario's windows.
      account.events = { events: next };
    },
    async cost(args, options = {}) {
      const before = fake.requests.length;
      const result = await scene.run(['cost', ...args], {
        now: options.now,
        env: options.cookie === undefined ? {} : { CODEXBAR_CURSOR_COOKIE: options.cookie },
      });
      return { ...result, eventRequests: eventsRequests(fake.requests.slice(before)).length };
    },
    run: (args, options) => scene.run(args, options),
    storeFiles() {
      return fs.existsSync(storeDir) ? fs.readdirSync(storeDir).sort() : [];
    },
    close: () => scene.close(),
  };
}

/** Newest first, as the dashboard lists events. */
export function newestFirst(events: UsageEventJson[]): UsageEventJson[] {
  return [...events].sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
}
