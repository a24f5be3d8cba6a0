import type {
  EmptyPageShape,
  EventsFault,
  EventsScenario,
  FakeResponse,
  HandlerFunction,
  UsageEventJson,
} from './types.js';

export { generateEvents } from './generate-events.js';
export type { EventsScenario, UsageEventJson } from './types.js';

interface EventsQuery {
  page: number;
  pageSize: number;
  startMs: number | undefined;
  endMs: number | undefined;
}

/** An object with an `events` array is a scenario; anything else is a plain handler. */
export function isEventsScenario(value: unknown): value is EventsScenario {
  return typeof value === 'object' && value !== null && Array.isArray((value as { events?: unknown }).events);
}

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1;

/** Bounds are decimal ms strings; protobuf JSON would also take a number. */
function parseBound(value: unknown): number | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return 'invalid';
}

function parseQuery(body: unknown): EventsQuery | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body must be a JSON object';
  const { page, pageSize, startDate, endDate } = body as Record<string, unknown>;
  if (!isPositiveInteger(page)) return 'page must be a positive integer';
  if (!isPositiveInteger(pageSize)) return 'pageSize must be a positive integer';
  const startMs = parseBound(startDate);
  const endMs = parseBound(endDate);
  if (startMs === 'invalid' || endMs === 'invalid') return 'startDate/endDate must be ms strings';
  return { page, pageSize, startMs, endMs };
}

function activeFault(
  faults: EventsFault[] | undefined,
  page: number,
  attempt: number,
): EventsFault | undefined {
  return faults?.find((f) => f.page === page && (f.times === undefined || attempt < f.times));
}

function faultResponse(fault: EventsFault, pageText: string): FakeResponse {
  const response: FakeResponse = { text: pageText };
  if (fault.status !== undefined) {
    response.status = fault.status;
    response.text = JSON.stringify({ error: 'fault' });
  }
  if (fault.truncated) response.text = pageText.slice(0, Math.floor(pageText.length / 2));
  if (fault.retryAfter !== undefined) response.headers = { 'retry-after': fault.retryAfter };
  if (fault.delayMs !== undefined) response.delayMs = fault.delayMs;
  if (fault.destroy) response.destroy = true;
  return response;
}

/**
 * The `get-filtered-usage-events` logic for one scenario. Window filtering, the served row stream
 * (with any overlap) and each page's JSON are computed once per query and cached, so large
 * scenarios page quickly in benchmarks.
 */
export function createEventsHandler(scenario: EventsScenario): HandlerFunction {
  const windows = new Map<string, UsageEventJson[]>();
  const streams = new Map<string, UsageEventJson[]>();
  const pageTexts = new Map<string, string>();
  let stamps: Float64Array | undefined;

  const windowEvents = (q: EventsQuery): UsageEventJson[] => {
    const key = `${q.startMs}|${q.endMs}`;
    let rows = windows.get(key);
    if (!rows) {
      // Each new window (a client paging a fresh "now") starts a new cache, so long benchmark
      // runs do not keep every earlier window's pages alive.
      if (windows.size >= 4) {
        windows.clear();
        streams.clear();
        pageTexts.clear();
      }
      stamps ??= Float64Array.from(scenario.events, (e) => Number(e.timestamp));
      const start = q.startMs ?? Number.NEGATIVE_INFINITY;
      const end = q.endMs ?? Number.POSITIVE_INFINITY;
      // An event without a usable timestamp cannot be placed, so every window lists it.
      const inWindow = (t: number) => Number.isNaN(t) || (t >= start && t <= end);
      rows = stamps.every(inWindow)
        ? scenario.events
        : scenario.events.filter((_, i) => inWindow(stamps![i]!));
      windows.set(key, rows);
    }
    return rows;
  };

  // Rows as the server hands them out: the window, plus repeated rows at a page boundary.
  const servedRows = (q: EventsQuery): UsageEventJson[] => {
    const key = `${q.startMs}|${q.endMs}|${q.pageSize}`;
    let rows = streams.get(key);
    if (!rows) {
      rows = windowEvents(q);
      const overlap = scenario.overlap;
      const cut = overlap ? overlap.afterPage * q.pageSize : 0;
      if (overlap && overlap.rows > 0 && cut > 0 && cut <= rows.length) {
        const repeated = rows.slice(Math.max(0, cut - overlap.rows), cut);
        rows = [...rows.slice(0, cut), ...repeated, ...rows.slice(cut)];
      }
      streams.set(key, rows);
    }
    return rows;
  };

  const countFor = (q: EventsQuery): number | null => {
    const fallback = windowEvents(q).length;
    const { count } = scenario;
    if (typeof count === 'function') {
      const value = count(q.page);
      return value === undefined ? fallback : value;
    }
    return count === undefined ? fallback : count;
  };

  const envelope = (q: EventsQuery, rows: UsageEventJson[] | EmptyPageShape): string => {
    if (rows === 'empty-object') return '{}';
    const count = countFor(q);
    const body: Record<string, unknown> = {};
    if (count !== null) body.totalUsageEventsCount = count;
    if (rows !== 'omit-array') body.usageEventsDisplay = rows;
    return JSON.stringify(body);
  };

  const pageText = (q: EventsQuery): string => {
    const key = `${q.startMs}|${q.endMs}|${q.pageSize}|${q.page}`;
    let text = pageTexts.get(key);
    if (text === undefined) {
      const override = scenario.pages?.[q.page];
      if (override !== undefined) {
        text = envelope(q, override);
      } else {
        const from = (q.page - 1) * q.pageSize;
        const rows = servedRows(q).slice(from, from + q.pageSize);
        const emptyShape =
          scenario.emptyShape ?? (windowEvents(q).length === 0 ? 'empty-object' : 'omit-array');
        text = envelope(q, rows.length > 0 ? rows : emptyShape);
      }
      // A count function may change its mind between calls (tests of drifting counts), so only
      // static scenarios are cached.
      if (typeof scenario.count !== 'function') pageTexts.set(key, text);
    }
    return text;
  };

  return (req, attempt) => {
    const query = parseQuery(req.body);
    if (typeof query === 'string') return { status: 400, json: { error: query } };
    const text = pageText(query);
    const fault = activeFault(scenario.faults, query.page, attempt);
    return fault ? faultResponse(fault, text) : { text };
  };
}

