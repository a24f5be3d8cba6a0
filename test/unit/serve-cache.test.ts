import { describe, expect, it } from 'vitest';
import { type CacheJob, type FetchOutcome, type KeyedRow, ResponseCache } from '../../src/serve/cache.js';

interface Row {
  value: string;
  error?: boolean;
}

const ok = (value: string, fallbackKey?: string): KeyedRow<Row> => ({
  row: { value },
  error: false,
  fallbackKey,
});
const failed = (value: string, fallbackKey?: string): KeyedRow<Row> => ({
  row: { value, error: true },
  error: true,
  fallbackKey,
});

/** A job whose fetches the test answers one by one. */
class Upstream {
  readonly pending: Array<(outcome: FetchOutcome<Row>) => void> = [];
  fetches = 0;
  aborted = 0;

  job(key = 'k', fallbackKey?: string): CacheJob<Row> {
    return {
      key,
      fetch: (signal) => {
        this.fetches++;
        signal.addEventListener('abort', () => this.aborted++);
        return new Promise((resolve) => this.pending.push(resolve));
      },
      timeoutRows: () => [failed('timed out', fallbackKey)],
    };
  }

  answer(outcome: FetchOutcome<Row>): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no fetch is waiting');
    next(outcome);
  }
}

class Clock {
  ms = 1_000_000;
  now = () => this.ms;
  advance(seconds: number) {
    this.ms += seconds * 1000;
  }
}

