import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { proAccount, summaryWithPercent } from './accounts.js';
import { type CliResult, makeTempHome, type RunOptions, runCli } from './cli.js';
import { makeToken, type TestToken, writeAppToken } from './home.js';

/**
 * A temp HOME whose Cursor app token belongs to account A, and a fake cursor.com that knows accounts A and B
 * (B is reached with a manual cookie). For the usage cache, statusline and guard tests
 * (docs/behaviour.md §26). The clock is pinned: each run says when it happens.
 */

/** Mid-cycle for proAccount (2026-11-15 → 2026-12-15): the primary window resets in 14d 9h 30m, so
 * every run within half an hour shows the same countdown, `14d 9h`. */
export const PROMPT_NOW = new Date('2026-11-30T14:30:00Z');

export interface PromptWorld {
  home: string;
  fake: FakeCursor;
  a: TestToken;
  b: TestToken;
  /** `<home>/.cache/codexbar/usage`, where Linux runs keep their snapshots. */
  usageDir: string;
  /** The CLI in-process at `now` (default PROMPT_NOW), with the fake's URL and any extra environment. */
  run(args: readonly string[], options?: Partial<RunOptions> & { now?: Date }): Promise<CliResult>;
  /**
   * A run whose deadline passes while cursor.com is still answering: the fake holds its answers and the
   * injected deadline signal aborts once usage-summary has been asked. Returns the deadlines asked for.
   */
  runPastDeadline(args: readonly string[]): Promise<{ result: CliResult; deadlines: number[] }>;
  /** Requests to usage-summary so far: one per live usage fetch. */
  summaryRequests(): number;
  /** Every file under the cache's usage directory (names only). */
  usageFiles(): string[];
}

/** Call at the top level of a test file; returns a getter for the current test's world. */
export function usePromptWorld(accounts?: (a: TestToken, b: TestToken) => FakeAccount[]): () => PromptWorld {
  let world: PromptWorld | undefined;
  let cleanup: (() => void) | undefined;
  beforeEach(async () => {
    const temp = makeTempHome();
    cleanup = temp.cleanup;
    const a = await makeToken('user_prompt_a', { email: 'a@example.com' });
    const b = await makeToken('user_prompt_b', { email: 'b@example.com' });
    writeAppToken(temp.home, a.jwt);
    const fake = await startFakeCursor({
      accounts: accounts?.(a, b) ?? [
        proAccount([a.cookieValue], 'a@example.com'),
        proAccount([b.cookieValue], 'b@example.com', { usageSummary: summaryWithPercent(92) }),
      ],
    });
    const usageDir = path.join(temp.home, '.cache', 'codexbar', 'usage');
    world = {
      home: temp.home,
      fake,
      a,
      b,
      usageDir,
      run: (args, options = {}) =>
        runCli(args, {
          home: temp.home,
          now: PROMPT_NOW,
          frozen: true,
          ...options,
          env: { CODEXBAR_CURSOR_BASE_URL: fake.url, ...options.env },
        }),
      summaryRequests: () => summaryRequests(fake),
      async runPastDeadline(args) {
        const budget = new AbortController();
        const deadlines: number[] = [];
        const before = summaryRequests(fake);
        fake.setLatency(25_000);
        const running = world!.run(args, {
          timing: {
            deadline: (ms) => {
              deadlines.push(ms);
              return budget.signal;
            },
          },
        });
        while (summaryRequests(fake) === before) await new Promise((resolve) => setTimeout(resolve, 5));
        budget.abort();
        const result = await running;
        fake.setLatency(0);
        return { result, deadlines };
      },
      usageFiles: () => (fs.existsSync(usageDir) ? fs.readdirSync(usageDir).sort() : []),
    };
  });
  afterEach(async () => {
    await world?.fake.close();
    cleanup?.();
    world = undefined;
  });
  return () => world!;
}

function summaryRequests(fake: FakeCursor): number {
  return fake.requests.filter((request) => request.path === '/api/usage-summary').length;
}

/** `WorkosCursorSessionToken=<value>`: account B's manual header. */
export function cookieHeader(token: TestToken): string {
  return `WorkosCursorSessionToken=${token.cookieValue}`;
}

export function later(seconds: number): Date {
  return new Date(PROMPT_NOW.getTime() + seconds * 1000);
}
