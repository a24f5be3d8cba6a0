/**
 * A request that never answers in time ends `usage` and `cost` with exit code 4 (src/errors.ts,
 * TimeoutError), in text and in the JSON error row. The budget is injected through `timing` (100 ms) and
 * the fake holds its answer for a minute, so the run always times out and never waits long.
 */
import { describe, expect, it } from 'vitest';
import { WORKED_ME, WORKED_NOW, WORKED_SUMMARY } from '../../fixtures/worked-example.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import type { CliResult } from '../helpers/cli.js';
import {
  attemptsAt,
  EVENTS_ENDPOINT,
  MANUAL_COOKIE,
  MANUAL_COOKIE_VALUE,
  onlyRow,
} from '../helpers/cost-cli.js';
import { useScene } from '../helpers/scene.js';

/** Longer than any test runs: the fake is closed (and its timer cleared) long before. */
const NEVER_IN_TIME_MS = 60_000;
const SUMMARY_TIMEOUT = 'Cursor API error: GET /api/usage-summary timed out after 0.1 s';
const EVENTS_TIMEOUT = `Cursor API error: ${EVENTS_ENDPOINT} timed out after 0.1 s`;

const scene = useScene({ now: WORKED_NOW, frozen: true, env: { CODEXBAR_CURSOR_COOKIE: MANUAL_COOKIE } });

async function run(account: Omit<FakeAccount, 'cookies'>, args: string[]): Promise<CliResult> {
  await scene.serve([{ cookies: [MANUAL_COOKIE_VALUE], ...account }]);
  return scene.run(args, { timing: { requestTimeoutMs: 100 } });
}

/** Text mode: nothing on stdout, the message on stderr's first line, and no stack trace. */
function expectTextTimeout(result: CliResult, message: string): void {
  expect(result.code).toBe(4);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toBe(`Error: ${message}`);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

const slowSummary = {
  usageSummary: { json: WORKED_SUMMARY, delayMs: NEVER_IN_TIME_MS },
  me: { json: WORKED_ME },
};

describe('usage: a usage-summary that never answers in time', () => {
  it('--json: exit 4, and code 4 in the error row', async () => {
    const result = await run(slowSummary, ['usage', '--json']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([
      {
        provider: 'cursor',
        source: 'auto',
        error: { code: 4, message: SUMMARY_TIMEOUT, kind: 'provider' },
      },
    ]);
  });

  it('text: the error on stderr, exit 4', async () => {
    expectTextTimeout(await run(slowSummary, ['usage']), SUMMARY_TIMEOUT);
  });
});

describe('cost: an events page that never answers in time', () => {
  const slowEvents = { events: { json: { usageEventsDisplay: [] }, delayMs: NEVER_IN_TIME_MS } };

  it('--json: exit 4 after the retries, and code 4 in the error row', async () => {
    const result = await run(slowEvents, ['cost', '--json']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe('');
    expect(onlyRow(result)).toEqual({
      provider: 'cursor',
      source: 'web',
      updatedAt: '2026-07-20T15:00:00Z',
      daily: [],
      projects: [],
      error: { code: 4, message: EVENTS_TIMEOUT },
    });
    // A timeout is retried like any transient failure: three attempts, then the run ends.
    expect(attemptsAt(scene.fake!.requests, 1)).toBe(3);
  });

  it('text: the error on stderr, exit 4', async () => {
    expectTextTimeout(await run(slowEvents, ['cost']), EVENTS_TIMEOUT);
  });
});