/** A token count or cents as cursor.com's roll-up would add it: a finite number, else nothing. */
function amount(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : 0;
}

const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
const TOTAL_FIELDS = {
  inputTokens: 'totalInputTokens',
  outputTokens: 'totalOutputTokens',
  cacheReadTokens: 'totalCacheReadTokens',
  cacheWriteTokens: 'totalCacheWriteTokens',
} as const;

/**
 * `get-aggregated-usage-events` for one scenario: the events of `[startDate, endDate]` (inclusive, as the
 * events endpoint) rolled up per model, token counts as decimal strings absent when zero, as cursor.com
 * answers (../shared/reference/peers.md §4.2 in the project's spec). Computed from the scenario's events
 * on every request, so a test that re-rates events in place sees the new totals.
 */
export function createAggregatedHandler(scenario: EventsScenario): HandlerFunction {
  return (req) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<
      string,
      unknown
    >;
    const start = parseBound(body.startDate);
    const end = parseBound(body.endDate);
    if (start === 'invalid' || end === 'invalid') return { status: 400, json: { error: 'bad dates' } };
    const models = new Map<string, Record<string, number>>();
    const totals: Record<string, number> = { totalCostCents: 0 };
    for (const event of scenario.events) {
      const t = Number(event.timestamp);
      if (!(t >= (start ?? Number.NEGATIVE_INFINITY) && t <= (end ?? Number.POSITIVE_INFINITY))) continue;
      const usage = event.tokenUsage;
      if (usage === undefined) continue;
      const model = event.model ?? 'default';
      const sums = models.get(model) ?? { totalCents: 0 };
      models.set(model, sums);
      for (const field of TOKEN_FIELDS) {
        sums[field] = (sums[field] ?? 0) + amount(usage[field]);
        totals[TOTAL_FIELDS[field]] = (totals[TOTAL_FIELDS[field]] ?? 0) + amount(usage[field]);
      }
      sums.totalCents! += amount(usage.totalCents);
      totals.totalCostCents! += amount(usage.totalCents);
    }
    const counts = (sums: Record<string, number>, names: readonly string[]) =>
      Object.fromEntries(names.filter((name) => sums[name]).map((name) => [name, String(sums[name])]));
    return {
      json: {
        aggregations: [...models].map(([modelIntent, sums]) => ({
          modelIntent,
          ...counts(sums, TOKEN_FIELDS),
          totalCents: sums.totalCents,
        })),
        ...counts(totals, Object.values(TOTAL_FIELDS)),
        totalCostCents: totals.totalCostCents,
      },
    };
  };
}
