import { describe, expect, it } from 'vitest';
import { CursorClient } from '../../src/api/client.js';
import { collectCost } from '../../src/cost/collect.js';
import type { CostReport, CostWindow } from '../../src/cost/types.js';
import { resolveCostWindow } from '../../src/cost/window.js';
import { localTimeZone } from '../../src/lib/time-zone.js';
import { type EventsScenario, generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount, FakeCursor, RecordedRequest } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';

const COOKIE = 'user_1%3A%3Aheader.payload.sig';
const COOKIE_HEADER = `WorkosCursorSessionToken=${COOKIE}`;
const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';
const NOW = new Date('2026-07-20T15:00:00Z');
const WINDOW: CostWindow = {
  start: new Date('2026-07-01T00:00:00Z'),
  end: NOW,
  timeZone: 'UTC',
  historyDays: 20,
  label: 'Last 20 days',
};
/** Retry waits are skipped, never slept (the waits themselves are pinned in cost-retry.test.ts). */
const NO_WAIT_RETRY = { sleep: async () => {} };

const scene = useScene();

/** A client of the scene's fake, closed with the scene. */
function clientOf(fake: FakeCursor): CursorClient {
  const client = new CursorClient({ baseUrl: fake.url });
  scene.defer(() => client.close());
  return client;
}

const generated = (count: number, overrides: Partial<Parameters<typeof generateEvents>[0]> = {}) =>
  generateEvents({ count, start: WINDOW.start, end: NOW, seed: 11, ...overrides });

interface Run {
  report?: CostReport;
  error?: { type: string; message: string };
  requests: RecordedRequest[];
}

async function runOnce(
  events: FakeAccount['events'],
  concurrency: number,
  options: { cookieHeader?: string; timeoutMs?: number; window?: CostWindow } = {},
): Promise<Run> {
  const fake = await scene.serve([{ cookies: [COOKIE], events }]);
  const client = clientOf(fake);
  try {
    const report = await collectCost({
      client,
      cookieHeader: options.cookieHeader ?? COOKIE_HEADER,
      window: options.window ?? WINDOW,
      concurrency,
      timeoutMs: options.timeoutMs,
      retry: NO_WAIT_RETRY,
      now: () => NOW,
    });
    return { report, requests: fake.requests };
  } catch (error) {
    const e = error as Error;
    return { error: { type: e.constructor.name, message: e.message }, requests: fake.requests };
  }
}

/** Sequential and concurrent runs against fresh servers must end identically. */
async function runBoth(events: () => FakeAccount['events'], options: Parameters<typeof runOnce>[2] = {}) {
  const sequential = await runOnce(events(), 1, options);
  const concurrent = await runOnce(events(), 6, options);
  expect(concurrent.report).toEqual(sequential.report);
  expect(concurrent.error).toEqual(sequential.error);
  return { ...sequential, concurrentRequests: concurrent.requests };
}

const pagesRequested = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.path === EVENTS_PATH).map((r) => (r.body as { page: number }).page);

describe('collectCost against the fake cursor.com: complete runs', () => {
  it('a clean multi-page window: every event counted once, sequential = concurrent', async () => {
    const all = generated(2500);
    const run = await runBoth(() => ({ events: all }));
    expect(run.report?.eventCount).toBe(2500);
    expect(run.report?.reportedEventCount).toBe(2500);
    expect(run.report?.daily.reduce((n, d) => n + d.requestCount, 0)).toBe(2500);
    expect(pagesRequested(run.requests)).toEqual([1, 2, 3]);
  });

  it('an exact multiple of 1000 asks for the empty page that proves completion', async () => {
    const run = await runBoth(() => ({ events: generated(2000) }));
    expect(run.report?.eventCount).toBe(2000);
    expect(pagesRequested(run.requests)).toEqual([1, 2, 3]);
  });

  it('a boundary duplicate proven by the count is removed', async () => {
    const all = generated(1500);
    const clean = await runOnce({ events: all }, 1);
    const run = await runBoth(() => ({ events: all, overlap: { afterPage: 1, rows: 3 } }));
    expect(run.report).toEqual(clean.report);
  });

  it('identical rows are kept when the count includes them', async () => {
    const all = generated(1500);
    all[1000] = { ...all[999]! };
    const run = await runBoth(() => ({ events: all }));
    expect(run.report?.eventCount).toBe(1500);
  });

  it('no count at all: pages until the short page, nothing de-duplicated', async () => {
    const all = generated(1500);
    const run = await runBoth(() => ({ events: all, count: null, overlap: { afterPage: 1, rows: 2 } }));
    expect(run.report?.eventCount).toBe(1502);
    expect(run.report?.reportedEventCount).toBeNull();
  });

  it('`{}` for an empty window gives an empty report', async () => {
    const run = await runBoth(() => ({ events: [] }));
    expect(run.report).toMatchObject({
      daily: [],
      eventCount: 0,
      meteredCostUSD: null,
      provenance: 'unknown',
    });
    expect(run.report?.totals.costUSD).toBe(0);
  });

  it('sends the documented request: POST, Origin, page size 1000, ms-string bounds, no Authorization', async () => {
    const run = await runOnce({ events: generated(10) }, 6);
    const [request] = run.requests;
    expect(request?.method).toBe('POST');
    expect(request?.headers.origin).toBe('https://cursor.com');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toEqual({
      page: 1,
      pageSize: 1000,
      startDate: String(WINDOW.start.getTime()),
      endDate: String(NOW.getTime()),
    });
  });

  it('TZ=America/New_York: startDate is New York midnight and days are New York days', async () => {
    const window = resolveCostWindow({
      days: 1,
      timeZone: localTimeZone({ TZ: 'America/New_York' }),
      now: NOW,
    });
    const run = await runOnce(
      {
        events: [{ timestamp: String(Date.parse('2026-07-20T04:30:00Z')), tokenUsage: { inputTokens: 5 } }],
      },
      6,
      { window },
    );
    expect(run.requests[0]?.body).toMatchObject({ startDate: String(Date.parse('2026-07-20T04:00:00Z')) });
    expect(run.report?.daily.map((d) => d.date)).toEqual(['2026-07-20']);
    expect(run.report?.today.tokens).toBe(5);
  });
});