function setup(intervalSeconds = 60, staleWindowSeconds = 600) {
  const clock = new Clock();
  const cache = new ResponseCache<Row>({
    refreshIntervalMs: intervalSeconds * 1000,
    staleWindowMs: staleWindowSeconds * 1000,
    cooldownMs: 6 * 3600 * 1000,
    now: clock.now,
  });
  return { clock, cache, upstream: new Upstream() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('fresh answers and stale-while-revalidate', () => {
  it('a miss fetches; within the interval the same rows are served without a fetch', async () => {
    const { clock, cache, upstream } = setup();
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    expect(await first).toMatchObject({ rows: [{ value: 'v1' }], state: 'miss', fetchedAt: clock.ms });
    clock.advance(59);
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v1' }], state: 'hit' });
    expect(upstream.fetches).toBe(1);
  });

  it('after the interval the old rows come back at once while one background refresh runs', async () => {
    const { clock, cache, upstream } = setup();
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    await first;
    clock.advance(61);
    const stale = await cache.serve(upstream.job());
    expect(stale).toMatchObject({ rows: [{ value: 'v1' }], state: 'refreshing' });
    // Concurrent stale hits share the one refresh.
    expect(await cache.serve(upstream.job())).toMatchObject({ state: 'refreshing' });
    expect(upstream.fetches).toBe(2);
    upstream.answer({ rows: [ok('v2')] });
    await flush();
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v2' }], state: 'hit' });
  });

  it('a failed refresh keeps the old rows, now marked stale, and is not cached', async () => {
    const { clock, cache, upstream } = setup();
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    await first;
    clock.advance(61);
    await cache.serve(upstream.job());
    upstream.answer({ rows: [failed('boom')] });
    await flush();
    // The page must say "stale"; the failing upstream is not retried on every request.
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v1' }], state: 'stale' });
    expect(upstream.fetches).toBe(2);
    // One interval after the failure a new refresh starts; the rows stay stale until one succeeds.
    clock.advance(60);
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v1' }], state: 'stale' });
    expect(upstream.fetches).toBe(3);
    upstream.answer({ rows: [ok('v2')] });
    await flush();
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v2' }], state: 'hit' });
  });

  it('after the stale window the rows are dropped and the request waits for a fetch', async () => {
    const { clock, cache, upstream } = setup(60, 600);
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    await first;
    clock.advance(600);
    const waiting = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v2')] });
    expect(await waiting).toMatchObject({ rows: [{ value: 'v2' }], state: 'miss' });
  });

  it('another key (a changed config) never gets this key’s stale rows', async () => {
    const { clock, cache, upstream } = setup();
    const first = cache.serve(upstream.job('config-a'));
    upstream.answer({ rows: [ok('a')] });
    await first;
    clock.advance(61);
    const other = cache.serve(upstream.job('config-b'));
    upstream.answer({ rows: [ok('b')] });
    expect(await other).toMatchObject({ rows: [{ value: 'b' }], state: 'miss' });
  });

  it('interval 0: nothing is kept, every request fetches (bypass), and there is no fallback', async () => {
    const { cache, upstream } = setup(0, 0);
    for (const value of ['v1', 'v2']) {
      const served = cache.serve(upstream.job('k', 'acct'));
      upstream.answer({ rows: [ok(value, 'acct')] });
      expect(await served).toMatchObject({ rows: [{ value }], state: 'bypass' });
    }
    const failing = cache.serve(upstream.job('k', 'acct'));
    upstream.answer({ rows: [failed('boom', 'acct')] });
    expect(await failing).toMatchObject({ rows: [{ value: 'boom' }], state: 'bypass' });
    expect(upstream.fetches).toBe(3);
  });
});

describe('coalescing and budgets', () => {
  it('concurrent misses for one key share one fetch', async () => {
    const { cache, upstream } = setup();
    const waiters = Array.from({ length: 10 }, () => cache.serve(upstream.job()));
    expect(upstream.fetches).toBe(1);
    upstream.answer({ rows: [ok('v1')] });
    const answers = await Promise.all(waiters);
    expect(answers.map((answer) => answer.rows[0]?.value)).toEqual(Array(10).fill('v1'));
  });

  it('a waiter past its budget gets the timeout rows; the fetch goes on, is not duplicated, and is cached', async () => {
    const { cache, upstream } = setup();
    expect(await cache.serve(upstream.job(), 0)).toMatchObject({
      rows: [{ value: 'timed out' }],
      state: 'miss',
    });
    // A later request joins the same fetch instead of stacking another.
    const joined = cache.serve(upstream.job());
    expect(upstream.fetches).toBe(1);
    upstream.answer({ rows: [ok('late')] });
    expect(await joined).toMatchObject({ rows: [{ value: 'late' }] });
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'late' }], state: 'hit' });
  });

  it('each waiter has its own budget: a timed-out one does not cut the others short', async () => {
    const { cache, upstream } = setup();
    const patient = cache.serve(upstream.job());
    expect(await cache.serve(upstream.job(), 0)).toMatchObject({ rows: [{ value: 'timed out' }] });
    upstream.answer({ rows: [ok('v1')] });
    expect(await patient).toMatchObject({ rows: [{ value: 'v1' }] });
  });

  it('close() aborts running fetches and keeps nothing they return', async () => {
    const { cache, upstream } = setup();
    const waiting = cache.serve(upstream.job());
    cache.close();
    expect(upstream.aborted).toBe(1);
    upstream.answer({ rows: [ok('after close')] });
    await waiting;
    const again = cache.serve(upstream.job());
    expect(upstream.fetches).toBe(2);
    upstream.answer({ rows: [ok('x')] });
    await again;
  });
});

