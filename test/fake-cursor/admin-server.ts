/**
 * A loopback Cursor Admin API for tests and the team benchmark: Basic auth with
 * the key as the user name and an empty password, the documented shapes and pagination, 30-day windows,
 * and rate limits per endpoint family that answer 429 with Retry-After once exceeded. It counts what it
 * accepts per window, so a test can prove the client never went over.
 */
import http from 'node:http';
import { dailyUsageHandler, spendHandler, usageEventsHandler } from './admin-handlers.js';
import type { AdminFamily, AdminStats, FakeAdmin, FakeAdminOptions } from './admin-types.js';
import { listenOnLoopback, recordRequest, send } from './server.js';
import type { FakeResponse, RecordedRequest } from './types.js';

export type * from './admin-types.js';

const ADMIN_LIMITS: Record<AdminFamily, number> = { spend: 20, dailyUsage: 20, usageEvents: 60 };

const ROUTES: Record<string, AdminFamily> = {
  '/teams/spend': 'spend',
  '/teams/daily-usage-data': 'dailyUsage',
  '/teams/filtered-usage-events': 'usageEvents',
};

const FAMILIES = Object.keys(ADMIN_LIMITS) as AdminFamily[];
const perFamily = (value: number) =>
  Object.fromEntries(FAMILIES.map((family) => [family, value])) as Record<AdminFamily, number>;

function basicUser(header: string | undefined): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  // The key is the user name and the password is empty: exactly one colon, at the end.
  return decoded.endsWith(':') && decoded.indexOf(':') === decoded.length - 1
    ? decoded.slice(0, -1)
    : undefined;
}

export async function startFakeAdmin(options: FakeAdminOptions): Promise<FakeAdmin> {
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? 60_000;
  const limits = { ...ADMIN_LIMITS, ...options.limits };
  const handlers = {
    spend: spendHandler(options),
    dailyUsage: dailyUsageHandler(options),
    usageEvents: usageEventsHandler(options),
  };
  const requests: RecordedRequest[] = [];
  const stats: AdminStats = { accepted: perFamily(0), rateLimited: perFamily(0), peakInWindow: perFamily(0) };
  const arrivals = new Map<AdminFamily, number[]>(FAMILIES.map((family) => [family, []]));
  const faultHits = new Map<number, number>();

  /** Sliding window: a request is refused when the window already holds `limit` accepted ones. */
  const rateLimit = (family: AdminFamily): FakeResponse | undefined => {
    const t = now();
    const times = arrivals.get(family)!;
    while (times.length > 0 && times[0]! <= t - windowMs) times.shift();
    if (times.length >= limits[family]) {
      stats.rateLimited[family]++;
      const seconds = Math.max(1, Math.ceil((times[0]! + windowMs - t) / 1000));
      return {
        status: 429,
        json: { error: 'Rate limit exceeded' },
        headers: { 'retry-after': String(seconds) },
      };
    }
    times.push(t);
    stats.peakInWindow[family] = Math.max(stats.peakInWindow[family], times.length);
    return undefined;
  };

  const fault = (recorded: RecordedRequest): FakeResponse | undefined => {
    const page = (recorded.body as { page?: unknown } | undefined)?.page ?? 1;
    const index = (options.faults ?? []).findIndex(
      (f, i) =>
        f.path === recorded.path &&
        (f.page === undefined || f.page === page) &&
        (f.times === undefined || (faultHits.get(i) ?? 0) < f.times),
    );
    if (index < 0) return undefined;
    faultHits.set(index, (faultHits.get(index) ?? 0) + 1);
    const f = options.faults![index]!;
    if (f.answer) return f.answer;
    return {
      status: f.status,
      json: { error: 'fault' },
      headers: f.retryAfter === undefined ? undefined : { 'retry-after': f.retryAfter },
    };
  };

  const answer = (recorded: RecordedRequest): FakeResponse => {
    const family = ROUTES[recorded.path];
    if (!family) return { status: 404, json: { error: 'Not found' } };
    if (recorded.method !== 'POST') return { status: 405, json: { error: 'Method not allowed' } };
    if (basicUser(recorded.headers.authorization) !== options.apiKey) {
      return { status: 401, json: { error: 'Unauthorized' } };
    }
    if (options.forbidden) return { status: 403, json: { error: 'Admin API is not available on this plan' } };
    const limited = rateLimit(family);
    if (limited) return limited;
    const faulted = fault(recorded);
    if (faulted) return faulted;
    const body = recorded.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return { status: 400, json: { error: 'body must be a JSON object' } };
    }
    stats.accepted[family]++;
    return handlers[family](body as Record<string, unknown>);
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      let response: FakeResponse;
      try {
        const recorded = await recordRequest(req);
        requests.push(recorded);
        response = answer(recorded);
      } catch (error) {
        response = { status: 500, text: `fake Admin API handler failed: ${String(error)}` };
      }
      send(res, response);
    })();
  });
  const listener = await listenOnLoopback(server);
  return { url: listener.url, requests, stats, close: listener.close };
}