describe('collectCost against the fake cursor.com: pagination failures', () => {
  it('a count that changes between pages is inconsistent', async () => {
    const run = await runBoth(() => ({
      events: generated(1500),
      count: (page) => (page === 2 ? 1600 : 1500),
    }));
    expect(run.error).toEqual({
      type: 'PaginationError',
      message: 'Cursor cost pagination was inconsistent (expected 1500, received 1600 events).',
    });
  });

  it('fewer events than reported is incomplete', async () => {
    const run = await runBoth(() => ({ events: generated(1500), count: 2000 }));
    expect(run.error?.message).toBe('Cursor cost refresh was incomplete (received 1500 of 2000 events).');
  });

  it('an omitted array before the reported count is reached is incomplete', async () => {
    const run = await runBoth(() => ({ events: generated(1500), pages: { 2: 'omit-array' } }));
    expect(run.error?.message).toBe('Cursor cost refresh was incomplete (received 1000 of 1500 events).');
  });

  it('a terminal {} contradicting an earlier count is incomplete', async () => {
    const run = await runBoth(() => ({ events: generated(1500), pages: { 2: 'empty-object' } }));
    expect(run.error?.message).toBe('Cursor cost refresh was incomplete (received 1000 of 1500 events).');
  });

  it('a missing array with other content is a parse error', async () => {
    const run = await runBoth(() => () => ({ json: { totalUsageEventsCount: 3, message: 'moved' } }));
    expect(run.error?.type).toBe('ParseError');
  });

  it('truncated JSON is a parse error and is not retried', async () => {
    const run = await runBoth(() => ({ events: generated(1500), faults: [{ page: 2, truncated: true }] }));
    expect(run.error?.type).toBe('ParseError');
    expect(pagesRequested(run.requests).filter((p) => p === 2)).toHaveLength(1);
  });
});

