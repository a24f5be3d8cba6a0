/**
 * The scene of the usage cache, statusline and guard tests: its HOME holds account A's
 * Cursor app token, and its fake cursor.com knows accounts A and B (B is reached with a manual cookie). The clock
 * is pinned: each run says when it happens.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount, summaryWithPercent } from './accounts.js';
import type { CliResult } from './cli.js';
import { makeToken, type TestToken, writeAppToken } from './home.js';
import type { Scene, SceneOptions } from './scene.js';

/** Mid-cycle for proAccount (2026-11-15 → 2026-12-15): the primary window resets in 14d 9h 30m, so
 * every run within half an hour shows the same countdown, `14d 9h`. */
export const PROMPT_NOW = new Date('2026-11-30T14:30:00Z');

/** Account A (the app token's) and account B (a manual cookie's). */
export interface PromptAccounts {
  a: TestToken;
  b: TestToken;
}

/**
 * `useScene(promptScene())`: frozen at PROMPT_NOW, A's token in the HOME, the fake serving A (45 % used) and
 * B (92 %), or the accounts `accounts` makes of the two tokens; `scene.given` is the two tokens.
 */
export function promptScene(
  accounts?: (a: TestToken, b: TestToken) => FakeAccount[],
): SceneOptions & { setup: (scene: Scene) => Promise<PromptAccounts> } {
  return {
    now: PROMPT_NOW,
    frozen: true,
    async setup(scene) {
      const a = await makeToken('user_prompt_a', { email: 'a@example.com' });
      const b = await makeToken('user_prompt_b', { email: 'b@example.com' });
      writeAppToken(scene.home, a.jwt);
      await scene.serve(
        accounts?.(a, b) ?? [
          proAccount([a.cookieValue], 'a@example.com'),
          proAccount([b.cookieValue], 'b@example.com', { usageSummary: summaryWithPercent(92) }),
        ],
      );
      return { a, b };
    },
  };
}

/** `<home>/.cache/codexbar/usage`, where Linux runs keep their snapshots. */
export const usageDir = (scene: Scene): string => path.join(scene.home, '.cache', 'codexbar', 'usage');

/** Every file under the cache's usage directory (names only). */
export function usageFiles(scene: Scene): string[] {
  const dir = usageDir(scene);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

/** Requests to usage-summary so far: one per live usage fetch. */
export function summaryRequests(scene: Scene): number {
  return (scene.fake?.requests ?? []).filter((request) => request.path === '/api/usage-summary').length;
}

/**
 * A run whose deadline passes while cursor.com is still answering: the fake holds its answers and the
 * injected deadline signal aborts once usage-summary has been asked. Returns the deadlines asked for.
 */
export async function runPastDeadline(
  scene: Scene,
  args: readonly string[],
): Promise<{ result: CliResult; deadlines: number[] }> {
  const fake = scene.fake!;
  const budget = new AbortController();
  const deadlines: number[] = [];
  const before = summaryRequests(scene);
  fake.setLatency(25_000);
  const running = scene.run(args, {
    timing: {
      deadline: (ms) => {
        deadlines.push(ms);
        return budget.signal;
      },
    },
  });
  while (summaryRequests(scene) === before) await new Promise((resolve) => setTimeout(resolve, 5));
  budget.abort();
  const result = await running;
  fake.setLatency(0);
  return { result, deadlines };
}

/** `WorkosCursorSessionToken=<value>`: account B's manual header. */
export function cookieHeader(token: TestToken): string {
  return `WorkosCursorSessionToken=${token.cookieValue}`;
}

export function later(seconds: number): Date {
  return new Date(PROMPT_NOW.getTime() + seconds * 1000);
}
