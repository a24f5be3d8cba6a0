import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { DecodedUsageEvent, EventsPage } from '../../src/api/schemas/events.js';
import { EventRows, type EventRowsPage } from '../../src/cost/events/rows.js';
import {
  MAX_PAGES,
  type PageProgress,
  type PagerResult,
  pageEventRows,
  type RowsPagerOptions,
  verbosePageLine,
} from '../../src/cost/pager.js';
import { ApiError, NotLoggedInError, PaginationError } from '../../src/errors.js';
import { page, rows } from '../helpers/cost-events.js';

type PageAnswer = EventsPage | Error;

interface Outcome {
  events: (number | undefined)[];
  expected?: number | null;
  error?: string;
  errorType?: string;
  code?: string;
}

/** Resolves after `turns` turns of the event loop: an ordering without a clock. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Each scripted page as rows, made once per page (the 200-page cases ask for the same pages twice). */
const asRows = new WeakMap<EventsPage, EventRowsPage>();
function rowsPage(page: EventsPage): EventRowsPage {
  let rows = asRows.get(page);
  if (!rows) {
    rows = {
      totalUsageEventsCount: page.totalUsageEventsCount,
      usageEventsDisplay: EventRows.fromEvents(page.usageEventsDisplay),
    };
    asRows.set(page, rows);
  }
  return rows;
}

/** The pager over scripted pages of events, each turned into rows as the decoders give them. */
function pageEvents(
  options: Omit<RowsPagerOptions, 'fetchPage' | 'onRows'> & {
    fetchPage: (page: number, signal: AbortSignal) => Promise<EventsPage>;
    onEvent: (event: DecodedUsageEvent) => void;
  },
): Promise<PagerResult> {
  const { fetchPage, onEvent, ...rest } = options;
  return pageEventRows({
    ...rest,
    fetchPage: async (n, signal) => rowsPage(await fetchPage(n, signal)),
    onRows: (rows, from, to) => {
      for (let i = from; i < to; i++) onEvent(rows.get(i));
    },
  });
}

/**
 * Runs the pager over scripted pages; pages answer after a pseudo-random number of event-loop turns so they
 * finish out of order.
 */
async function run(
  answer: (n: number) => PageAnswer,
  concurrency: number,
  pageSize?: number,
): Promise<Outcome & { requested: number[] }> {
  const events: (number | undefined)[] = [];
  const requested: number[] = [];
  const scripted = async (n: number) => {
    requested.push(n);
    await turns((n * 7) % 5);
    const value = answer(n);
    if (value instanceof Error) throw value;
    return value;
  };
  try {
    const result = await pageEvents({
      concurrency,
      pageSize,
      onEvent: (e) => events.push(e.timestamp),
      fetchPage: scripted,
    });
    return { events, expected: result.expected, requested };
  } catch (error) {
    const e = error as Error & { code?: string };
    return { events: [], error: e.message, errorType: e.constructor.name, code: e.code, requested };
  }
}

/** Every case runs sequentially and with read-ahead; both must end the same way. */
async function both(answer: (n: number) => PageAnswer, pageSize?: number): Promise<Outcome> {
  const runs = [await run(answer, 1, pageSize), await run(answer, 6, pageSize)];
  const [seq, ...others] = runs.map(({ requested: _, ...outcome }) => outcome);
  for (const other of others) expect(other).toEqual(seq);
  return seq!;
}

const stamps = (raw: Record<string, unknown>[]) => raw.map((r) => Number(r.timestamp));
const pagesOf =
  (raw: Record<string, unknown>[], count: number | null, size = 1000) =>
  (n: number) =>
    page(raw.slice((n - 1) * size, n * size), count);
/**
 * The page cap is tested at its real 200 pages, with pages of 5 rows instead of 1000: the cap is reached
 * after 1,000 events, not 200,000 (the 1000-row page size is pinned by the cases above and below).
 */
