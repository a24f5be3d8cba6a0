/**
 * Repeated `codexbar cost` runs against ONE fake cursor.com and ONE home, so a run can find what the run
 * before it stored (docs/behaviour.md §28). The clock is frozen unless a run passes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { type CliResult, makeTempHome, runCli } from './cli.js';
import { eventsRequests, MANUAL_COOKIE } from './cost-cli.js';

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
  /** The files under `<cache dir>/codexbar/cost`. */
  storeFiles(): string[];
  storeDir: string;
  close(): Promise<void>;
}

export async function storeHarness(
  events: UsageEventJson[],
  now: Date,
  cookies: string[],
): Promise<StoreHarness> {
  const { home, cleanup } = makeTempHome();
  const account: FakeAccount = { cookies, events: { events } };
  const fake = await startFakeCursor({ accounts: [account] });
  const storeDir = path.join(home, '.cache', 'codexbar', 'cost');
  return {
    home,
    fake,
    account,
    storeDir,
    serve(next) {
      // A new scenario object: the fake caches each scenario's windows.
      account.events = { events: next };
    },
    async cost(args, options = {}) {
      const before = fake.requests.length;
      const result = await runCli(['cost', ...args], {
        home,
        now: options.now ?? now,
        frozen: true,
        env: { CODEXBAR_CURSOR_BASE_URL: fake.url, CODEXBAR_CURSOR_COOKIE: options.cookie ?? MANUAL_COOKIE },
      });
      return { ...result, eventRequests: eventsRequests(fake.requests.slice(before)).length };
    },
    storeFiles() {
      return fs.existsSync(storeDir) ? fs.readdirSync(storeDir).sort() : [];
    },
    async close() {
      await fake.close();
      cleanup();
    },
  };
}

/** Newest first, as the dashboard lists events. */
export function newestFirst(events: UsageEventJson[]): UsageEventJson[] {
  return [...events].sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
}
