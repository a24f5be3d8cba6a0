/**
 * The event store's pieces (docs/invariants.md, "When a stored range may be trusted"): the plan, the chunk
 * format, and the SQLite store with real files in a temp directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminEventsPageSchema } from '../../src/api/admin/schemas/usage-events.js';
import { type DecodedUsageEvent, eventsPageSchema } from '../../src/api/schemas/events.js';
import { EventRows } from '../../src/cost/events/rows.js';
import { ChunkFormatError, decodeChunk, encodeChunk, type Labels } from '../../src/cost/store/chunk-codec.js';
import {
  type EventStore,
  MAX_MERGED_RANGE_EVENTS,
  openEventStore,
} from '../../src/cost/store/event-store.js';
import { KeptEvents } from '../../src/cost/store/kept-events.js';
import { planWindow, settledPart } from '../../src/cost/store/plan.js';
import { clearCostStores, costStorePath } from '../../src/cost/store/store-files.js';
import type { LocalEnvironment } from '../../src/local/environment.js';

const KEY = 'a'.repeat(32);
const OTHER_KEY = 'b'.repeat(32);

function memoryLabels(): Labels {
  const texts: string[] = [];
  return {
    idOf: (text) => (texts.includes(text) ? texts.indexOf(text) : texts.push(text) - 1),
    textOf: (id) => texts[id]!,
  };
}

/** Events as the schema decodes them. */
function decoded(raw: Record<string, unknown>[]): DecodedUsageEvent[] {
  return eventsPageSchema.parse({ usageEventsDisplay: raw }).usageEventsDisplay;
}

/**
 * An event as the store gives it back: every field aggregation reads, the token fee and the member's email
 * (a team's store), and nothing else.
 */
function kept(event: DecodedUsageEvent): DecodedUsageEvent {
  const back: DecodedUsageEvent = {
    timestamp: event.timestamp,
    model: event.model,
    kind: event.kind,
    requestsCosts: undefined,
    usageBasedCosts: undefined,
    isTokenBasedCall: undefined,
    owningUser: event.owningUser,
    owningTeam: undefined,
    cursorTokenFee: event.cursorTokenFee,
    isChargeable: undefined,
    isHeadless: undefined,
    chargedCents: event.chargedCents,
    tokenUsage: event.tokenUsage,
  };
  if (event.userEmail !== undefined) back.userEmail = event.userEmail;
  return back;
}

/** Events as a run keeps them for the store. */
function columnsOf(events: readonly DecodedUsageEvent[]): KeptEvents {
  const rows = EventRows.fromEvents(events);
  const kept = new KeptEvents();
  kept.appendRange(rows, 0, rows.length);
  return kept;
}

const all = (columns: EventRows) => Array.from({ length: columns.length }, (_, i) => columns.get(i));

/** The chunk's first u32, in the machine's byte order as the format is. */
const chunkVersion = (blob: Buffer) =>
  os.endianness() === 'LE' ? blob.readUInt32LE(0) : blob.readUInt32BE(0);

const EDGE_EVENTS = decoded([
  {
    timestamp: '1781519582153',
    model: 'gpt-5',
    kind: 'USAGE_EVENT_KIND_USAGE_BASED',
    owningUser: 184467,
    // The store keeps a token fee (a team's events need it)...
    cursorTokenFee: 0.5,
    // ...and drops the fields aggregation does not read.
    owningTeam: 9,
    requestsCosts: 2,
    usageBasedCosts: '$0.07',
    isChargeable: true,
    isHeadless: false,
    chargedCents: 6.75,
    tokenUsage: {
      inputTokens: 1532,
      outputTokens: 812,
      cacheWriteTokens: 10455,
      cacheReadTokens: 48210,
      totalCents: 6.31,
    },
  },
  { timestamp: '1781519582154', tokenUsage: { inputTokens: -5, totalCents: -0 } },
  {
    timestamp: '1781519582155',
    model: '',
    kind: '',
    tokenUsage: { inputTokens: 2 ** 52, cacheReadTokens: '1e15', totalCents: 'NaN' },
  },
  { timestamp: '1781519582156', isTokenBasedCall: false, chargedCents: 0 },
  {
    timestamp: '1781519582157',
    model: 'ünïcødé',
    tokenUsage: { outputTokens: 1, totalCents: 1e-300 },
    chargedCents: 1.7976931348623157e308,
  },
]);

