/**
 * The response cache over real sockets, against the fake cursor.com: coalescing counted in the
 * fake's request log, stale-while-revalidate, the per-request budget and 504, last-good replacement and
 * the cost cooldown. The clock is the test's; nothing waits for the refresh interval.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CursorDataSource, type ServeConfig } from '../../src/serve/data-source.js';
import { createEventsHandler } from '../fake-cursor/events.js';
import type { FakeResponse, HandlerFunction } from '../fake-cursor/server.js';
import type { EventsScenario } from '../fake-cursor/types.js';
import {
  EVENTS,
  gated,
  SERVE_COOKIE,
  type ServeHarness,
  serveAccount,
  startServeHarness,
  USAGE_SUMMARY,
  until,
} from '../helpers/serve.js';
import { configWithAccountEntries } from '../helpers/token-accounts.js';

/** The account's events, as a scenario the fake's events handler can serve. */
const scenario = () => serveAccount().events as EventsScenario;

let serve: ServeHarness | undefined;
afterEach(async () => {
  await serve?.close();
  serve = undefined;
});

/** The account's usage-summary answer, behind a gate the test opens. */
function gatedSummary() {
  const summary = serveAccount().usageSummary as FakeResponse;
  return gated(() => summary);
}

const noFetchRunning = (harness: ServeHarness) =>
  until(() => harness.server.data.runningFetches() === 0, 'the running fetch to finish');

type UsageBody = Array<{
  usage?: { updatedAt: string };
  error?: { message: string; code: number; kind?: string };
}>;

describe('coalescing', () => {
  it('10 concurrent /usage misses are one upstream wave; all 10 wait for it', async () => {
    const summary = gatedSummary();
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summary.handler })],
    });
    const harness = serve;
    const requests = Array.from({ length: 10 }, () => harness.get('/usage'));
    await until(
      () => harness.server.data.waitingRequests() === 10 && summary.waiting() === 1,
      'ten waiting requests',
    );
    summary.open();
    const responses = await Promise.all(requests);
    expect(responses.map((response) => [response.status, response.headers['x-codexbar-cache']])).toEqual(
      Array(10).fill([200, 'miss']),
    );
    expect(new Set(responses.map((response) => response.body)).size).toBe(1);
    expect(harness.count(USAGE_SUMMARY)).toBe(1);
    expect(harness.count('/api/auth/me')).toBe(1);
  });
});

describe('stale-while-revalidate', () => {
  it('after the interval the old answer comes back at once while one refresh runs; then the new one', async () => {
    const summary = gatedSummary();
    summary.open();
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summary.handler })],
    });
    const harness = serve;
    const first = await harness.get('/usage');
    expect(first.headers).toMatchObject({ 'x-codexbar-cache': 'miss', age: '0' });

    harness.clock.advance(30);
    expect((await harness.get('/usage')).headers).toMatchObject({ 'x-codexbar-cache': 'hit', age: '30' });

    // Past the interval, with cursor.com slow to answer: the old body, at once.
    summary.close();
    harness.clock.advance(31);
    const stale = await harness.get('/usage');
    expect(stale.headers).toMatchObject({ 'x-codexbar-cache': 'refreshing', age: '61' });
    expect(stale.body).toBe(first.body);
    await until(() => summary.waiting() === 1, 'the background refresh to reach cursor.com');
    // A second stale hit joins the same refresh.
    expect((await harness.get('/usage')).headers['x-codexbar-cache']).toBe('refreshing');

    summary.open();
    await noFetchRunning(harness);
    const fresh = await harness.get('/usage');
    expect(fresh.headers).toMatchObject({ 'x-codexbar-cache': 'hit', age: '0' });
    const [row] = fresh.json() as UsageBody;
    expect(row?.usage?.updatedAt).toBe('2026-11-20T12:01:01Z');
    expect(harness.count(USAGE_SUMMARY)).toBe(2);
  });

  it('past the stale window the request waits for a fresh fetch', async () => {
    serve = await startServeHarness({ flags: { refreshInterval: 60 } });
    await serve.get('/usage');
    serve.clock.advance(600);
    const response = await serve.get('/usage');
    expect(response.headers).toMatchObject({ 'x-codexbar-cache': 'miss', age: '0' });
    expect(serve.count(USAGE_SUMMARY)).toBe(2);
  });

  it('--refresh-interval 0: every request fetches (bypass)', async () => {
    serve = await startServeHarness({ flags: { refreshInterval: 0 } });
    for (let i = 0; i < 3; i++)
      expect((await serve.get('/usage')).headers['x-codexbar-cache']).toBe('bypass');
    expect(serve.count(USAGE_SUMMARY)).toBe(3);
  });
});