const SMALL_PAGE = 5;
const AT_CAP = MAX_PAGES * SMALL_PAGE;
let decodedFullPages: EventsPage[] | undefined;
/** Page n of MAX_PAGES full small pages of distinct rows; `count` is the reported total, if any. */
function fullPage(n: number, count?: number): EventsPage {
  decodedFullPages ??= Array.from({ length: MAX_PAGES }, (_, i) => page(rows(SMALL_PAGE, i * SMALL_PAGE)));
  const decoded = decodedFullPages[n - 1]!;
  return count === undefined ? decoded : { ...decoded, totalUsageEventsCount: count };
}
const serverError = (n: number) => new ApiError('POST /x', `HTTP 500 (page ${n})`, { status: 500 });

describe('cost pagination, sequential and concurrent alike', () => {
  it('a clean multi-page window ends on its short last page', async () => {
    const all = rows(2500);
    const outcome = await both(pagesOf(all, 2500));
    expect(outcome.events).toEqual(stamps(all));
    expect(outcome.expected).toBe(2500);
  });

  it('an exact multiple of 1000 needs the empty page to prove completion', async () => {
    const all = rows(2000);
    const outcome = await both((n) => (n <= 2 ? pagesOf(all, 2000)(n) : page(undefined, 2000)));
    expect(outcome.events).toEqual(stamps(all));
  });

  it('a boundary duplicate proven by the count is removed once', async () => {
    const all = rows(2500);
    // Page 2 repeats the last two rows of page 1 and shifts the rest.
    const served = [...all.slice(0, 1000), ...all.slice(998, 1000), ...all.slice(1000)];
    const outcome = await both(pagesOf(served, 2500));
    expect(outcome.events).toEqual(stamps(all));
  });

  it('an overlap of half a page (500 rows) is a boundary shift the count explains; 501 is a repeated page', async () => {
    const all = rows(2500);
    const overlapping = (overlap: number) => [
      ...all.slice(0, 1000),
      ...all.slice(1000 - overlap, 1000),
      ...all.slice(1000),
    ];
    const shift = await both(pagesOf(overlapping(500), 2500));
    expect(shift.events).toEqual(stamps(all));
    const repeat = await both(pagesOf(overlapping(501), 2500));
    expect(repeat.error).toBe('Cursor cost refresh was incomplete (page 2 repeated page 1, twice).');
  });

  it('removes only as many repeated rows as the count proves (greedy, first boundary first)', async () => {
    const all = rows(2500);
    const served = [...all.slice(0, 1000), ...all.slice(997, 1000), ...all.slice(1000)];
    const outcome = await both(pagesOf(served, 2501));
    expect(outcome.events).toHaveLength(2501);
    expect(new Set(outcome.events).size).toBe(2500);
  });

  it("rows that differ only in the member's email (Admin API events) are never a boundary repeat", async () => {
    const withEmail = (events: EventsPage, email: string): EventsPage => ({
      ...events,
      usageEventsDisplay: events.usageEventsDisplay.map((event) => ({ ...event, userEmail: email })),
    });
    const all = rows(1499);
    // Page 2 starts with page 1's last row, made by another member: a real event, so 1,500 rows arrive.
    const pages = [
      withEmail(page(all.slice(0, 1000), 1499), 'ana@example.test'),
      withEmail(page(all.slice(999), 1499), 'bo@example.test'),
    ];
    const outcome = await both((n) => pages[n - 1] ?? page(undefined, 1499));
    expect(outcome.error).toBe(
      'Cursor cost pagination was inconsistent (expected 1499, received 1500 events).',
    );
    // The same rows by the same member are the repeat the count proves.
    pages[1] = withEmail(pages[1]!, 'ana@example.test');
    expect((await both((n) => pages[n - 1] ?? page(undefined, 1499))).events).toHaveLength(1499);
  });

  it('identical rows at a boundary are kept when the count says they are real', async () => {
    const all = rows(1500);
    all[1000] = { ...all[999]! };
    const outcome = await both(pagesOf(all, 1500));
    expect(outcome.events).toHaveLength(1500);
  });

  it('more rows than the count without any boundary overlap is inconsistent', async () => {
    const outcome = await both(pagesOf(rows(1500), 1400));
    expect(outcome.error).toBe(
      'Cursor cost pagination was inconsistent (expected 1400, received 1500 events).',
    );
    expect(outcome.errorType).toBe('PaginationError');
  });

  it('a count that changes between pages is inconsistent', async () => {
    const all = rows(2500);
    const outcome = await both((n) => pagesOf(all, n === 2 ? 2600 : 2500)(n));
    expect(outcome.error).toBe(
      'Cursor cost pagination was inconsistent (expected 2500, received 2600 events).',
    );
  });

  it('a changed count on the empty page is checked before the empty-page test', async () => {
    const all = rows(2000);
    const outcome = await both((n) => (n <= 2 ? pagesOf(all, 2000)(n) : page(undefined, 1999)));
    expect(outcome.error).toBe(
      'Cursor cost pagination was inconsistent (expected 2000, received 1999 events).',
    );
  });

  it('fewer rows than reported is incomplete', async () => {
    const outcome = await both(pagesOf(rows(2500), 3000));
    expect(outcome.error).toBe('Cursor cost refresh was incomplete (received 2500 of 3000 events).');
  });

  it('a terminal {} after a positive count is incomplete', async () => {
    const all = rows(1000);
    const outcome = await both((n) => (n === 1 ? page(all, 1500) : page(undefined)));
    expect(outcome.error).toBe('Cursor cost refresh was incomplete (received 1000 of 1500 events).');
  });

  it('200 full pages hit the safety limit even when the count matches', async () => {
    const outcome = await both((n) => fullPage(n, AT_CAP), SMALL_PAGE);
    expect(outcome.error).toBe('Cursor cost refresh reached its pagination safety limit after 1000 events.');
  });

  it('200 full pages without any count hit the safety limit too', async () => {
    const outcome = await both((n) => fullPage(n), SMALL_PAGE);
    expect(outcome.error).toBe('Cursor cost refresh reached its pagination safety limit after 1000 events.');
  });

  // The cap allows 200 pages: a window whose last page is the 200th is complete, not over the limit.
  it.each([
    ['a short 200th page', AT_CAP - SMALL_PAGE + 2],
    ['an empty 200th page after exactly 199 full ones', AT_CAP - SMALL_PAGE],
  ])('199 full pages and %s complete with every event counted', async (_name, total) => {
    const all = rows(total);
    // Decoded once, as both runs ask for the same 200 pages.
    const pages = Array.from({ length: 200 }, (_, i) => pagesOf(all, total, SMALL_PAGE)(i + 1));
    const outcome = await both((n) => pages[n - 1] ?? new Error(`page ${n} is past the cap`), SMALL_PAGE);
    expect(outcome.error).toBeUndefined();
    expect(outcome.expected).toBe(total);
    expect(outcome.events).toEqual(stamps(all));
  });

  it('a higher page cap lets 200 full pages end on the empty page 201; a lower one fails at its cap', async () => {
    const answer = (n: number) => page(rows(n <= 200 ? SMALL_PAGE : 0, (n - 1) * SMALL_PAGE), AT_CAP);
    const delivered: DecodedUsageEvent[] = [];
    const result = await pageEvents({
      concurrency: 4,
      maxPages: 1000,
      pageSize: SMALL_PAGE,
      onEvent: (e) => delivered.push(e),
      fetchPage: async (n) => answer(n),
    });
    expect(result).toMatchObject({ expected: AT_CAP, pages: 200 });
    expect(delivered).toHaveLength(AT_CAP);
    await expect(
      pageEvents({ maxPages: 3, pageSize: SMALL_PAGE, onEvent: () => {}, fetchPage: async (n) => answer(n) }),
    ).rejects.toThrow('Cursor cost refresh reached its pagination safety limit after 15 events.');
  });

  it('read-ahead never asks for a page past the 200th, even when the count promises more', async () => {
    const outcome = await run((n) => fullPage(n, AT_CAP * 2.5), 6, SMALL_PAGE);
    expect(outcome.error).toBe('Cursor cost refresh reached its pagination safety limit after 1000 events.');
    expect(Math.max(...outcome.requested)).toBe(MAX_PAGES);
  });

  it('without a count nothing is de-duplicated', async () => {
    const all = rows(1500);
    const served = [...all.slice(0, 1000), ...all.slice(999, 1000), ...all.slice(1000)];
    const outcome = await both(pagesOf(served, null));
    expect(outcome.events).toHaveLength(1501);
    expect(outcome.expected).toBeNull();
  });

  it('`{}` on page 1 is an empty window', async () => {
    const outcome = await both(() => page(undefined));
    expect(outcome).toEqual({ events: [], expected: null });
  });

  it('a page error ends the run with that error', async () => {
    const outcome = await both((n) => (n === 2 ? serverError(n) : pagesOf(rows(2500), 2500)(n)));
    expect(outcome.error).toBe('Cursor API error: HTTP 500 (page 2) (POST /x)');
  });

  it('a failing page after the sequential stopping point is ignored', async () => {
    // Page 2 is short, so the run ends there (incomplete); pages 3–4 would fail, but they are past the end.
    const all = rows(1500);
    const outcome = await both((n) =>
      n >= 3 ? new NotLoggedInError('POST /x', 401) : pagesOf(all, 3500)(n),
    );
    expect(outcome.error).toBe('Cursor cost refresh was incomplete (received 1500 of 3500 events).');
  });

  it('a page after an inconsistent page is ignored even if it failed', async () => {
    const all = rows(3500);
    const outcome = await both((n) => (n === 3 ? serverError(n) : pagesOf(all, n === 2 ? 1 : 3500)(n)));
    expect(outcome.errorType).toBe(PaginationError.name);
  });
});

