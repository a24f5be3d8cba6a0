/**
 * What `codexbar cost` writes to stderr: the progress line is for a terminal only (never into a pipe,
 * never with JSON), and --verbose adds `[cursor-cost] page N: K events (T raw total)` lines — never a
 * token or cookie.
 */
import { describe, expect, it } from 'vitest';
import { generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { MANUAL_COOKIE, MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { makeToken, type TestToken, writeAppToken } from '../helpers/home.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const events = (count: number) =>
  generateEvents({ count, start: new Date('2026-07-01T00:00:00Z'), end: NOW, seed: 5 });
const EVENTS_2500 = events(2500);
const manual = (count = 2500): FakeAccount[] => [
  { cookies: [MANUAL_COOKIE_VALUE], events: { events: count === 2500 ? EVENTS_2500 : events(count) } },
];

const PAGE_LINES_2500 = [
  '[cursor-cost] page 1: 1000 events (1000 raw total)',
  '[cursor-cost] page 2: 1000 events (2000 raw total)',
  '[cursor-cost] page 3: 500 events (2500 raw total)',
];
const pageLines = (stderr: string) =>
  stderr.split('\n').filter((line) => /^\[cursor-cost\] page \d+:/.test(line));

/** No secret appears anywhere: the whole JWT, its signature, or the cookie value. */
function expectNoSecret(output: string, token: TestToken): void {
  expect(output).not.toContain(token.jwt);
  expect(output).not.toContain(token.jwt.split('.')[2]!);
  expect(output).not.toContain(token.cookieValue);
}

describe('the progress line never reaches a pipe or JSON', () => {
  it.each([['1'], ['6']])(
    'text, stderr a pipe, --concurrency %s: stderr stays empty over 3 pages',
    async (concurrency) => {
      const run = await runCost(manual(), ['--concurrency', concurrency], { now: NOW });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toContain('Fetching usage events');
      expect(run.stdout).not.toContain('\r');
    },
  );

  it('--json: stderr empty and stdout nothing but the JSON array', async () => {
    const run = await runCost(manual(), ['--json'], { now: NOW });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.endsWith(']\n')).toBe(true);
    expect(onlyRow(run).provider).toBe('cursor');
  });

  it('--json --verbose: verbose lines on stderr, no progress line, stdout still pure JSON', async () => {
    const run = await runCost(manual(), ['--json', '--verbose'], { now: NOW });
    expect(run.code).toBe(0);
    expect(pageLines(run.stderr)).toEqual(PAGE_LINES_2500);
    expect(run.stderr).not.toContain('Fetching usage events');
    expect(run.stderr).not.toContain('\r');
    expect(onlyRow(run).error).toBeUndefined();
  });

  it('--json-only --verbose: nothing at all on stderr', async () => {
    const run = await runCost(manual(), ['--json-only', '--verbose'], { now: NOW });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('--verbose page lines', () => {
  it.each([['1'], ['6']])(
    '--concurrency %s: one line per page, in page order, with running raw totals',
    async (concurrency) => {
      const run = await runCost(manual(), ['--verbose', '--concurrency', concurrency], { now: NOW });
      expect(run.code).toBe(0);
      expect(pageLines(run.stderr)).toEqual(PAGE_LINES_2500);
      expect(run.stderr).not.toContain('\r');
    },
  );

  it('an exact multiple of 1000 reports the empty page that proved completion', async () => {
    const run = await runCost(manual(2000), ['--verbose'], { now: NOW });
    expect(pageLines(run.stderr)).toEqual([
      '[cursor-cost] page 1: 1000 events (1000 raw total)',
      '[cursor-cost] page 2: 1000 events (2000 raw total)',
      '[cursor-cost] page 3: 0 events (2000 raw total)',
    ]);
  });

  it('with a Cursor app token: the source is named, the token and cookie are never printed', async () => {
    const app = await makeToken('app_user', { exp: NOW.getTime() / 1000 + 86_400 });
    const run = await runCost(
      [{ cookies: [app.cookieValue], events: { events: EVENTS_2500 } }],
      ['--verbose'],
      {
        now: NOW,
        cookie: null,
        prepareHome: (home) => void writeAppToken(home, app.jwt),
      },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[cursor] Using Cursor app token');
    expect(pageLines(run.stderr)).toEqual(PAGE_LINES_2500);
    expectNoSecret(run.stderr + run.stdout, app);
  });

  it('a failing run keeps the lines of the pages it accepted, then the error; no token, no total', async () => {
    const app = await makeToken('app_user', { exp: NOW.getTime() / 1000 + 86_400 });
    const run = await runCost(
      [{ cookies: [app.cookieValue], events: { events: EVENTS_2500, count: 2600 } }],
      ['--verbose', '--concurrency', '1'],
      { now: NOW, cookie: null, prepareHome: (home) => void writeAppToken(home, app.jwt) },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(pageLines(run.stderr)).toEqual([
      '[cursor-cost] page 1: 1000 events (1000 raw total)',
      '[cursor-cost] page 2: 1000 events (2000 raw total)',
      '[cursor-cost] page 3: 500 events (2500 raw total)',
    ]);
    expect(run.stderr).toContain('Error: Cursor cost refresh was incomplete (received 2500 of 2600 events).');
    expectNoSecret(run.stderr, app);
  });

  it('a manual cookie is never echoed by --verbose', async () => {
    const run = await runCost(manual(), ['--verbose', '--json'], { now: NOW });
    expect(run.stderr).toContain('[cursor] Using manual cookie header');
    expect(run.stderr + run.stdout).not.toContain(MANUAL_COOKIE_VALUE);
    expect(run.stderr + run.stdout).not.toContain(MANUAL_COOKIE);
  });
});
