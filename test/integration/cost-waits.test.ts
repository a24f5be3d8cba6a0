/**
 * No unbounded waits in `cost`: a Retry-After is waited 10 s at most (a 429 asking for longer fails at once),
 * and the whole run has a deadline,
 * `--timeout` (default 120 s): past it the run ends with exit 4, names the pages fetched so far and prints no
 * total (docs/invariants.md, "No partial total"). Waits go through the injected sleep and the deadline
 * through the injected deadline signal, so nothing here waits in real time.
 */
import { describe, expect, it } from 'vitest';
import type { Timing } from '../../src/cli/io.js';
import { createEventsHandler } from '../fake-cursor/events.js';
import type { FakeAccount, HandlerFunction } from '../fake-cursor/server.js';
import { attemptsAt, MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');
/** 4,500 small rows, one a minute back from now: five pages. */
const events = Array.from({ length: 4500 }, (_, i) => ({
  timestamp: String(NOW.getTime() - (i + 1) * 60_000),
  model: 'gpt-5',
  tokenUsage: { inputTokens: 1 + (i % 89), totalCents: 1 },
}));
const EVENTS_ENDPOINT = 'POST /api/dashboard/get-filtered-usage-events';

/** Sleeps that are recorded, never slept. */
function recordingSleep(): { slept: number[]; sleep: Timing['sleep'] } {
  const slept: number[] = [];
  return {
    slept,
    sleep: async (ms, signal) => {
      slept.push(ms);
      signal?.throwIfAborted();
    },
  };
}

/** `cost --json --concurrency 1` while page 2 answers every try with a 429 and this Retry-After. */
async function alwaysRateLimited(retryAfter: string) {
  const { slept, sleep } = recordingSleep();
  const account: FakeAccount = {
    cookies: [MANUAL_COOKIE_VALUE],
    events: { events, faults: [{ page: 2, status: 429, retryAfter }] },
  };
  const run = await runCost([account], ['--json', '--concurrency', '1'], {
    now: NOW,
    io: { timing: { sleep } },
  });
  return { run, slept };
}

describe('a Retry-After is waited up to the 10 s cap; a 429 asking for longer fails at once', () => {
  it('Retry-After: 10 (the cap) once: one 10 s wait, then the right total', async () => {
    const { slept, sleep } = recordingSleep();
    const account: FakeAccount = {
      cookies: [MANUAL_COOKIE_VALUE],
      events: { events, faults: [{ page: 2, status: 429, retryAfter: '10', times: 1 }] },
    };
    const clean = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }], ['--json'], {
      now: NOW,
    });
    const run = await runCost([account], ['--json'], { now: NOW, io: { timing: { sleep } } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toBe(clean.stdout);
    expect(slept).toEqual([10_000]);
  });

  it.each([
    ['11', 11],
    ['999999999', 999_999_999],
  ])(
    'Retry-After: %s: no wait and no retry, "rate limited for %i s", and no total',
    async (header, seconds) => {
      const { run, slept } = await alwaysRateLimited(header);
      expect(run.code).toBe(1);
      expect(onlyRow(run).error).toEqual({
        code: 1,
        message: `Cursor API error: rate limited for ${seconds} s; try again later (${EVENTS_ENDPOINT})`,
      });
      expect(slept).toEqual([]);
      expect(attemptsAt(run.requests, 2)).toBe(1);
    },
  );

  it('Retry-After: 10 on every try: three 10 s waits, then HTTP 429 and no total', async () => {
    const { run, slept } = await alwaysRateLimited('10');
    expect(run.code).toBe(1);
    expect(onlyRow(run).error).toEqual({
      code: 1,
      message: `Cursor API error: HTTP 429 (${EVENTS_ENDPOINT})`,
    });
    expect(slept).toEqual([10_000, 10_000, 10_000]);
    expect(attemptsAt(run.requests, 2)).toBe(4);
  });

  it('a Retry-After below the cap is waited as asked', async () => {
    const { slept, sleep } = recordingSleep();
    const account: FakeAccount = {
      cookies: [MANUAL_COOKIE_VALUE],
      events: { events, faults: [{ page: 3, status: 503, retryAfter: '7', times: 1 }] },
    };
    const run = await runCost([account], ['--json'], { now: NOW, io: { timing: { sleep } } });
    expect(run.code).toBe(0);
    expect(slept).toEqual([7_000]);
  });
});