describe('cost pagination: repeats, codes and the result', () => {
  it.each<[string, (n: number) => PageAnswer, string]>([
    ['fewer rows than reported', pagesOf(rows(2500), 3000), 'pagination_incomplete'],
    ['a count that changes', (n) => pagesOf(rows(2500), n === 2 ? 2600 : 2500)(n), 'pagination_inconsistent'],
    ['more rows than reported', pagesOf(rows(1500), 1400), 'pagination_inconsistent'],
    ['a page repeated twice', (n) => pagesOf(rows(2500), 2500)(n === 2 ? 1 : n), 'pagination_incomplete'],
  ])('%s fails with the stable code %s', async (_name, answer, code) => {
    expect((await both(answer)).code).toBe(code);
  });

  it('200 full pages fail with the stable code pagination_safety_limit', async () => {
    expect((await both((n) => fullPage(n), SMALL_PAGE)).code).toBe('pagination_safety_limit');
  });

  it('a page that repeats an earlier one once is asked again, and the fresh answer is used', async () => {
    const all = rows(2500);
    for (const concurrency of [1, 6]) {
      let asked = 0;
      const outcome = await run((n) => {
        if (n === 2) asked++;
        return pagesOf(all, 2500)(n === 2 && asked === 1 ? 1 : n);
      }, concurrency);
      expect(outcome.error).toBeUndefined();
      expect(outcome.events).toEqual(stamps(all));
      expect(outcome.requested.filter((n) => n === 2)).toEqual([2, 2]);
    }
  });

  it('a page that repeats an earlier page other than the previous one is a repeated page too', async () => {
    const all = rows(3500);
    const outcome = await both((n) => pagesOf(all, 3500)(n === 3 ? 1 : n));
    expect(outcome.error).toBe('Cursor cost refresh was incomplete (page 3 repeated page 1, twice).');
  });

  it('the result counts raw rows and delivered rows: the dropped boundary repeats are the difference', async () => {
    const all = rows(2500);
    const served = [...all.slice(0, 1000), ...all.slice(998, 1000), ...all.slice(1000)];
    const result = await pageEvents({
      onEvent: () => {},
      fetchPage: async (n) => pagesOf(served, 2500)(n),
    });
    expect(result).toEqual({ expected: 2500, raw: 2502, delivered: 2500, pages: 3 });
  });
});

