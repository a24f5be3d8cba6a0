import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_SUB, loadDemoAccount } from '../../fixtures/demo/account.js';
import { type EventsScenario, generateEvents } from '../fake-cursor/events.js';
import { expandRelativeDates } from '../fake-cursor/scenario-file.js';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';

const COOKIE = 'user_a%3A%3Aheader.payload.sig';
const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';
const scene = useScene();

const start = (account: Partial<FakeAccount>, latencyMs?: number): Promise<FakeCursor> =>
  scene.serve([{ cookies: [COOKIE], ...account }], { latencyMs });

interface CallOptions {
  method?: 'GET' | 'POST';
  cookie?: string | null;
  origin?: string | null;
  body?: unknown;
  signal?: AbortSignal;
}

function call(path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookie =
    options.cookie === undefined ? `other=1; WorkosCursorSessionToken=${COOKIE}` : options.cookie;
  if (cookie !== null) headers.cookie = cookie;
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  if (method === 'POST' && options.origin !== null) headers.origin = options.origin ?? 'https://cursor.com';
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${scene.fake!.url}${path}`, { method, headers, body, signal: options.signal });
}

const page = (n: number, extra: Record<string, unknown> = {}) => ({ page: n, pageSize: 10, ...extra });
type EventsPage = { totalUsageEventsCount?: number; usageEventsDisplay?: { timestamp?: string }[] };
const eventsPage = async (n: number, extra?: Record<string, unknown>) =>
  (await (await call(EVENTS_PATH, { body: page(n, extra) })).json()) as EventsPage;

const NOW = new Date('2026-11-20T12:00:00Z');
const events = (count: number, seed = 7) =>
  generateEvents({ count, start: new Date('2026-11-01T00:00:00Z'), end: NOW, seed });

describe('fake cursor.com: sessions, origin and routes', () => {
  it.each([
    ['an unknown session cookie', 'WorkosCursorSessionToken=someone-else'],
    ['no cookie at all', null],
    ['the right value under another cookie name', `SessionToken=${COOKIE}`],
  ])('answers 401 not_authenticated for %s', async (_, cookie) => {
    await start({ usageSummary: { json: {} } });
    const res = await call('/api/usage-summary', { cookie });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'not_authenticated' });
  });

  it('answers 403 to a POST without Origin: https://cursor.com, even with a valid session', async () => {
    await start({ sand: { json: { usagePercent: 1 } } });
    for (const origin of [null, 'https://evil.example']) {
      const res = await call('/api/dashboard/get-sand-usage-status', { body: {}, origin });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: 'Invalid origin for state-changing request' });
    }
  });

  it('answers 404 {} for an account endpoint with no handler, and 404 for an unknown path', async () => {
    await start({});
    const missing = await call('/api/dashboard/v2/usage-status?scope=user');
    expect([missing.status, await missing.json()]).toEqual([404, {}]);
    expect((await call('/api/not-a-route')).status).toBe(404);
  });

  it('serves each route from its account handler and picks the account by its session cookie', async () => {
    const fake = await scene.serve([
      { cookies: ['first'], me: { json: { sub: 'auth0|first' } } },
      { cookies: ['second', 'second-alt'], me: { json: { sub: 'auth0|second' } } },
    ]);
    const me = await call('/api/auth/me', { cookie: 'WorkosCursorSessionToken=second-alt' });
    expect(await me.json()).toEqual({ sub: 'auth0|second' });
    expect(fake.requests[0]?.accountIndex).toBe(1);
  });

  it('records method, path, decoded query, lower-case headers, JSON body and account of every request', async () => {
    await start({ legacyUsage: { json: { 'gpt-4': {} } }, teams: { json: { teams: [] } } });
    await call('/api/usage?user=auth0%7C12345');
    await call('/api/dashboard/teams', { body: {} });
    await call('/api/usage-summary', { cookie: null });
    const [usage, teams, anonymous] = scene.fake!.requests;
    expect(usage).toMatchObject({ method: 'GET', path: '/api/usage', query: { user: 'auth0|12345' } });
    expect(usage?.accountIndex).toBe(0);
    expect(usage?.headers.cookie).toContain('WorkosCursorSessionToken=');
    expect(teams).toMatchObject({ method: 'POST', body: {}, headers: { origin: 'https://cursor.com' } });
    expect(anonymous?.accountIndex).toBeUndefined();
  });

  it('records a request before answering, so a client that gives up is still counted', async () => {
    await start({ usageSummary: { json: {}, delayMs: 60_000 } });
    const controller = new AbortController();
    const pending = call('/api/usage-summary', { signal: controller.signal });
    await expect.poll(() => scene.fake!.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
  });

  it('still answers and records with a server latency, set at start or later', async () => {
    await start({ usageSummary: { json: { membershipType: 'pro' } } }, 15);
    expect(await (await call('/api/usage-summary')).json()).toEqual({ membershipType: 'pro' });
    scene.fake!.setLatency(5);
    expect((await call('/api/usage-summary')).status).toBe(200);
    expect(scene.fake!.requests).toHaveLength(2);
  });

  it('passes handlers an attempt number per account and endpoint, for retry tests', async () => {
    const seen: number[] = [];
    await start({
      usageSummary: (_req, attempt) => {
        seen.push(attempt);
        return attempt === 0 ? { status: 503, headers: { 'Retry-After': '2' } } : { json: {} };
      },
    });
    const first = await call('/api/usage-summary');
    expect([first.status, first.headers.get('retry-after')]).toEqual([503, '2']);
    expect((await call('/api/usage-summary')).status).toBe(200);
    expect(seen).toEqual([0, 1]);
  });

  it('sends a raw text body as given (truncated JSON) and resets the socket on destroy', async () => {
    await start({ usageSummary: { text: '{"membershipType":"pr' }, me: { destroy: true } });
    const res = await call('/api/usage-summary');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"membershipType":"pr');
    await expect(call('/api/auth/me')).rejects.toThrow();
  });

  it('streams a body in chunks without a Content-Length: a set size, or without end until the client leaves', async () => {
    await start({
      usageSummary: { stream: { chunk: 'abc', bytes: 10 } },
      me: { stream: { chunk: 'x'.repeat(4096) } },
    });
    const sized = await call('/api/usage-summary');
    expect(sized.headers.get('content-length')).toBeNull();
    expect(await sized.text()).toBe('abcabcabca');

    const abort = new AbortController();
    const endless = await call('/api/auth/me', { signal: abort.signal });
    const reader = endless.body!.getReader();
    let received = 0;
    while (received < 1024 * 1024) received += (await reader.read()).value?.length ?? 0;
    abort.abort();
    // Still streaming after a megabyte: only the client going away ends it.
    expect(received).toBeGreaterThanOrEqual(1024 * 1024);
  });
});

describe('fake cursor.com: usage events scenario', () => {
  it('pages the events, newest first, with the window count on every page and no array past the end', async () => {
    const all = events(25);
    await start({ events: { events: all } });
    const pages = [await eventsPage(1), await eventsPage(2), await eventsPage(3), await eventsPage(4)];
    expect(pages.map((p) => p.usageEventsDisplay?.length)).toEqual([10, 10, 5, undefined]);
    expect(pages.map((p) => p.totalUsageEventsCount)).toEqual([25, 25, 25, 25]);
    expect(pages[0]?.usageEventsDisplay?.[0]).toEqual(all[0]);
  });

  it('filters by the startDate/endDate ms strings and answers {} for an empty window', async () => {
    const all = events(40);
    await start({ events: { events: all } });
    const from = String(Date.parse('2026-11-12T00:00:00Z'));
    const inside = all.filter((e) => Number(e.timestamp) >= Number(from));
    const first = await eventsPage(1, { startDate: from, endDate: String(NOW.getTime()) });
    expect(first.totalUsageEventsCount).toBe(inside.length);
    expect(await eventsPage(1, { startDate: '1', endDate: '2' })).toEqual({});
  });

  it.each([
    ['no page', { pageSize: 10 }],
    ['no pageSize', { page: 1 }],
    ['a non-numeric startDate', { page: 1, pageSize: 10, startDate: 'yesterday' }],
  ])('rejects a request with %s as 400', async (_, body) => {
    await start({ events: { events: events(3) } });
    expect((await call(EVENTS_PATH, { body })).status).toBe(400);
  });

  it('repeats the last rows of a page at the start of the next one when asked to overlap', async () => {
    const all = events(25);
    await start({ events: { events: all, overlap: { afterPage: 1, rows: 3 } } });
    const [p1, p2, p3] = [await eventsPage(1), await eventsPage(2), await eventsPage(3)];
    expect(p2.usageEventsDisplay?.slice(0, 3)).toEqual(p1.usageEventsDisplay?.slice(7));
    expect(p2.usageEventsDisplay?.[3]).toEqual(all[10]);
    expect(p3.usageEventsDisplay).toHaveLength(8);
    expect(p3.totalUsageEventsCount).toBe(25);
  });

  it('uses a fixed, omitted or per-page count, explicit pages and the chosen empty shape', async () => {
    const scenario: EventsScenario = {
      events: events(12),
      count: (n) => (n === 1 ? null : n === 2 ? 99 : undefined),
      pages: { 3: 'omit-array' },
      emptyShape: 'empty-object',
    };
    await start({ events: scenario });
    const p1 = await eventsPage(1);
    expect('totalUsageEventsCount' in p1).toBe(false);
    expect((await eventsPage(2)).totalUsageEventsCount).toBe(99);
    expect(await eventsPage(3)).toEqual({ totalUsageEventsCount: 12 });
    expect(await eventsPage(4)).toEqual({});
  });

  it('fails a page only for the first `times` attempts, with status and Retry-After', async () => {
    await start({
      events: { events: events(15), faults: [{ page: 2, status: 429, times: 1, retryAfter: '3' }] },
    });
    expect((await call(EVENTS_PATH, { body: page(1) })).status).toBe(200);
    const failed = await call(EVENTS_PATH, { body: page(2) });
    expect([failed.status, failed.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await eventsPage(2)).usageEventsDisplay).toHaveLength(5);
  });

  it('sends half a page on a truncated fault and resets the socket on a destroy fault', async () => {
    await start({
      events: {
        events: events(15),
        faults: [
          { page: 1, truncated: true },
          { page: 2, destroy: true },
        ],
      },
    });
    const truncated = await call(EVENTS_PATH, { body: page(1) });
    expect(truncated.status).toBe(200);
    await expect(truncated.json()).rejects.toThrow();
    await expect(call(EVENTS_PATH, { body: page(2) })).rejects.toThrow();
  });
});

describe('generateEvents and the demo account', () => {
  it('is deterministic per seed, newest first and inside [start, end]', () => {
    const a = events(500, 42);
    expect(events(500, 42)).toEqual(a);
    expect(events(500, 43)).not.toEqual(a);
    const stamps = a.map((e) => Number(e.timestamp));
    expect(stamps).toEqual([...stamps].sort((x, y) => y - x));
    expect(Math.min(...stamps)).toBeGreaterThanOrEqual(Date.parse('2026-11-01T00:00:00Z'));
    expect(Math.max(...stamps)).toBeLessThanOrEqual(NOW.getTime());
    expect(a.every((e) => typeof e.timestamp === 'string' && e.tokenUsage !== undefined)).toBe(true);
  });

  it('leaves out totalCents and chargedCents on every Nth event when asked', () => {
    const list = generateEvents({
      count: 30,
      start: new Date(0),
      end: NOW,
      seed: 1,
      withoutTotalCentsEvery: 10,
    });
    expect(list.filter((e) => e.tokenUsage?.totalCents === undefined)).toHaveLength(3);
    const uncharged = generateEvents({
      count: 30,
      start: new Date(0),
      end: NOW,
      seed: 1,
      withoutChargedCentsEvery: 5,
    });
    expect(uncharged.filter((e) => e.chargedCents === undefined)).toHaveLength(6);
  });

  it('expands relative-date placeholders against now', () => {
    expect(expandRelativeDates({ a: ['{{now-1d-2h}}', '{{ms:now+30s}}', 'now'] }, NOW)).toEqual({
      a: ['2026-11-19T10:00:00.000Z', String(NOW.getTime() + 30_000), 'now'],
    });
  });

  it('places the demo cycle around now and serves the sample identity to its cookie only', async () => {
    const account = loadDemoAccount(NOW, COOKIE);
    await start(account);
    const summary = (await (await call('/api/usage-summary')).json()) as Record<string, string>;
    expect(Date.parse(summary.billingCycleStart!)).toBeLessThan(NOW.getTime());
    expect(Date.parse(summary.billingCycleEnd!)).toBeGreaterThan(NOW.getTime());
    expect(await (await call('/api/auth/me')).json()).toMatchObject({ email: DEMO_EMAIL, sub: DEMO_SUB });
    const first = await eventsPage(1, { pageSize: 1000 });
    expect(first.totalUsageEventsCount).toBeGreaterThan(2000);
  });
});
