/**
 * The event store end to end (docs/invariants.md, "When a stored range may be trusted"): repeated
 * `codexbar cost` runs against one fake cursor.com, counting the requests in its log, with the store's
 * SQLite files real.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { generateEvents, type UsageEventJson } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE, onlyRow } from '../helpers/cost-cli.js';
import { newestFirst, type StoreHarness, type StoreRun, storeHarness } from '../helpers/store-cli.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const DAY = 86_400_000;
const SETTLED = NOW.getTime() - 2 * DAY;
/** `--days 90` at NOW in UTC starts at local midnight 89 days earlier. */
const WINDOW_90 = Date.parse('2026-09-02T00:00:00Z');
const WINDOW_30 = Date.parse('2026-11-01T00:00:00Z');
const STORE_FILE = `${accountKey({ userId: 'user_cost' })}.sqlite`;

const recentEvents = (events: UsageEventJson[]) =>
  events.filter((e) => Number(e.timestamp) >= SETTLED).length;
const costOf = (stdout: string) => onlyRow({ code: 0, stdout, stderr: '' }).apiRateCostUSD as number;
const requestsOf = (stdout: string) =>
  (onlyRow({ code: 0, stdout, stderr: '' }).byModel as { requests: number }[]).reduce(
    (n, m) => n + m.requests,
    0,
  );
/**
 * Where the first charge above a cent sits in a chunk of format 1 (src/cost/store/chunk-codec.ts): past the
 * header, the timestamps, three label sections and the flags, the sixth numeric section. Little-endian.
 */
function chargedCentsOffset(blob: Buffer): number {
  const count = blob.readUInt32LE(4);
  const aligned = (n: number) => Math.ceil(n / 8) * 8;
  const numbers = (at: number) => ({ at: at + 8, width: blob.readUInt32LE(at) === 1 ? 4 : 8 });
  let at = 16;
  at = numbers(at).at + aligned(count * numbers(at).width) + 3 * aligned(count * 4) + aligned(count);
  for (let section = 0; section < 5; section++) at = numbers(at).at + aligned(count * numbers(at).width);
  expect(numbers(at).width).toBe(8);
  for (let i = 0; i < count; i++) if (blob.readDoubleLE(at + 8 + 8 * i) > 1) return at + 8 + 8 * i;
  throw new Error('no charge above a cent in the chunk');
}

/** A file's digest: comparing a store's SQLite pages byte by byte through expect takes seconds of CPU. */
const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('a warm `cost --days 90` over 7,500 stored events', () => {
  // 6,000 settled events over the window and 1,500 in its last two days: more recent events than a page, so
  // the warm run fetches more than one recent page, and a cold run of eight pages, not ninety.
  const events = newestFirst([
    ...generateEvents({ count: 6000, start: new Date(WINDOW_90), end: new Date(SETTLED - 1000), seed: 90 }),
    ...generateEvents({
      count: 1500,
      start: new Date(SETTLED),
      end: new Date(NOW.getTime() - 1000),
      seed: 91,
    }),
  ]);
  let store: StoreHarness;
  /** The cold run both tests start from: it fills the store (tests may run in any order). */
  let cold: StoreRun;
  beforeAll(async () => {
    store = await storeHarness(events, NOW, [MANUAL_COOKIE_VALUE]);
    cold = await store.cost(['--days', '90', '--json']);
  });
  afterAll(() => store.close());

  it('makes at most 3 + ⌈recent events / 1000⌉ requests and prints byte-identical JSON', async () => {
    expect(cold.code).toBe(0);
    expect(requestsOf(cold.stdout)).toBe(7500);
    expect(cold.eventRequests).toBe(8);

    const warm = await store.cost(['--days', '90', '--json', '--verbose']);
    expect(warm.code).toBe(0);
    const recent = recentEvents(events);
    expect(recent).toBeGreaterThan(1000);
    expect(warm.eventRequests).toBeLessThanOrEqual(3 + Math.ceil(recent / 1000));
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.stderr).toMatch(
      /\[cursor-cost\] From the event store: 2026-09-02T00:00:00Z – 2026-11-28T12:00:00Z, \d+ events \(verified by count and totals\)/,
    );
  });

  it('the store is 0600 in 0700 directories, named by the account key, and far smaller than the JSON', () => {
    const file = path.join(store.storeDir, STORE_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(store.storeDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.dirname(store.storeDir)).mode & 0o777).toBe(0o700);
    for (const name of store.storeFiles())
      expect(fs.statSync(path.join(store.storeDir, name)).mode & 0o777).toBe(0o600);
    // Far smaller than the JSON cursor.com sent (about 340 bytes an event), its 64 KiB pages and all.
    expect(fs.statSync(file).size).toBeLessThan(JSON.stringify(events).length / 2.5);
  });
});