describe('deadlines', () => {
  it('a fetch past 0.8 × the request timeout is a timeout row; it keeps running, is not stacked, and is cached', async () => {
    const summary = gatedSummary();
    const events = gated(createEventsHandler(scenario()));
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summary.handler, events: events.handler })],
      // The row comes at 0.8 × the timeout and the 504 at 1 ×: 100 ms apart, so a loaded machine that runs
      // both timers late (loading the SQLite addon for /cost blocks the loop) still sees the row first.
      flags: { requestTimeout: 0.5 },
    });
    const harness = serve;
    for (let i = 0; i < 2; i++) {
      const response = await harness.get('/usage');
      expect(response.status).toBe(200);
      expect(response.json()).toEqual([
        {
          provider: 'cursor',
          source: 'auto',
          error: { code: 1, message: 'cursor usage timed out', kind: 'provider' },
        },
      ]);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const cost = await harness.get('/cost');
    expect(cost.json()).toEqual([
      {
        provider: 'cursor',
        source: 'web',
        updatedAt: '2026-11-20T12:00:00Z',
        daily: [],
        projects: [],
        error: { code: 1, message: 'cursor cost refresh timed out' },
      },
    ]);
    expect(harness.count(USAGE_SUMMARY)).toBe(1);
    summary.open();
    events.open();
    await noFetchRunning(harness);
    const late = await harness.get('/usage');
    expect(late.headers['x-codexbar-cache']).toBe('hit');
    expect((late.json() as UsageBody)[0]?.usage).toBeDefined();
    expect(harness.count(USAGE_SUMMARY)).toBe(1);
  });

  it('a request that cannot finish in time (a config read that never ends) is 504 with no-store', async () => {
    // The fetch itself answers at 0.8 × the timeout with a timeout row; only what comes before it, the config
    // reload, can outlive the request. A config file on a hung network mount is such a read.
    let release: () => void = () => {};
    class HungConfigSource extends CursorDataSource {
      override loadConfig(): Promise<ServeConfig> {
        return new Promise((_resolve, reject) => {
          release = () => reject(new Error('released'));
        });
      }
    }
    serve = await startServeHarness({
      flags: { requestTimeout: 0.05 },
      deps: { source: (options) => new HungConfigSource(options) },
    });
    try {
      const response = await serve.get('/usage');
      expect(response.status).toBe(504);
      expect(response.body).toBe('{"error":"request timed out"}');
      expect(response.headers['cache-control']).toBe('no-store');
      expect((await serve.get('/health')).status).toBe(200);
    } finally {
      release();
    }
  });
});

describe('last-good replacement', () => {
  const summaryThenFailure = (): HandlerFunction => {
    const summary = serveAccount().usageSummary as FakeResponse;
    return (_request, attempt) => (attempt === 0 ? summary : { status: 500, json: { error: 'down' } });
  };

  it('a token account’s failed row is replaced by its last good row, marked fallback', async () => {
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summaryThenFailure() })],
      config: configWithAccountEntries([{ id: 'A-1', label: 'work', token: SERVE_COOKIE, addedAt: 1 }]),
    });
    const good = await serve.get('/usage');
    serve.clock.advance(600);
    const replaced = await serve.get('/usage');
    expect(replaced.headers).toMatchObject({ 'x-codexbar-cache': 'fallback', age: '600' });
    expect(replaced.body).toBe(good.body);
    expect(serve.count(USAGE_SUMMARY)).toBe(2);
  });

  it('an ambient (manual cookie) row that fails is passed through as it is', async () => {
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summaryThenFailure() })],
    });
    await serve.get('/usage');
    serve.clock.advance(600);
    const response = await serve.get('/usage');
    expect(response.headers['x-codexbar-cache']).toBe('miss');
    const [row] = response.json() as UsageBody;
    expect(row?.error?.message).toMatch(/500/);
  });

  it('/cost falls back to the last good cost row', async () => {
    const events = createEventsHandler(scenario());
    serve = await startServeHarness({
      accounts: [
        serveAccount(undefined, {
          // A 400 is final (a 5xx would be retried after real backoff sleeps).
          events: (request, attempt) =>
            attempt === 0 ? events(request, attempt) : { status: 400, json: {} },
        }),
      ],
    });
    const good = await serve.get('/cost');
    serve.clock.advance(600);
    const replaced = await serve.get('/cost');
    expect(replaced.headers).toMatchObject({ 'x-codexbar-cache': 'fallback', age: '600' });
    expect(replaced.body).toBe(good.body);
  });
});

describe('cost cooldown after a 403 on the events endpoint', () => {
  it('background refreshes pause; a request with nothing to serve still tries, then falls back', async () => {
    const events = createEventsHandler(scenario());
    let forbidden = false;
    serve = await startServeHarness({
      accounts: [
        serveAccount(undefined, {
          events: (request, attempt) =>
            forbidden ? { status: 403, json: { error: 'forbidden' } } : events(request, attempt),
        }),
      ],
    });
    const harness = serve;
    const good = await harness.get('/cost');
    expect(harness.count(EVENTS)).toBe(1);

    forbidden = true;
    harness.clock.advance(61);
    expect((await harness.get('/cost')).headers['x-codexbar-cache']).toBe('refreshing');
    await noFetchRunning(harness);
    expect(harness.count(EVENTS)).toBe(2);

    // Twice past the interval, still inside the stale window: no background refresh while the cooldown holds.
    for (let i = 0; i < 2; i++) {
      harness.clock.advance(120);
      const stale = await harness.get('/cost');
      expect(stale.headers['x-codexbar-cache']).toBe('stale');
      expect(stale.body).toBe(good.body);
      await noFetchRunning(harness);
      expect(harness.count(EVENTS)).toBe(2);
    }

    // Past the stale window there is nothing to serve: the request tries (and gets the last good row).
    harness.clock.advance(600);
    const explicit = await harness.get('/cost');
    expect(harness.count(EVENTS)).toBe(3);
    expect(explicit.headers['x-codexbar-cache']).toBe('fallback');
    expect(explicit.body).toBe(good.body);
    // /usage is not affected by the cost cooldown.
    expect((await harness.get('/usage')).status).toBe(200);
  });
});