describe('cost pagination: the caller’s signal', () => {
  /** Page 1 gives a count of 6000; later pages wait until their signal aborts, or until `release`. */
  function hanging() {
    const aborted: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchPage = (n: number, signal: AbortSignal) =>
      new Promise<EventsPage>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        if (n === 1) return resolve(page(rows(1000), 6000));
        signal.addEventListener('abort', () => {
          aborted.push(n);
          reject(signal.reason);
        });
        void released.then(() => resolve(page(rows(1000, (n - 1) * 1000), 6000)));
      });
    return { aborted, release, fetchPage };
  }

  it('an already aborted signal aborts the first request with its reason', async () => {
    const { fetchPage } = hanging();
    const signal = AbortSignal.abort(new Error('cost deadline passed'));
    await expect(pageEvents({ signal, onEvent: () => {}, fetchPage })).rejects.toThrow(
      'cost deadline passed',
    );
  });

  it('aborting the signal mid-run aborts every request in flight with its reason', async () => {
    const { aborted, release, fetchPage } = hanging();
    const outer = new AbortController();
    const attempt = pageEvents({ signal: outer.signal, concurrency: 6, onEvent: () => {}, fetchPage });
    const settled = attempt.then(
      () => 'finished',
      (error: Error) => error.message,
    );
    await turns(5);
    outer.abort(new Error('cost deadline passed'));
    await turns(5);
    // Let any request the abort missed finish, so a broken pager fails the test instead of hanging it.
    release();
    expect(await settled).toBe('cost deadline passed');
    expect(aborted.sort()).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('leaves no listener on the signal, which one deadline shares across many walks', async () => {
    const outer = new AbortController();
    for (let walk = 0; walk < 3; walk++) {
      await pageEvents({
        signal: outer.signal,
        onEvent: () => {},
        fetchPage: async (n) => pagesOf(rows(1500), 1500)(n),
      });
    }
    await expect(
      pageEvents({
        signal: outer.signal,
        onEvent: () => {},
        fetchPage: () => Promise.reject(serverError(1)),
      }),
    ).rejects.toThrow('HTTP 500');
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
  });
});