/** Admin API events as its schema decodes them. */
const ADMIN_EVENTS: DecodedUsageEvent[] = adminEventsPageSchema.parse({
  totalUsageEventsCount: 4,
  usageEvents: [
    {
      timestamp: '1781519582153',
      userEmail: 'ana@example.test',
      model: 'gpt-5',
      kind: 'Usage-based',
      tokenUsage: { inputTokens: 10, totalCents: 1.5 },
      chargedCents: 2.25,
      cursorTokenFee: 0.75,
    },
    { timestamp: '1781519582154', userEmail: 'bö@example.test', cursorTokenFee: 1e-300 },
    { timestamp: '1781519582155', model: 'default', cursorTokenFee: -0 },
    { timestamp: '1781519582156', userEmail: 'ana@example.test', kind: 'Included in Business' },
  ],
}).usageEventsDisplay;

describe('the events a run keeps for the store', () => {
  const at = (stamps: number[]) =>
    columnsOf(decoded(stamps.map((t, i) => ({ timestamp: String(t), model: `m${i % 2}` }))));

  it.each([
    ['oldest first', [1000, 2000, 2000, 3000]],
    ['newest first, as cursor.com sends them', [4000, 3000, 2000, 1000]],
    ['newest first with a tie', [4000, 3000, 3000, 1000]],
    [
      'newest first with ties at both ends and a run of three',
      [4000, 4000, 3000, 3000, 3000, 2000, 1000, 1000],
    ],
    ['in no order', [3000, 1000, 4000, 1000, 2000]],
  ])('come out in time order (ties in the order they came) from %s', (_label, stamps) => {
    const kept = at(stamps);
    const rows = kept.rowsInTimeOrder(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    const expected = stamps.map((t, i) => [t, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(rows).toEqual(expected.map(([, i]) => i));
  });

  it('inside a span, or outside it', () => {
    const kept = at([4000, 3000, 2000, 1000]);
    expect(kept.rowsInTimeOrder(2000, 4000)).toEqual([2, 1]);
    expect(kept.rowsInTimeOrder(2000, 4000, true)).toEqual([3, 0]);
  });
});

describe('the chunk format keeps every field aggregation reads, exactly', () => {
  it('edge values survive a round trip: -0, 2^52, absent and invalid costs, empty and non-ASCII text', () => {
    const labels = memoryLabels();
    const columns = columnsOf(EDGE_EVENTS);
    const blob = encodeChunk(columns, [0, 1, 2, 3, 4], labels);
    const back = new EventRows();
    expect(decodeChunk(blob, labels, back)).toBe(5);
    expect(all(back)).toStrictEqual(EDGE_EVENTS.map(kept));
    expect(Object.is(back.get(1).tokenUsage?.totalCents, -0)).toBe(true);
  });

  it('decoding keeps only the events of the asked range', () => {
    const labels = memoryLabels();
    const back = new EventRows();
    decodeChunk(
      encodeChunk(columnsOf(EDGE_EVENTS), [0, 1, 2, 3, 4], labels),
      labels,
      back,
      1781519582154,
      1781519582156,
    );
    expect(all(back).map((e) => e.timestamp)).toEqual([1781519582154, 1781519582155]);
  });

  it('events without an email or a token fee are written as version 1 chunks, exactly as before team stores existed', () => {
    const blob = encodeChunk(columnsOf(EDGE_EVENTS.slice(1)), [0, 1, 2, 3], memoryLabels());
    expect(chunkVersion(blob)).toBe(1);
  });

  it("Admin API events keep the member's email and the token fee (version 2), absent as absent", () => {
    const labels = memoryLabels();
    const blob = encodeChunk(columnsOf(ADMIN_EVENTS), [0, 1, 2, 3], labels);
    expect(chunkVersion(blob)).toBe(2);
    const back = new EventRows();
    expect(decodeChunk(blob, labels, back)).toBe(4);
    expect(all(back)).toStrictEqual(ADMIN_EVENTS.map(kept));
    expect(Object.is(back.get(2).cursorTokenFee, -0)).toBe(true);
    expect(() => decodeChunk(blob.subarray(0, blob.length - 8), labels, new EventRows())).toThrow(
      ChunkFormatError,
    );
  });

  it.each([
    ['a truncated blob', (blob: Buffer) => blob.subarray(0, blob.length - 9)],
    ['trailing bytes', (blob: Buffer) => Buffer.concat([blob, Buffer.alloc(8)])],
    ['another version', (blob: Buffer) => Buffer.concat([Buffer.from([9]), blob.subarray(1)])],
  ])('%s is a ChunkFormatError, never wrong events', (_label, damage) => {
    const labels = memoryLabels();
    const blob = encodeChunk(columnsOf(EDGE_EVENTS), [0, 1, 2, 3, 4], labels);
    expect(() => decodeChunk(damage(blob), labels, new EventRows())).toThrow(ChunkFormatError);
  });
});

describe('planning a window', () => {
  const settledBefore = 1000;
  it('with nothing stored: one fetch of the whole window, as without a store', () => {
    expect(planWindow({ window: { start: 0, end: 1200 }, stored: [], settledBefore })).toEqual([
      { kind: 'fetch', start: 0, end: 1200 },
    ]);
  });

  it('stored settled time is verified; the gap after it and the recent part are one fetch', () => {
    expect(
      planWindow({
        window: { start: 0, end: 1200 },
        stored: [{ start: 0, end: 900, count: 5, fetchedAt: 7 }],
        settledBefore,
      }),
    ).toEqual([
      { kind: 'stored', start: 0, end: 900, fetchedAt: 7 },
      { kind: 'fetch', start: 900, end: 1200 },
    ]);
  });

  it('only the part of a stored range inside the window and before the settled boundary is used', () => {
    expect(
      planWindow({
        window: { start: 100, end: 1200 },
        stored: [
          { start: 0, end: 300, count: 1, fetchedAt: 7 },
          { start: 500, end: 1100, count: 1, fetchedAt: 7 },
        ],
        settledBefore,
      }),
    ).toEqual([
      { kind: 'stored', start: 100, end: 300, fetchedAt: 7 },
      { kind: 'fetch', start: 300, end: 500 },
      { kind: 'stored', start: 500, end: 1000, fetchedAt: 7 },
      { kind: 'fetch', start: 1000, end: 1200 },
    ]);
  });

  it('a window that ended before the settled boundary can come from the store alone', () => {
    expect(
      planWindow({
        window: { start: 100, end: 400 },
        stored: [{ start: 0, end: 900, count: 1, fetchedAt: 7 }],
        settledBefore,
      }),
    ).toEqual([{ kind: 'stored', start: 100, end: 400, fetchedAt: 7 }]);
  });

  it('stored ranges are used in time order, whatever order the store lists them in', () => {
    expect(
      planWindow({
        window: { start: 0, end: 1200 },
        stored: [
          { start: 600, end: 800, count: 1, fetchedAt: 9 },
          { start: 400, end: 500, count: 1, fetchedAt: 8 },
          { start: 100, end: 200, count: 1, fetchedAt: 7 },
        ],
        settledBefore,
      }),
    ).toEqual([
      { kind: 'fetch', start: 0, end: 100 },
      { kind: 'stored', start: 100, end: 200, fetchedAt: 7 },
      { kind: 'fetch', start: 200, end: 400 },
      { kind: 'stored', start: 400, end: 500, fetchedAt: 8 },
      { kind: 'fetch', start: 500, end: 600 },
      { kind: 'stored', start: 600, end: 800, fetchedAt: 9 },
      { kind: 'fetch', start: 800, end: 1200 },
    ]);
  });

  it('a stored range that only touches the window, or lies in its recent part, gives no stored step', () => {
    const plan = (stored: { start: number; end: number }[]) =>
      planWindow({
        window: { start: 100, end: 1200 },
        stored: stored.map((range) => ({ ...range, count: 1, fetchedAt: 7 })),
        settledBefore,
      });
    // Ending where the window starts, or before it: nothing of it is inside.
    expect(plan([{ start: 0, end: 100 }])).toEqual([{ kind: 'fetch', start: 100, end: 1200 }]);
    expect(plan([{ start: 0, end: 50 }])).toEqual([{ kind: 'fetch', start: 100, end: 1200 }]);
    // One millisecond inside is used.
    expect(plan([{ start: 0, end: 101 }])).toEqual([
      { kind: 'stored', start: 100, end: 101, fetchedAt: 7 },
      { kind: 'fetch', start: 101, end: 1200 },
    ]);
    // Starting at or after the settled boundary: recent time is always fetched.
    expect(plan([{ start: 1000, end: 1100 }])).toEqual([{ kind: 'fetch', start: 100, end: 1200 }]);
    expect(plan([{ start: 1050, end: 1100 }])).toEqual([{ kind: 'fetch', start: 100, end: 1200 }]);
    expect(plan([{ start: 999, end: 1100 }])).toEqual([
      { kind: 'fetch', start: 100, end: 999 },
      { kind: 'stored', start: 999, end: 1000, fetchedAt: 7 },
      { kind: 'fetch', start: 1000, end: 1200 },
    ]);
  });

  it('a range overlapping one already planned (a damaged store) is skipped: no time is planned twice', () => {
    expect(
      planWindow({
        window: { start: 0, end: 1200 },
        stored: [
          { start: 0, end: 500, count: 1, fetchedAt: 7 },
          { start: 400, end: 900, count: 1, fetchedAt: 8 },
        ],
        settledBefore,
      }),
    ).toEqual([
      { kind: 'stored', start: 0, end: 500, fetchedAt: 7 },
      { kind: 'fetch', start: 500, end: 1200 },
    ]);
  });
});

describe('the settled part of a fetched span', () => {
  it('is the part before the settled boundary; a span wholly after it has none', () => {
    expect(settledPart({ start: 100, end: 900 }, 1000)).toEqual({ start: 100, end: 900 });
    expect(settledPart({ start: 100, end: 1200 }, 1000)).toEqual({ start: 100, end: 1000 });
    expect(settledPart({ start: 999, end: 1200 }, 1000)).toEqual({ start: 999, end: 1000 });
    expect(settledPart({ start: 1000, end: 1200 }, 1000)).toBeUndefined();
    expect(settledPart({ start: 1100, end: 1200 }, 1000)).toBeUndefined();
  });
});

describe('the SQLite store', () => {
  let dir: string;
  let store: EventStore | undefined;
  const notes: string[] = [];
  const open = (key = KEY) =>
    openEventStore({
      file: costStorePath(dir, KEY),
      key,
      owner: 'account',
      tag: '[cursor-cost]',
      note: (line) => notes.push(line),
      shown: 'the store',
    });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-store-'));
    fs.chmodSync(dir, 0o700);
    notes.length = 0;
  });
  afterEach(() => {
    store?.close();
    store = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One event per second from `from`, `count` of them. */
  const seconds = (from: number, count: number) =>
    decoded(
      Array.from({ length: count }, (_, i) => ({
        timestamp: String(from + i * 1000),
        model: `m${i % 3}`,
        tokenUsage: { inputTokens: i + 1, totalCents: i / 7 },
        chargedCents: i,
      })),
    );

  it('writes and reads back a range exactly; the file is 0600', async () => {
    store = await open();
    const events = seconds(1_000_000, 4500);
    store.replace([{ start: 1_000_000, end: 6_000_000, events: columnsOf(events) }], 42);
    expect(store.ranges()).toEqual([{ start: 1_000_000, end: 6_000_000, fetchedAt: 42, count: 4500 }]);
    expect(all(store.read(1_000_000, 6_000_000))).toStrictEqual(events.map(kept));
    expect(all(store.read(2_000_000, 2_005_000)).map((e) => e.timestamp)).toEqual([
      2_000_000, 2_001_000, 2_002_000, 2_003_000, 2_004_000,
    ]);
    expect(fs.statSync(costStorePath(dir, KEY)).mode & 0o777).toBe(0o600);
  });

  it("a read that starts exactly at a chunk's last event returns it; one that ends there leaves it out", async () => {
    store = await open();
    store.replace([{ start: 1_000_000, end: 6_000_000, events: columnsOf(seconds(1_000_000, 4500)) }], 42);
    // Chunks hold 2,000 events: the first one ends with event 1,999.
    const edge = 1_000_000 + 1999 * 1000;
    const times = (start: number, end: number) => all(store!.read(start, end)).map((e) => e.timestamp);
    expect(times(edge, edge + 2000)).toEqual([edge, edge + 1000]);
    expect(times(edge - 1000, edge)).toEqual([edge - 1000]);
    expect(times(edge, edge + 1)).toEqual([edge]);
  });

  it('replacing the middle of a range keeps what lies on both sides, with their counts', async () => {
    store = await open();
    store.replace([{ start: 0, end: 10_000_000, events: columnsOf(seconds(0, 10_000)) }], 1);
    const middle = seconds(4_000_000, 500).map((e) => ({ ...e, model: 'new' }));
    store.replace([{ start: 4_000_000, end: 6_000_000, events: columnsOf(middle) }], 2);
    // Adjacent ranges merge again (3,000-odd events is far below the cap), as old as their oldest part.
    expect(store.ranges()).toEqual([{ start: 0, end: 10_000_000, count: 4000 + 500 + 4000, fetchedAt: 1 }]);
    const read = all(store.read(0, 10_000_000));
    expect(read).toHaveLength(8500);
    expect(read.filter((e) => e.model === 'new')).toHaveLength(500);
    expect(
      read.filter((e) => e.timestamp! >= 4_000_000 && e.timestamp! < 6_000_000 && e.model !== 'new'),
    ).toHaveLength(0);
  });

  it('adjacent ranges stop merging at the cap, so a refetch always fits the page cap', async () => {
    store = await open();
    const big = MAX_MERGED_RANGE_EVENTS - 10;
    store.replace([{ start: 0, end: big * 1000, events: columnsOf(seconds(0, big)) }], 1);
    store.replace(
      [{ start: big * 1000, end: (big + 20) * 1000, events: columnsOf(seconds(big * 1000, 20)) }],
      2,
    );
    expect(store.ranges().map((range) => range.count)).toEqual([big, 20]);
  }, 20_000);

  it('labels survive closing and reopening; another key’s store is set aside, not read', async () => {
    store = await open();
    store.replace([{ start: 0, end: 10_000, events: columnsOf(seconds(0, 10)) }], 1);
    store.close();
    store = await open();
    expect(all(store.read(0, 10_000)).map((e) => e.model)).toEqual([
      'm0',
      'm1',
      'm2',
      'm0',
      'm1',
      'm2',
      'm0',
      'm1',
      'm2',
      'm0',
    ]);
    store.close();
    store = await open(OTHER_KEY);
    expect(store.ranges()).toEqual([]);
    expect(notes.join('\n')).toContain('could not be used (it belongs to another account)');
    expect(fs.readdirSync(dir)).toContain(`${KEY}.sqlite.unusable`);
  });

  it('a file open to others is not used', async () => {
    fs.writeFileSync(costStorePath(dir, KEY), '');
    fs.chmodSync(costStorePath(dir, KEY), 0o644);
    store = await open();
    expect(notes.join('\n')).toContain('its mode is 644, not 600');
    expect(fs.statSync(costStorePath(dir, KEY)).mode & 0o777).toBe(0o600);
  });

  it('clearCostStores removes the stores, their -wal/-shm and set-aside files, and nothing else', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-clear-'));
    try {
      const env: LocalEnvironment = {
        platform: 'linux',
        env: { HOME: home },
        homeDir: home,
        now: () => new Date(),
      };
      const costDir = path.join(home, '.cache', 'codexbar', 'cost');
      expect(await clearCostStores(env)).toBe(0);
      fs.mkdirSync(costDir, { recursive: true });
      for (const name of [
        `${KEY}.sqlite`,
        `${KEY}.sqlite-wal`,
        `${KEY}.sqlite-shm`,
        `${OTHER_KEY}.sqlite.unusable`,
        'notes.txt',
        'x.sqlite',
      ]) {
        fs.writeFileSync(path.join(costDir, name), '');
      }
      expect(await clearCostStores(env)).toBe(4);
      expect(fs.readdirSync(costDir).sort()).toEqual(['notes.txt', 'x.sqlite']);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
