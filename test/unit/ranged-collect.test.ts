/**
 * `collectRanges` (src/cost/store/ranged-collect.ts) against a real event store in a temp directory and an
 * in-process events source that answers as the dashboard's page shape does (docs/invariants.md, "When a
 * stored range may be trusted"): what is fetched, what is stored, what a stored range must pass to be
 * used, and what happens when the store cannot be read, written or replaced. The end-to-end runs over
 * cursor.com's and the Admin API's fake servers are test/integration/{cost,team-cost}-store.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RangeTotals } from '../../src/api/schemas/aggregated-usage.js';
import { type EventRows, eventRowsPageSchema } from '../../src/cost/events/rows.js';
import { PAGE_SIZE, type PageProgress } from '../../src/cost/pager.js';
import { type EventStore, openEventStore } from '../../src/cost/store/event-store.js';
import type { TimeSpan } from '../../src/cost/store/plan.js';
import {
  type CollectRangesOptions,
  collectRanges,
  type EventsSource,
  type PieceIndex,
} from '../../src/cost/store/ranged-collect.js';

const DAY = 86_400_000;
const RUN_AT = Date.parse('2026-11-30T00:00:00Z');
/** 48 hours before the run: older events are settled and may be stored. */
const SETTLED = RUN_AT - 2 * DAY;
const WINDOW = { start: RUN_AT - 10 * DAY, end: RUN_AT };
const KEY = 'c'.repeat(32);

interface RawEvent {
  timestamp?: string;
  model: string;
  tokenUsage: { inputTokens: number; totalCents: number };
  chargedCents: number;
}

const rawEvent = (at: number | undefined, cents = 1): RawEvent => ({
  ...(at === undefined ? {} : { timestamp: String(at) }),
  model: 'gpt-5',
  tokenUsage: { inputTokens: 10, totalCents: cents },
  chargedCents: cents,
});

/** `count` events evenly over `span`, one every `(end - start) / count` ms from `start`. */
function spread(span: TimeSpan, count: number): RawEvent[] {
  const step = (span.end - span.start) / count;
  return Array.from({ length: count }, (_, i) => rawEvent(Math.floor(span.start + i * step)));
}

/** `2026-11-20T00:00:00Z – 2026-11-28T00:00:00Z`, as `--verbose` names a span. */
const spanText = (span: TimeSpan) =>
  `${new Date(span.start).toISOString().replace('.000', '')} – ${new Date(span.end).toISOString().replace('.000', '')}`;

/**
 * The events endpoint: the events of the asked span newest first, a page of PAGE_SIZE at a time, with
 * their count unless `counts` says not; `strays` are answered for every span as a server that ignores the
 * span for them would. Its totals are the sums of the same events, or none (`totals: 'none'`: a source
 * without them; `'unavailable'`: one whose totals fail).
 */
class FakeSource {
  events: RawEvent[] = [];
  strays: RawEvent[] = [];
  counts: (span: TimeSpan) => boolean = () => true;
  totals: 'exact' | 'none' | 'unavailable' = 'exact';
  readonly pages: { span: TimeSpan; page: number; signal: AbortSignal | undefined }[] = [];
  readonly totalsAsked: TimeSpan[] = [];

  answered(span: TimeSpan): RawEvent[] {
    const inSpan = this.events.filter((e) => {
      const t = Number(e.timestamp);
      return t >= span.start && t < span.end;
    });
    return [...inSpan, ...this.strays].sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
  }