describe('the --timeout deadline', () => {
  /** A deadline the test passes by hand, and the budgets the CLI asked for. */
  function manualDeadline(): { asked: number[]; pass: () => void; deadline: Timing['deadline'] } {
    const asked: number[] = [];
    const controller = new AbortController();
    return {
      asked,
      pass: () => controller.abort(new Error('deadline passed')),
      deadline: (ms) => {
        asked.push(ms);
        return controller.signal;
      },
    };
  }

  /** Every page as usual, but the deadline passes when page `page` is asked for, which then never answers. */
  function passingAt(page: number, pass: () => void): FakeAccount[] {
    const normal = createEventsHandler({ events });
    const handler: HandlerFunction = (req, attempt) => {
      if ((req.body as { page: number }).page !== page) return normal(req, attempt);
      pass();
      return { delayMs: 60_000, json: {} };
    };
    return [{ cookies: [MANUAL_COOKIE_VALUE], events: handler }];
  }

  it('past the deadline: exit 4, the pages fetched so far, no total (text)', async () => {
    const clock = manualDeadline();
    const run = await runCost(passingAt(3, clock.pass), ['--timeout', '45s', '--concurrency', '1'], {
      now: NOW,
      io: { timing: { deadline: clock.deadline } },
    });
    expect(clock.asked).toEqual([45_000]);
    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      'Error: Cursor cost refresh ran past its 45 s deadline after 2 of 5 pages (2000 events); no total is shown.',
      'Hint: Run it again with a longer --timeout, or narrow the window with --days or --since.',
      '',
    ]);
  });

  it('the same as a JSON error row with code 4, at the default concurrency and the default 120 s', async () => {
    const clock = manualDeadline();
    const run = await runCost(passingAt(3, clock.pass), ['--json'], {
      now: NOW,
      io: { timing: { deadline: clock.deadline } },
    });
    expect(clock.asked).toEqual([120_000]);
    expect(run.code).toBe(4);
    const row = onlyRow(run);
    expect(row).toMatchObject({ provider: 'cursor', daily: [], error: { code: 4 } });
    expect(row.totals).toBeUndefined();
    // Pages are fetched ahead, but only those taken in order count as fetched.
    expect((row.error as { message: string }).message).toMatch(
      /^Cursor cost refresh ran past its 120 s deadline after [12] of 5 pages? \(\d+ events\); no total is shown\.$/,
    );
  });

  it('before the first page arrived', async () => {
    const clock = manualDeadline();
    const run = await runCost(passingAt(1, clock.pass), ['--json', '--timeout', '2m'], {
      now: NOW,
      io: { timing: { deadline: clock.deadline } },
    });
    expect(run.code).toBe(4);
    expect((onlyRow(run).error as { message: string }).message).toBe(
      'Cursor cost refresh ran past its 120 s deadline before the first page arrived; no total is shown.',
    );
  });

  it('a deadline that passes during a Retry-After wait ends the wait and the run', async () => {
    const clock = manualDeadline();
    const slept: number[] = [];
    const sleep: Timing['sleep'] = async (ms, signal) => {
      slept.push(ms);
      clock.pass();
      signal?.throwIfAborted();
    };
    const account: FakeAccount = {
      cookies: [MANUAL_COOKIE_VALUE],
      events: { events, faults: [{ page: 2, status: 429, retryAfter: '10' }] },
    };
    const run = await runCost([account], ['--json', '--concurrency', '1'], {
      now: NOW,
      io: { timing: { sleep, deadline: clock.deadline } },
    });
    expect(run.code).toBe(4);
    expect(slept).toEqual([10_000]);
    expect((onlyRow(run).error as { message: string }).message).toBe(
      'Cursor cost refresh ran past its 120 s deadline after 1 of 5 pages (1000 events); no total is shown.',
    );
  });

  it('--timeout takes a duration and refuses nonsense before any request', async () => {
    const run = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }], ['--timeout', '0s'], {
      now: NOW,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: .*--timeout/);
    expect(run.requests).toEqual([]);
  });
});