describe('cost pagination: read-ahead', () => {
  it('once page 1 gives the count, later pages are requested before earlier ones finish, within the bound', async () => {
    const all = rows(9500);
    let inFlight = 0;
    let maxInFlight = 0;
    const requested: number[] = [];
    await pageEvents({
      concurrency: 4,
      onEvent: () => {},
      fetchPage: async (n) => {
        requested.push(n);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await turns(3);
        inFlight--;
        return page(all.slice((n - 1) * 1000, n * 1000), 9500);
      },
    });
    expect(maxInFlight).toBe(4);
    expect(requested).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('concurrency 1 never has two pages in flight', async () => {
    const outcome = await run(pagesOf(rows(4200), 4200), 1);
    expect(outcome.requested).toEqual([1, 2, 3, 4, 5]);
  });

  it.each([1, 3])(
    'a repeated page asked again counts against the concurrency (%i), as any request does',
    async (concurrency) => {
      const all = rows(9500);
      let asked = 0;
      let inFlight = 0;
      let maxInFlight = 0;
      await pageEvents({
        concurrency,
        onEvent: () => {},
        fetchPage: async (n) => {
          if (n === 2) asked++;
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await turns(3);
          inFlight--;
          // Page 2's first answer repeats page 1.
          const served = n === 2 && asked === 1 ? 1 : n;
          return page(all.slice((served - 1) * 1000, served * 1000), 9500);
        },
      });
      expect(asked).toBe(2);
      expect(maxInFlight).toBe(concurrency);
    },
  );

  it('an exact multiple reads ahead up to the empty page, and not past it', async () => {
    const all = rows(3000);
    const outcome = await run((n) => (n <= 3 ? pagesOf(all, 3000)(n) : page(undefined, 3000)), 6);
    expect(outcome.requested.sort()).toEqual([1, 2, 3, 4]);
  });

  it('in-flight requests are aborted when the run fails', async () => {
    const aborted: number[] = [];
    const attempt = pageEvents({
      concurrency: 6,
      onEvent: () => {},
      fetchPage: (n, signal) =>
        new Promise<EventsPage>((resolve, reject) => {
          if (n === 1) return resolve(page(rows(1000), 6000));
          if (n === 2) return reject(serverError(n));
          signal.addEventListener('abort', () => {
            aborted.push(n);
            reject(signal.reason);
          });
        }),
    });
    await expect(attempt).rejects.toThrow('HTTP 500');
    expect(aborted.sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('reports progress per accepted page, in order, with the verbose line format', async () => {
    const progress: PageProgress[] = [];
    await pageEvents({
      concurrency: 6,
      onEvent: () => {},
      onProgress: (p) => progress.push(p),
      fetchPage: async (n) => pagesOf(rows(2500), 2500)(n),
    });
    expect(progress).toEqual([
      { page: 1, pageEvents: 1000, pagesKnown: 3, eventsReceived: 1000, expected: 2500 },
      { page: 2, pageEvents: 1000, pagesKnown: 3, eventsReceived: 2000, expected: 2500 },
      { page: 3, pageEvents: 500, pagesKnown: 3, eventsReceived: 2500, expected: 2500 },
    ]);
    expect(verbosePageLine(progress[2]!)).toBe('[cursor-cost] page 3: 500 events (2500 raw total)');
  });

  it('without a count the number of pages is unknown in progress, not the page reached', async () => {
    const progress: PageProgress[] = [];
    await pageEvents({
      onEvent: () => {},
      onProgress: (p) => progress.push(p),
      fetchPage: async (n) => pagesOf(rows(1500), null)(n),
    });
    expect(progress.map((p) => [p.page, p.pagesKnown, p.expected])).toEqual([
      [1, null, null],
      [2, null, null],
    ]);
  });

  it('pages requested but not yet consumed are at most twice the concurrency', async () => {
    const all = rows(9500);
    const requested: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const attempt = pageEvents({
      concurrency: 2,
      onEvent: () => {},
      fetchPage: async (n) => {
        requested.push(n);
        // Page 2 is slow: the pages after it arrive and wait to be consumed.
        if (n === 2) await released;
        return page(all.slice((n - 1) * 1000, n * 1000), 9500);
      },
    });
    await turns(20);
    // Pages 3–6 wait behind page 2: 2 × 2 of them, and not a 5th.
    expect(requested).toEqual([1, 2, 3, 4, 5, 6]);
    release();
    expect((await attempt).delivered).toBe(9500);
    expect(requested).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('the empty page that proves completion is reported too', async () => {
    const progress: PageProgress[] = [];
    const all = rows(2000);
    await pageEvents({
      onEvent: () => {},
      onProgress: (p) => progress.push(p),
      fetchPage: async (n) =>
        n <= 2 ? page(all.slice((n - 1) * 1000, n * 1000), 2000) : page(undefined, 2000),
    });
    expect(progress.map(verbosePageLine)).toEqual([
      '[cursor-cost] page 1: 1000 events (1000 raw total)',
      '[cursor-cost] page 2: 1000 events (2000 raw total)',
      '[cursor-cost] page 3: 0 events (2000 raw total)',
    ]);
  });
});