  source(extra: Partial<EventsSource> = {}): EventsSource {
    const source: EventsSource = {
      tag: '[cursor-cost]',
      server: 'cursor.com',
      fetchPage: async (span, page, signal) => {
        this.pages.push({ span: { start: span.start, end: span.end }, page, signal });
        const all = this.answered(span);
        const body: Record<string, unknown> = {
          usageEventsDisplay: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
        };
        if (this.counts(span)) body.totalUsageEventsCount = all.length;
        return eventRowsPageSchema.parse(body);
      },
      ...extra,
    };
    if (this.totals !== 'none') {
      source.fetchTotals = async (span): Promise<RangeTotals | undefined> => {
        this.totalsAsked.push(span);
        if (this.totals === 'unavailable') return undefined;
        const events = this.answered(span);
        const sum = (of: (e: RawEvent) => number) => events.reduce((total, e) => total + of(e), 0);
        return {
          inputTokens: sum((e) => e.tokenUsage.inputTokens),
          outputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          totalCents: sum((e) => e.tokenUsage.totalCents),
        };
      };
    }
    return source;
  }
}

let dir: string;
let file: string;
let store: EventStore;
let notes: string[];

async function openStore(): Promise<EventStore> {
  return openEventStore({
    file,
    key: KEY,
    owner: 'account',
    tag: '[cursor-cost]',
    note: (line) => notes.push(line),
    shown: 'the store',
  });
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-ranged-'));
  file = path.join(dir, `${KEY}.sqlite`);
  notes = [];
  store = await openStore();
});

afterEach(() => {
  try {
    store.close();
  } catch {
    // already closed by the test
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  reported: number | null;
  stored?: { used: number; countOnly: number };
  /** `--verbose` lines. */
  log: string[];
  /** The timestamps of every event handed on, in order. */
  added: number[];
}

async function collect(
  fake: FakeSource,
  options: {
    window?: TimeSpan;
    source?: Partial<EventsSource>;
    noStore?: boolean;
    refresh?: boolean;
    signal?: AbortSignal;
    onProgress?: CollectRangesOptions['onProgress'];
  } = {},
): Promise<Run> {
  const log: string[] = [];
  const added: number[] = [];
  const result = await collectRanges({
    window: options.window ?? WINDOW,
    source: fake.source(options.source),
    store: options.noStore
      ? undefined
      : { store, refresh: options.refresh ?? false, log: (l) => log.push(l) },
    addRows: (rows: EventRows, from, to) => {
      for (let i = from; i < to; i++) added.push(rows.timestamp[i]!);
    },
    runAt: RUN_AT,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  return { ...result, log, added };
}

const timestampsOf = (events: RawEvent[]) => events.map((e) => Number(e.timestamp)).sort((a, b) => a - b);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** Every chunk of the store file fails its checksum (SQLite opened beside the store, as another process). */
function damageChunks(): void {
  const db = new Database(file);
  try {
    expect(db.prepare('UPDATE chunks SET checksum = checksum + 1').run().changes).toBeGreaterThan(0);
  } finally {
    db.close();
  }
}

describe('a cold run', () => {
  it("fetches the window once, stores its settled part, and reports the server's count and no stored ranges", async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 50);
    const run = await collect(fake);
    expect(run.reported).toBe(50);
    expect(run).not.toHaveProperty('stored');
    expect(run.log).toEqual([
      `[cursor-cost] Fetching ${spanText(WINDOW)}`,
      `[cursor-cost] Stored ${spanText({ start: WINDOW.start, end: SETTLED })} for the next run`,
    ]);
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    expect(store.ranges()).toEqual([{ start: WINDOW.start, end: SETTLED, count: 40, fetchedAt: RUN_AT }]);
  });

  it('without a store: every event is handed on, nothing is kept and nothing is logged', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 20);
    const run = await collect(fake, { noStore: true });
    expect(run.reported).toBe(20);
    expect(run.stored).toBeUndefined();
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    expect(run.log).toEqual([]);
    expect(store.ranges()).toEqual([]);
    expect(fake.totalsAsked).toEqual([]);
  });

  it('a window wholly recent is fetched and nothing is stored', async () => {
    const fake = new FakeSource();
    const recent = { start: SETTLED, end: RUN_AT };
    fake.events = spread(recent, 5);
    const run = await collect(fake, { window: recent });
    expect(run.reported).toBe(5);
    expect(run.log).toEqual([`[cursor-cost] Fetching ${spanText(recent)}`]);
    expect(store.ranges()).toEqual([]);
  });
});