describe('stored ranges are verified before use', () => {
  const base = generateEvents({
    count: 1500,
    start: new Date(WINDOW_30),
    end: new Date(NOW.getTime() - 1000),
    seed: 30,
  });
  const oldDay = Date.parse('2026-11-10T09:30:00Z');
  const extra: UsageEventJson = {
    timestamp: String(oldDay),
    model: 'gpt-5',
    kind: 'USAGE_EVENT_KIND_USAGE_BASED',
    tokenUsage: { inputTokens: 1000, outputTokens: 100, totalCents: 1234.5 },
    chargedCents: 1300,
  };
  let store: StoreHarness;
  beforeAll(async () => {
    store = await storeHarness(base, NOW, [MANUAL_COOKIE_VALUE]);
  });
  afterAll(() => store.close());

  /** What a run that stores nothing and reads nothing prints for the data the fake serves now. */
  const truth = async () => (await store.cost(['--days', '30', '--json', '--no-cache'])).stdout;

  /**
   * Serves `base` and stores it, as each test below starts from: they may run in any order. `--refresh`,
   * because a store an earlier test changed behind an unchanged count would verify, and be right to.
   */
  const storeBase = async () => {
    store.serve(newestFirst(base));
    const run = await store.cost(['--days', '30', '--json', '--refresh']);
    expect(run.code).toBe(0);
    return run;
  };

  it('an event inserted into an old stored day is noticed, the range fetched again, and the total is right', async () => {
    const first = await storeBase();
    store.serve(newestFirst([...base, extra]));
    const after = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(after.stderr).toMatch(
      /holds 1\d{3} events for 2026-11-01T00:00:00Z – 2026-11-28T12:00:00Z, cursor\.com reports 1\d{3}; fetching it again/,
    );
    expect(after.stdout).toBe(await truth());
    expect(costOf(after.stdout) - costOf(first.stdout)).toBeCloseTo(12.345, 6);
    expect(requestsOf(after.stdout)).toBe(requestsOf(first.stdout) + 1);
    // The replaced range is used (verified) on the next run.
    const again = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(again.stderr).toContain('(verified by count and totals)');
    expect(again.stdout).toBe(after.stdout);
  });

  it('an event deleted from an old stored day is noticed too', async () => {
    await storeBase();
    const victim = base.find((e) => Number(e.timestamp) < Date.parse('2026-11-20T00:00:00Z'))!;
    store.serve(newestFirst(base.filter((e) => e !== victim)));
    const after = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(after.stderr).toContain('fetching it again');
    expect(after.stdout).toBe(await truth());
    expect(requestsOf(after.stdout)).toBe(1499);
  });

  it('--no-cache fetches everything and leaves the store alone', async () => {
    await storeBase();
    const file = path.join(store.storeDir, STORE_FILE);
    // Digests: comparing a store's SQLite pages byte by byte through expect takes seconds.
    const digests = () => store.storeFiles().map((name) => digest(path.join(store.storeDir, name)));
    const before = digests();
    const run = await store.cost(['--days', '30', '--json', '--no-cache', '--verbose']);
    expect(run.code).toBe(0);
    // 1500 events: a full page and the short one that ends the window.
    expect(run.eventRequests).toBe(2);
    expect(run.stderr).not.toContain('event store');
    expect(digests()).toEqual(before);
    expect(fs.existsSync(file)).toBe(true);
  });

  /** `base` with every event before 5 November re-rated to $50: the same count, another cost. */
  const reRated = () =>
    newestFirst(base).map((e) =>
      Number(e.timestamp) < Date.parse('2026-11-05T00:00:00Z') && e.tokenUsage
        ? { ...e, tokenUsage: { ...e.tokenUsage, totalCents: 5000 } }
        : e,
    );

  it("events re-rated with their count unchanged are seen by cursor.com's totals: fetched again, the total right", async () => {
    const first = await storeBase();
    store.serve(reRated());
    const after = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(after.stderr).toMatch(
      /The event store holds \$[\d.]+, [\d,]+ tokens for 2026-11-01T00:00:00Z – 2026-11-28T12:00:00Z, cursor\.com reports \$[\d.]+, [\d,]+ tokens; fetching it again/,
    );
    expect(after.stderr).not.toContain('(verified');
    expect(after.stdout).toBe(await truth());
    expect(costOf(after.stdout)).toBeGreaterThan(costOf(first.stdout));
    const next = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(next.stderr).toContain('(verified by count and totals)');
    expect(next.stdout).toBe(after.stdout);
  });

  it('--refresh fetches everything and replaces what the store held', async () => {
    await storeBase();
    store.serve(reRated());
    const refreshed = await store.cost(['--days', '30', '--json', '--refresh', '--verbose']);
    // 1500 events: a full page and the short one that ends the window.
    expect(refreshed.eventRequests).toBe(2);
    expect(refreshed.stderr).not.toContain('From the event store');
    expect(refreshed.stdout).toBe(await truth());
    const next = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(next.stderr).toContain('(verified by count and totals)');
    expect(next.stdout).toBe(refreshed.stdout);
  });

  describe("without cursor.com's totals", () => {
    afterEach(() => {
      delete store.account.aggregated;
    });
    /** Stores `base` at `storedAt`, then makes the totals endpoint answer as for an unsupported window. */
    const storeWithoutTotals = async (storedAt: Date) => {
      store.serve(newestFirst(base));
      expect((await store.cost(['--days', '30', '--json', '--refresh'], { now: storedAt })).code).toBe(0);
      store.account.aggregated = { status: 500, json: { code: 'internal' } };
    };

    it('a range stored less than a day ago is used, and the text and JSON say it was checked by count only', async () => {
      const storedAt = new Date(NOW.getTime() - DAY + 1);
      await storeWithoutTotals(storedAt);
      const json = await store.cost(['--days', '30', '--json', '--verbose']);
      expect(json.stderr).toContain(
        '[cursor-cost] POST /api/dashboard/get-aggregated-usage-events unavailable (HTTP 500); stored ranges are checked by count only',
      );
      expect(json.stderr).toContain('(verified by count only)');
      expect(onlyRow(json).storedRanges).toEqual({ used: 1, checkedByCountOnly: 1 });
      const text = await store.cost(['--days', '30']);
      expect(text.stdout).toContain(
        'Note: 1 stored range was checked by event count only, which cannot see a settled event re-rated in place; --refresh fetches everything again.',
      );
    });

    it('a range stored a day ago or more is fetched again in full, never checked by count alone', async () => {
      await storeWithoutTotals(new Date(NOW.getTime() - DAY));
      const run = await store.cost(['--days', '30', '--json', '--verbose']);
      // The range ends where the settled part of the latest run that stored it did.
      expect(run.stderr).toMatch(
        /2026-11-01T00:00:00Z – 2026-11-2\dT12:00:00Z was stored a day or more from now and can only be checked by count; fetching it again/,
      );
      expect(run.stderr).not.toContain('(verified');
      expect(onlyRow(run).storedRanges).toBeUndefined();
      // The stored range again in full (two pages of its ~1,400 events) and the unsettled part (one).
      expect(run.eventRequests).toBe(3);
      store.account.aggregated = undefined;
      expect(run.stdout).toBe(await truth());
    });
  });

  it('a verification request that fails fails the run as any page would: no stored total is shown', async () => {
    await storeBase();
    const current = newestFirst(base);
    store.account.events = { events: current, faults: [{ page: 1, status: 500 }] };
    const run = await store.cost(['--days', '30']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'Error: Cursor API error: HTTP 500 (POST /api/dashboard/get-filtered-usage-events)',
    );
    store.serve(current);
  });

  it('a count no page cap could reach (10^12) fails as incomplete, with a store in use and nothing stored', async () => {
    await storeBase();
    const current = newestFirst(base);
    store.account.events = { events: current, count: 1e12 };
    const run = await store.cost(['--days', '30', '--refresh']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'Error: Cursor cost refresh was incomplete (received 1500 of 1000000000000 events).',
    );
    store.serve(current);
    const next = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(next.stderr).toContain('(verified by count and totals)');
    expect(next.stdout).toBe(await truth());
  });

  it('--no-cache and --refresh together are an argument error', async () => {
    const run = await store.cost(['--no-cache', '--refresh']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("option '--no-cache' cannot be used with option '--refresh'");
  });
});

describe('a stored range checked against a full page 1 that carries no count', () => {
  // Exactly one full page of settled events: the one case where the page's own length could pass for a count.
  const settled = newestFirst(
    generateEvents({ count: 1000, start: new Date(WINDOW_30), end: new Date(SETTLED - 1000), seed: 33 }),
  );
  let store: StoreHarness;
  beforeAll(async () => {
    store = await storeHarness(settled, NOW, [MANUAL_COOKIE_VALUE]);
  });
  afterAll(() => store.close());

  it('is fetched again, never trusted: the same total, not "(verified)"', async () => {
    const cold = await store.cost(['--days', '30', '--json']);
    expect(cold.code).toBe(0);
    store.account.events = { events: settled, count: null };
    const warm = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stderr).toMatch(
      /The event store holds 1000 events for .*, cursor\.com gave no count; fetching it again/,
    );
    expect(warm.stderr).not.toContain('(verified');
    expect(warm.stdout).toBe(cold.stdout);
  });
});