describe('collectCost against the fake cursor.com: HTTP failures and retries', () => {
  it('401 means not logged in, never retried', async () => {
    const run = await runBoth(() => ({ events: generated(1500), faults: [{ page: 2, status: 401 }] }));
    expect(run.error?.type).toBe('NotLoggedInError');
    expect(pagesRequested(run.requests).filter((p) => p === 2)).toHaveLength(1);
  });

  it('an unknown session is not logged in', async () => {
    const run = await runBoth(() => ({ events: generated(10) }), {
      cookieHeader: 'WorkosCursorSessionToken=someone%3A%3Aelse',
    });
    expect(run.error?.type).toBe('NotLoggedInError');
  });

  it('403 is a final API error, never retried', async () => {
    const run = await runBoth(() => ({ events: generated(1500), faults: [{ page: 1, status: 403 }] }));
    expect(run.error?.type).toBe('ApiError');
    expect(run.error?.message).toMatch(/^Cursor API error: HTTP 403/);
    expect(pagesRequested(run.requests)).toEqual([1]);
  });

  it('a 500 on every attempt fails after two retries with the last error', async () => {
    const run = await runBoth(() => ({ events: generated(1500), faults: [{ page: 2, status: 500 }] }));
    expect(run.error?.message).toMatch(/^Cursor API error: HTTP 500/);
    expect(pagesRequested(run.requests).filter((p) => p === 2)).toHaveLength(3);
  });

  it('a 502 that clears on retry leaves no trace in the report', async () => {
    const all = generated(1500);
    const clean = await runOnce({ events: all }, 1);
    const run = await runBoth(() => ({ events: all, faults: [{ page: 2, status: 502, times: 2 }] }));
    expect(run.report).toEqual(clean.report);
  });

  it('a reset connection is retried', async () => {
    const run = await runBoth(() => ({
      events: generated(1500),
      faults: [{ page: 2, destroy: true, times: 1 }],
    }));
    expect(run.report?.eventCount).toBe(1500);
  });

  it('a page that times out is retried', async () => {
    const run = await runBoth(
      // The slow answer would come after a minute; the 150 ms budget gives up on it long before.
      () => ({ events: generated(1500), faults: [{ page: 2, delayMs: 60_000, times: 1 }] }),
      { timeoutMs: 150 },
    );
    expect(run.report?.eventCount).toBe(1500);
  });

  it('429 waits for Retry-After and then succeeds', async () => {
    const run = await runBoth(() => ({
      events: generated(1500),
      faults: [{ page: 2, status: 429, retryAfter: '0', times: 2 }],
    }));
    expect(run.report?.eventCount).toBe(1500);
  });

  it('a Retry-After of an hour, past the 10 s cap, fails the page at once: no wait, no retry', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    const fake = await scene.serve([
      {
        cookies: [COOKIE],
        events: { events: generated(1500), faults: [{ page: 2, status: 429, retryAfter: '3600' }] },
      },
    ]);
    const client = clientOf(fake);
    const run = collectCost({
      client,
      cookieHeader: COOKIE_HEADER,
      window: WINDOW,
      concurrency: 1,
      retry: { sleep },
      now: () => NOW,
    });
    await expect(run).rejects.toThrow(/^Cursor API error: rate limited for 3600 s; try again later/);
    expect(waits).toEqual([]);
    expect(pagesRequested(fake.requests).filter((p) => p === 2)).toHaveLength(1);
  });
});

describe('collectCost: the report from realistic events', () => {
  it('events without totalCents are estimated at list price; without chargedCents metered is null', async () => {
    const all = generated(1200, { withoutTotalCentsEvery: 10, withoutChargedCentsEvery: 500 });
    const run = await runOnce({ events: all }, 6);
    expect(run.report?.requestCounts.estimated).toBeGreaterThan(0);
    expect(run.report?.requestCounts.reported).toBeGreaterThan(0);
    expect(run.report?.meteredCostUSD).toBeNull();
    expect(run.report?.provenance).toBe('listPriceEstimate');
  });

  // The rows of a page grow past cursor.com's 1,000 events.
  it('a page of 5,000 events, more than cursor.com sends, is read whole and counted as paged ones are', async () => {
    const all = generated(5000);
    const oversized = JSON.stringify({ totalUsageEventsCount: 5000, usageEventsDisplay: all });
    const run = await runOnce(
      (req) =>
        (req.body as { page: number }).page === 1
          ? { text: oversized }
          : { json: { totalUsageEventsCount: 5000 } },
      1,
    );
    const paged = await runOnce({ events: all }, 1);
    expect(run.report?.eventCount).toBe(5000);
    expect(run.report).toEqual(paged.report);
  });

  it('model names sent with escapes or in non-ASCII letters are reported as cursor.com wrote them', async () => {
    const [first, second] = generated(2).map((event) => JSON.stringify(event));
    const escaped = first!.replace(/"model":"[^"]*"/, '"model":"gpt\\u002d5"');
    const accented = second!.replace(/"model":"[^"]*"/, '"model":"modèle-ü"');
    const text = `{"totalUsageEventsCount":2,"usageEventsDisplay":[${escaped},${accented}]}`;
    const run = await runOnce(() => ({ text }), 1);
    expect(run.report?.byModel.map((row) => row.modelName).sort()).toEqual(['gpt-5', 'modèle-ü']);
  });

  it('byKind splits requests by the kind enum and adds up to every valid event', async () => {
    const run = await runOnce({ events: generated(1200) } satisfies EventsScenario, 6);
    const kinds = Object.values(run.report!.byKind);
    expect(kinds.reduce((n, k) => n + k.requests, 0)).toBe(1200);
    expect(run.report?.byKind.onDemand.requests).toBeGreaterThan(0);
    expect(run.report?.byKind.notCharged.requests).toBeGreaterThan(0);
    expect(run.report?.byKind.byok.requests).toBeGreaterThan(0);
  });
});