describe('pieces of at most maxSpanMs', () => {
  it('a window of exactly two pieces is asked for in two, each with its own progress', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 10);
    const progress: [PageProgress, PieceIndex][] = [];
    const run = await collect(fake, {
      noStore: true,
      source: { maxSpanMs: 5 * DAY },
      onProgress: (p, piece) => progress.push([p, piece]),
    });
    const middle = WINDOW.start + 5 * DAY;
    expect(fake.pages.map((p) => [p.span, p.page])).toEqual([
      [{ start: WINDOW.start, end: middle }, 1],
      [{ start: middle, end: WINDOW.end }, 1],
    ]);
    expect(progress.map(([p, piece]) => [p.page, p.expected, piece])).toEqual([
      [1, 5, { piece: 1, pieces: 2 }],
      [1, 5, { piece: 2, pieces: 2 }],
    ]);
    expect(run.reported).toBe(10);
  });

  it('a window 1 ms longer than one piece is asked for in two, the second 1 ms long', async () => {
    const fake = new FakeSource();
    const window = { start: WINDOW.start, end: WINDOW.start + DAY + 1 };
    await collect(fake, { noStore: true, window, source: { maxSpanMs: DAY } });
    expect(fake.pages.map((p) => p.span)).toEqual([
      { start: window.start, end: window.start + DAY },
      { start: window.start + DAY, end: window.end },
    ]);
  });

  it('the count is null when any piece comes without one, whichever comes first', async () => {
    for (const countless of [0, 1]) {
      const fake = new FakeSource();
      fake.events = spread(WINDOW, 10);
      const middle = WINDOW.start + 5 * DAY;
      fake.counts = (span) => (span.start === middle ? countless === 1 : countless === 0);
      const run = await collect(fake, { noStore: true, source: { maxSpanMs: 5 * DAY } });
      expect(run.reported).toBeNull();
      expect(run.added).toHaveLength(10);
    }
  });
});

describe('what a fetched span must prove to be stored', () => {
  const settledWindow = { start: WINDOW.start, end: SETTLED };

  it.each([
    ['no count, 999 events on one short page', false, PAGE_SIZE - 1, true],
    ['no count, 1000 events: a full page, then an empty one', false, PAGE_SIZE, false],
    ['a count of 1000, a full page and an empty one', true, PAGE_SIZE, true],
  ])('%s: stored %s', async (_, counts, events, stored) => {
    const fake = new FakeSource();
    fake.events = spread(settledWindow, events);
    fake.counts = () => counts;
    const run = await collect(fake, { window: settledWindow });
    expect(run.added).toHaveLength(events);
    const notStoring = `[cursor-cost] Not storing ${spanText(settledWindow)}: cursor.com's answer did not prove it complete`;
    if (stored) {
      expect(store.ranges()).toEqual([{ ...settledWindow, count: events, fetchedAt: RUN_AT }]);
      expect(run.log).not.toContain(notStoring);
    } else {
      expect(store.ranges()).toEqual([]);
      expect(run.log).toContain(notStoring);
    }
  });

  it.each([
    ['1 ms before the span asked for', WINDOW.start - 1, false],
    ['at the end of the span asked for', WINDOW.end, false],
    ['without a timestamp', undefined, false],
    ['at the start of the span asked for', WINDOW.start, true],
    ['1 ms before its end', WINDOW.end - 1, true],
  ])('an event %s: the span stored %s', async (_, at, stored) => {
    const fake = new FakeSource();
    fake.events = spread({ start: WINDOW.start + 1, end: WINDOW.end - 1 }, 20);
    fake.strays = [rawEvent(at)];
    const run = await collect(fake);
    expect(run.added).toHaveLength(21);
    const notStoring = `[cursor-cost] Not storing ${spanText({ start: WINDOW.start, end: SETTLED })}: cursor.com's answer did not prove it complete`;
    if (stored) {
      expect(run.log).not.toContain(notStoring);
      expect(store.ranges()).toHaveLength(1);
    } else {
      expect(run.log).toContain(notStoring);
      expect(store.ranges()).toEqual([]);
    }
  });
});