describe('the store under concurrency, damage and other accounts', () => {
  const events = generateEvents({
    count: 2500,
    start: new Date(WINDOW_30),
    end: new Date(NOW.getTime() - 1000),
    seed: 31,
  });
  let store: StoreHarness;
  beforeAll(async () => {
    store = await storeHarness(events, NOW, [MANUAL_COOKIE_VALUE, 'user_other%3A%3Asession']);
  });
  afterAll(() => store.close());

  it('two concurrent runs both succeed, and the store they leave is verified and used', async () => {
    const [a, b] = await Promise.all([
      store.cost(['--days', '30', '--json']),
      store.cost(['--days', '30', '--json', '--concurrency', '1']),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(b.stdout).toBe(a.stdout);
    const warm = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(warm.stderr).toContain('(verified by count and totals)');
    expect(warm.stdout).toBe(a.stdout);
  });

  it('a corrupt store file is set aside and replaced, and the run is right', async () => {
    const file = path.join(store.storeDir, STORE_FILE);
    const good = (await store.cost(['--days', '30', '--json'])).stdout;
    fs.writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const run = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(good);
    expect(run.stderr).toMatch(
      /The event store ~\/\.cache\/codexbar\/cost\/[0-9a-f]{32}\.sqlite could not be used \(SQLITE_NOTADB/,
    );
    expect(run.eventRequests).toBe(3);
    expect(store.storeFiles()).toContain(`${STORE_FILE}.unusable`);
    const next = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(next.stderr).toContain('(verified by count and totals)');
    expect(next.stdout).toBe(good);
  });

  it('one flipped bit in a stored chunk fails its checksum: the store is set aside and the run is right', async () => {
    const file = path.join(store.storeDir, STORE_FILE);
    const good = (await store.cost(['--days', '30', '--json', '--refresh'])).stdout;
    const db = new Database(file);
    try {
      const chunk = db
        .prepare<[], { id: number; data: Buffer }>('SELECT id, data FROM chunks LIMIT 1')
        .get()!;
      // The lowest exponent bit of a charge doubles or halves it: the metered total changes, which neither
      // the count nor cursor.com's totals would see.
      chunk.data[chargedCentsOffset(chunk.data) + 6]! ^= 0x10;
      db.prepare('UPDATE chunks SET data = ? WHERE id = ?').run(chunk.data, chunk.id);
    } finally {
      db.close();
    }
    const run = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /The event store ~\/\.cache\/codexbar\/cost\/[0-9a-f]{32}\.sqlite could not be used \(a chunk does not match its checksum\); moved it to [0-9a-f]{32}\.sqlite\.unusable and started a new one/,
    );
    expect(run.stderr).not.toContain('(verified');
    expect(run.stdout).toBe(good);
    const next = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(next.stderr).toContain('(verified by count and totals)');
    expect(next.stdout).toBe(good);
  });

  it('a store of another account is never read, even under this account’s file name', async () => {
    const other = 'WorkosCursorSessionToken=user_other%3A%3Asession';
    await store.cost(['--days', '30', '--json'], { cookie: other });
    const otherFile = path.join(store.storeDir, `${accountKey({ userId: 'user_other' })}.sqlite`);
    const mine = path.join(store.storeDir, STORE_FILE);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${mine}${suffix}`, { force: true });
    fs.copyFileSync(otherFile, mine);
    fs.chmodSync(mine, 0o600);
    const run = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('could not be used (it belongs to another account)');
    expect(run.stderr).not.toContain('From the event store');
  });

  it('a symlink where the store should be is never followed', async () => {
    // The store directory and a store in it, whichever tests ran before.
    expect((await store.cost(['--days', '30', '--json'])).code).toBe(0);
    const mine = path.join(store.storeDir, STORE_FILE);
    const target = path.join(store.home, 'elsewhere.sqlite');
    fs.writeFileSync(target, 'not yours');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${mine}${suffix}`, { force: true });
    fs.symlinkSync(target, mine);
    const run = await store.cost(['--days', '30', '--json', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('could not be used (it is a symbolic link)');
    expect(fs.readFileSync(target, 'utf8')).toBe('not yours');
    expect(fs.lstatSync(mine).isSymbolicLink()).toBe(false);
  });
});