describe('last-good replacement', () => {
  async function primed(fallbackKey: string | undefined) {
    const s = setup();
    const first = s.cache.serve(s.upstream.job('k', fallbackKey));
    s.upstream.answer({ rows: [ok('good', fallbackKey)] });
    await first;
    s.clock.advance(600); // past the stale window: the next request must fetch
    return s;
  }

  it('an error row with a stable key becomes its last good row, marked fallback with the old age', async () => {
    const { cache, upstream, clock } = await primed('token:1');
    const served = cache.serve(upstream.job('k', 'token:1'));
    upstream.answer({ rows: [failed('boom', 'token:1')] });
    expect(await served).toMatchObject({
      rows: [{ value: 'good' }],
      state: 'fallback',
      fetchedAt: clock.ms - 600_000,
    });
    // A fallback is never cached as fresh: the next request fetches again.
    const again = cache.serve(upstream.job('k', 'token:1'));
    expect(upstream.fetches).toBe(3);
    upstream.answer({ rows: [ok('new', 'token:1')] });
    expect(await again).toMatchObject({ rows: [{ value: 'new' }], state: 'miss' });
  });

  it('timeout rows fall back the same way', async () => {
    const { cache, upstream } = await primed('token:1');
    expect(await cache.serve(upstream.job('k', 'token:1'), 0)).toMatchObject({
      rows: [{ value: 'good' }],
      state: 'fallback',
    });
  });

  it('an error row without a stable key passes through as it is', async () => {
    const { cache, upstream } = await primed(undefined);
    const served = cache.serve(upstream.job('k'));
    upstream.answer({ rows: [failed('boom')] });
    expect(await served).toMatchObject({ rows: [{ value: 'boom', error: true }], state: 'miss' });
  });

  it('another account’s last good row is never used', async () => {
    const { cache, upstream } = await primed('token:1');
    const served = cache.serve(upstream.job('k', 'token:2'));
    upstream.answer({ rows: [failed('boom', 'token:2')] });
    expect(await served).toMatchObject({ rows: [{ value: 'boom' }] });
  });

  it('keeps at most maxLastGood keys, dropping the least recently stored', async () => {
    const clock = new Clock();
    const cache = new ResponseCache<Row>({
      refreshIntervalMs: 1000,
      staleWindowMs: 1000,
      maxLastGood: 2,
      now: clock.now,
    });
    const upstream = new Upstream();
    for (const account of ['a', 'b', 'c']) {
      const served = cache.serve(upstream.job(account, account));
      upstream.answer({ rows: [ok(account, account)] });
      await served;
    }
    clock.advance(2);
    const results: string[] = [];
    for (const account of ['a', 'c']) {
      const served = cache.serve(upstream.job(account, account));
      upstream.answer({ rows: [failed('boom', account)] });
      results.push((await served).rows[0]!.value);
    }
    expect(results).toEqual(['boom', 'c']);
  });
});

describe('cooldown', () => {
  it('after a cooldown outcome, background refreshes pause but a request with nothing to serve still fetches', async () => {
    const { cache, upstream, clock } = setup(60, 600);
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    await first;
    clock.advance(61);
    expect(await cache.serve(upstream.job())).toMatchObject({ state: 'refreshing' });
    upstream.answer({ rows: [failed('403')], cooldown: true });
    await flush();
    // Stale rows are served with no new refresh while the cooldown holds.
    expect(await cache.serve(upstream.job())).toMatchObject({ rows: [{ value: 'v1' }], state: 'stale' });
    expect(upstream.fetches).toBe(2);
    // Past the stale window the request has nothing to serve: it tries (explicit).
    clock.advance(600);
    const explicit = cache.serve(upstream.job());
    expect(upstream.fetches).toBe(3);
    upstream.answer({ rows: [ok('v2')] });
    expect(await explicit).toMatchObject({ rows: [{ value: 'v2' }] });
  });

  it('the cooldown ends after six hours', async () => {
    const clock = new Clock();
    const cache = new ResponseCache<Row>({
      refreshIntervalMs: 60_000,
      staleWindowMs: 7 * 3600_000,
      now: clock.now,
    });
    const upstream = new Upstream();
    const first = cache.serve(upstream.job());
    upstream.answer({ rows: [ok('v1')] });
    await first;
    clock.advance(61);
    await cache.serve(upstream.job());
    upstream.answer({ rows: [failed('403')], cooldown: true });
    await flush();
    clock.advance(6 * 3600 - 10);
    await cache.serve(upstream.job());
    expect(upstream.fetches).toBe(2);
    clock.advance(20);
    expect(await cache.serve(upstream.job())).toMatchObject({ state: 'stale' });
    expect(upstream.fetches).toBe(3);
    upstream.answer({ rows: [ok('v2')] });
  });
});