describe('a warm run verifies each stored piece before using it', () => {
  it("with the count and the totals: the stored events are used, and the count is the server's", async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 50);
    await collect(fake);
    fake.pages.length = 0;
    const abort = new AbortController();
    const run = await collect(fake, { signal: abort.signal });
    expect(run.reported).toBe(50);
    expect(run.stored).toEqual({ used: 1, countOnly: 0 });
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    const storedSpan = { start: WINDOW.start, end: SETTLED };
    expect(run.log).toContain(
      `[cursor-cost] From the event store: ${spanText(storedSpan)}, 40 events (verified by count and totals)`,
    );
    // The check of the stored span is the run's own request: it is cancelled with the run.
    const check = fake.pages.find((p) => p.span.start === storedSpan.start && p.span.end === storedSpan.end);
    expect(check?.signal).toBe(abort.signal);
  });

  it('without counts: a short page 1 counts itself, and the stored events are used', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 50);
    fake.counts = () => false;
    await collect(fake);
    expect(store.ranges()).toHaveLength(1);
    const run = await collect(fake);
    expect(run.stored).toEqual({ used: 1, countOnly: 0 });
    expect(run.reported).toBeNull();
    expect(run.added).toHaveLength(50);
    expect(run.log.some((line) => line.includes('(verified by count and totals)'))).toBe(true);
  });

  describe('a stored range in two pieces', () => {
    const source = { maxSpanMs: 4 * DAY };
    const pieces = [
      { start: WINDOW.start, end: WINDOW.start + 4 * DAY },
      { start: WINDOW.start + 4 * DAY, end: SETTLED },
    ];

    async function warm(fake: FakeSource): Promise<Run> {
      fake.events = spread(WINDOW, 50);
      await collect(fake, { source });
      expect(store.ranges()).toEqual([{ start: WINDOW.start, end: SETTLED, count: 40, fetchedAt: RUN_AT }]);
      fake.totalsAsked.length = 0;
      return collect(fake, { source });
    }

    it('asks for the totals of each piece, and verifies both by them', async () => {
      const fake = new FakeSource();
      const run = await warm(fake);
      expect(fake.totalsAsked).toEqual(pieces);
      expect(run.stored).toEqual({ used: 2, countOnly: 0 });
      expect(run.reported).toBe(50);
    });

    it('totals that fail once are not asked for again that run: both pieces are checked by count only', async () => {
      const fake = new FakeSource();
      fake.totals = 'unavailable';
      const run = await warm(fake);
      expect(fake.totalsAsked).toEqual([pieces[0]]);
      expect(run.stored).toEqual({ used: 2, countOnly: 2 });
      expect(run.log.filter((line) => line.endsWith('(verified by count only)'))).toHaveLength(2);
    });
  });
});

describe('a store that fails', () => {
  it('cannot be read: everything is fetched, and the write that fails too is logged once', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 30);
    store.close();
    const run = await collect(fake);
    expect(run.reported).toBe(30);
    expect(run.stored).toBeUndefined();
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    expect(run.log).toEqual([
      '[cursor-cost] The event store could not be read (The database connection is not open); fetching everything',
      `[cursor-cost] Fetching ${spanText(WINDOW)}`,
      '[cursor-cost] The event store could not be written (The database connection is not open); nothing was stored',
    ]);
  });

  it('holds a damaged chunk: it is set aside, the span fetched, and the next store holds it', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 30);
    await collect(fake);
    damageChunks();
    const storedSpan = { start: WINDOW.start, end: SETTLED };
    const run = await collect(fake);
    expect(run.stored).toBeUndefined();
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    expect(run.log).toEqual([
      `[cursor-cost] The event store could not be read (a chunk does not match its checksum); fetching ${spanText(storedSpan)}`,
      `[cursor-cost] Fetching ${spanText(storedSpan)}`,
      `[cursor-cost] Fetching ${spanText({ start: SETTLED, end: WINDOW.end })}`,
      `[cursor-cost] Stored ${spanText(storedSpan)} for the next run`,
    ]);
    expect(notes).toEqual([
      `[cursor-cost] The event store the store could not be used (a chunk does not match its checksum); moved it to ${KEY}.sqlite.unusable and started a new one`,
    ]);
    expect(store.ranges()).toEqual([{ ...storedSpan, count: 24, fetchedAt: RUN_AT }]);
  });

  it('holds a damaged chunk and cannot be set aside: the run is right, and no store is used', async () => {
    const fake = new FakeSource();
    fake.events = spread(WINDOW, 30);
    await collect(fake);
    damageChunks();
    // A directory where the set-aside store would go: the rename fails.
    fs.mkdirSync(`${file}.unusable`);
    fs.writeFileSync(path.join(`${file}.unusable`, 'keep'), '');
    const run = await collect(fake);
    expect(run.reported).toBe(30);
    expect(sorted(run.added)).toEqual(timestampsOf(fake.events));
    expect(run.log[1]).toMatch(
      /^\[cursor-cost\] The event store could not be replaced \((EISDIR|ENOTEMPTY|EEXIST)\b.*\); none is used$/,
    );
    expect(run.log.at(-1)).toBe(
      '[cursor-cost] The event store could not be written (The database connection is not open); nothing was stored',
    );
    expect(run.log.filter((line) => line.includes('could not be written'))).toHaveLength(1);
  });

  it('meets a damaged chunk while writing and cannot be set aside: the write is not tried again', async () => {
    const fake = new FakeSource();
    const earlier = { start: WINDOW.start - 5 * DAY, end: WINDOW.end };
    fake.events = spread(earlier, 45);
    await collect(fake, { window: earlier });
    damageChunks();
    fs.mkdirSync(`${file}.unusable`);
    fs.writeFileSync(path.join(`${file}.unusable`, 'keep'), '');
    const run = await collect(fake, { refresh: true });
    expect(run.added).toHaveLength(30);
    expect(run.log).toHaveLength(3);
    expect(run.log[1]).toBe(
      '[cursor-cost] The event store could not be written (a chunk does not match its checksum); nothing was stored',
    );
    expect(run.log[2]).toMatch(
      /^\[cursor-cost\] The event store could not be replaced \(.+\); none is used$/,
    );
  });

  it('meets a damaged chunk while writing (--refresh reads nothing): set aside, and the write goes to the new store', async () => {
    const fake = new FakeSource();
    const earlier = { start: WINDOW.start - 5 * DAY, end: WINDOW.end };
    fake.events = spread(earlier, 45);
    await collect(fake, { window: earlier });
    expect(store.ranges()).toEqual([{ start: earlier.start, end: SETTLED, count: 39, fetchedAt: RUN_AT }]);
    damageChunks();
    // The refreshed span cuts the stored chunk, which must be decoded to keep what lies before it.
    const run = await collect(fake, { refresh: true });
    const written = { start: WINDOW.start, end: SETTLED };
    expect(run.log).toEqual([
      `[cursor-cost] Fetching ${spanText(WINDOW)}`,
      '[cursor-cost] The event store could not be written (a chunk does not match its checksum); nothing was stored',
      `[cursor-cost] Stored ${spanText(written)} for the next run`,
    ]);
    expect(notes).toHaveLength(1);
    expect(store.ranges()).toEqual([{ ...written, count: 24, fetchedAt: RUN_AT }]);
  });
});
