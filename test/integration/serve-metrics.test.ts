/**
 * `/metrics`: the served `/usage` and `/cost` rows in the Prometheus text format, from the same cache, with
 * the same auth, and a fetch-error counter that shows a failing cursor.com while the last good figures stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateEvents } from '../fake-cursor/generate-events.js';
import type { FakeResponse, HandlerFunction } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import {
  EVENTS,
  SERVE_COOKIE,
  SERVE_NOW,
  type ServeHarness,
  serveAccount,
  startServeHarness,
  USAGE_SUMMARY,
  until,
} from '../helpers/serve.js';
import { configWithAccountEntries } from '../helpers/token-accounts.js';

let serve: ServeHarness | undefined;
afterEach(async () => {
  await serve?.close();
  serve = undefined;
});

/** `name{label="value",…}` → value, for every sample of a scrape. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return map;
}

async function scrapeText(harness: ServeHarness, headers?: Record<string, string>): Promise<string> {
  const response = await harness.get('/metrics', headers);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  return response.body;
}

const scrape = async (harness: ServeHarness) => samples(await scrapeText(harness));

const names = (metrics: Map<string, number>, prefix: string) =>
  [...metrics.keys()].filter((key) => key.startsWith(`${prefix}{`));

const noFetchRunning = (harness: ServeHarness) =>
  until(() => harness.server.data.runningFetches() === 0, 'the running fetch to finish');

type Window = { usedPercent: number; resetsAt: string } | null;
interface UsageBody {
  usage: {
    primary: Window;
    secondary: Window;
    tertiary: Window;
    providerCost?: { used: number; limit: number };
  };
}
type Figures = { apiRateCostUSD?: number; meteredCostUSD?: number };
interface CostBody extends Figures {
  byModel: Array<Figures & { modelName: string }>;
  byKind: Record<string, Figures>;
}

/** The series a cost row's figures give: one per known figure, labelled by basis. */
function costSeries(name: string, labels: string, figures: Figures): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  if (figures.apiRateCostUSD !== undefined)
    out.push([`${name}{account="default",${labels}basis="api_rate"}`, figures.apiRateCostUSD]);
  if (figures.meteredCostUSD !== undefined)
    out.push([`${name}{account="default",${labels}basis="metered"}`, figures.meteredCostUSD]);
  return out;
}

describe('/metrics on loopback', () => {
  it('is the /usage and /cost rows in Prometheus names, from the cache they share', async () => {
    serve = await startServeHarness();
    const text = await scrapeText(serve);
    const metrics = samples(text);
    const fetched = { summary: serve.count(USAGE_SUMMARY), events: serve.count(EVENTS) };
    expect(fetched.summary).toBe(1);

    // The same answers, from the cache the scrape filled: no request upstream.
    const usageResponse = await serve.get('/usage');
    const costResponse = await serve.get('/cost');
    expect(usageResponse.headers['x-codexbar-cache']).toBe('hit');
    expect(costResponse.headers['x-codexbar-cache']).toBe('hit');
    const [usage] = usageResponse.json() as UsageBody[];
    const [cost] = costResponse.json() as CostBody[];

    const expected: Array<[string, number]> = [['codexbar_build_info{version="9.9.9"}', 1]];
    for (const window of ['primary', 'secondary', 'tertiary'] as const) {
      const figures = usage?.usage[window];
      if (!figures) continue;
      const labels = `{account="default",window="${window}"}`;
      expected.push([`codexbar_plan_used_ratio${labels}`, figures.usedPercent / 100]);
      expected.push([`codexbar_plan_reset_timestamp_seconds${labels}`, Date.parse(figures.resetsAt) / 1000]);
    }
    const onDemand = usage?.usage.providerCost;
    expect(onDemand).toBeDefined();
    expected.push(['codexbar_on_demand_spend_dollars{account="default"}', onDemand?.used ?? Number.NaN]);
    expected.push(['codexbar_on_demand_limit_dollars{account="default"}', onDemand?.limit ?? Number.NaN]);
    expected.push(...costSeries('codexbar_cost_dollars', '', cost ?? {}));
    for (const model of cost?.byModel ?? [])
      expected.push(...costSeries('codexbar_cost_by_model_dollars', `model="${model.modelName}",`, model));
    for (const [kind, figures] of Object.entries(cost?.byKind ?? {}))
      expected.push(...costSeries('codexbar_cost_by_kind_dollars', `kind="${kind}",`, figures));
    for (const data of ['cost', 'usage']) {
      const labels = `{account="default",data="${data}"}`;
      expected.push([`codexbar_last_success_timestamp_seconds${labels}`, SERVE_NOW.getTime() / 1000]);
      expected.push([`codexbar_fetch_errors_total${labels}`, 0]);
    }
    expect(new Map(expected)).toEqual(metrics);
    expect(names(metrics, 'codexbar_plan_used_ratio')).toHaveLength(3);
    expect(names(metrics, 'codexbar_cost_by_model_dollars').length).toBeGreaterThan(2);

    // Prometheus conventions: a unit or `_total`/`_info` suffix, a TYPE and HELP for each.
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name, type]);
    expect(types).toHaveLength(text.match(/^# HELP /gm)?.length ?? 0);
    for (const [name, type] of types) {
      expect(name).toMatch(type === 'counter' ? /_total$/ : /_(ratio|seconds|dollars|info)$/);
    }

    // A second scrape within the refresh interval asks cursor.com nothing.
    serve.clock.advance(59);
    expect(await scrape(serve)).toEqual(metrics);
    expect({ summary: serve.count(USAGE_SUMMARY), events: serve.count(EVENTS) }).toEqual(fetched);
  });

  it('an unknown value has no series, never a 0: no limit, no metered cost, no plan window', async () => {
    const events = generateEvents({
      count: 12,
      seed: 3,
      start: new Date(SERVE_NOW.getTime() - 10 * 86_400_000),
      end: new Date(SERVE_NOW.getTime() - 3_600_000),
      withoutChargedCentsEvery: 1,
    });
    serve = await startServeHarness({
      accounts: [
        proAccount(['user_serve%3A%3Aserve-session'], 'dev@example.com', {
          events: { events },
          usageSummary: {
            json: {
              billingCycleStart: '2026-11-15T00:00:00.000Z',
              billingCycleEnd: '2026-12-15T00:00:00.000Z',
              membershipType: 'pro',
              limitType: 'user',
              individualUsage: {
                plan: { enabled: true, used: 900, limit: 2000, totalPercentUsed: 45 },
                onDemand: { enabled: true, used: 700, limit: 0 },
              },
              teamUsage: {},
            },
          },
        }),
      ],
    });
    const metrics = await scrape(serve);
    expect(names(metrics, 'codexbar_plan_used_ratio')).toEqual([
      'codexbar_plan_used_ratio{account="default",window="primary"}',
    ]);
    expect(metrics.get('codexbar_on_demand_spend_dollars{account="default"}')).toBe(7);
    expect(names(metrics, 'codexbar_on_demand_limit_dollars')).toEqual([]);
    const costKeys = [
      ...names(metrics, 'codexbar_cost_dollars'),
      ...names(metrics, 'codexbar_cost_by_model_dollars'),
      ...names(metrics, 'codexbar_cost_by_kind_dollars'),
    ];
    expect(costKeys.length).toBeGreaterThan(2);
    expect(costKeys.filter((key) => key.includes('basis="metered"'))).toEqual([]);
  });

  it('cursor.com failing: still 200, the counter raised, the last good gauges with their fetch time', async () => {
    const summary = serveAccount().usageSummary as FakeResponse;
    let failing = false;
    const usageSummary: HandlerFunction = () =>
      failing ? { status: 500, json: { error: 'down' } } : summary;
    serve = await startServeHarness({ accounts: [serveAccount(undefined, { usageSummary })] });
    const good = await scrape(serve);
    const ratio = 'codexbar_plan_used_ratio{account="default",window="primary"}';
    const errors = 'codexbar_fetch_errors_total{account="default",data="usage"}';
    const success = 'codexbar_last_success_timestamp_seconds{account="default",data="usage"}';
    expect(good.get(ratio)).toBe(0.45);

    failing = true;
    serve.clock.advance(61);
    await scrape(serve); // stale: served, while a refresh runs in the background and fails
    await noFetchRunning(serve);
    const failed = await scrape(serve);
    expect(serve.count(USAGE_SUMMARY)).toBe(2);
    expect(failed.get(errors)).toBe(1);
    expect(failed.get(ratio)).toBe(0.45);
    expect(failed.get(success)).toBe(SERVE_NOW.getTime() / 1000);

    // Past the stale window the failure is all there is: no plan gauges, the counter up again.
    serve.clock.advance(3600);
    const gone = await scrape(serve);
    expect(gone.get(errors)).toBe(2);
    expect(names(gone, 'codexbar_plan_used_ratio')).toEqual([]);
    expect(gone.get(success)).toBe(SERVE_NOW.getTime() / 1000);
    expect(gone.get('codexbar_build_info{version="9.9.9"}')).toBe(1);
  });

  it('cursor.com failing with nothing cached: one upstream fetch per refresh interval, however often scraped', async () => {
    const usageSummary: HandlerFunction = () => ({ status: 500, json: { error: 'down' } });
    serve = await startServeHarness({ accounts: [serveAccount(undefined, { usageSummary })] });
    const errors = 'codexbar_fetch_errors_total{account="default",data="usage"}';
    const first = await scrape(serve);
    expect(first.get(errors)).toBe(1);
    expect(names(first, 'codexbar_plan_used_ratio')).toEqual([]);
    expect(names(first, 'codexbar_last_success_timestamp_seconds')).toEqual([
      'codexbar_last_success_timestamp_seconds{account="default",data="cost"}',
    ]);
    serve.clock.advance(30);
    expect((await scrape(serve)).get(errors)).toBe(1);
    expect(serve.count(USAGE_SUMMARY)).toBe(1);
    serve.clock.advance(31);
    expect((await scrape(serve)).get(errors)).toBe(2);
    expect(serve.count(USAGE_SUMMARY)).toBe(2);
  });

  it('a token account is labelled by its label; when it fails, its last good row stands, counted', async () => {
    const summary = serveAccount().usageSummary as FakeResponse;
    const usageSummary: HandlerFunction = (_request, attempt) =>
      attempt === 0 ? summary : { status: 500, json: { error: 'down' } };
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary })],
      config: configWithAccountEntries([{ id: 'A-1', label: 'work', token: SERVE_COOKIE, addedAt: 1 }]),
    });
    const ratio = 'codexbar_plan_used_ratio{account="work",window="primary"}';
    const good = await scrape(serve);
    expect(good.get(ratio)).toBe(0.45);
    expect(names(good, 'codexbar_plan_used_ratio').every((key) => key.includes('account="work"'))).toBe(true);

    // Past the stale window: the failed fetch's row is replaced by the last good one (/usage says `fallback`).
    serve.clock.advance(600);
    const replaced = await scrape(serve);
    expect((await serve.get('/usage')).headers['x-codexbar-cache']).toBe('fallback');
    expect(replaced.get(ratio)).toBe(0.45);
    expect(replaced.get('codexbar_fetch_errors_total{account="work",data="usage"}')).toBe(1);
    expect(replaced.get('codexbar_last_success_timestamp_seconds{account="work",data="usage"}')).toBe(
      SERVE_NOW.getTime() / 1000,
    );
  });
});

describe('/metrics on a non-loopback bind', () => {
  it('needs the Bearer token, as /usage does', async () => {
    serve = await startServeHarness({
      flags: { host: '127.0.0.2', allowPlainHttp: true },
      env: { CODEXBAR_DASHBOARD_TOKEN: 'lan-token' },
    });
    const denied = await serve.get('/metrics');
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toBe('Bearer');
    expect((await serve.get('/metrics?token=lan-token')).status).toBe(401);
    expect(serve.count(USAGE_SUMMARY)).toBe(0);
    const text = await scrapeText(serve, { Authorization: 'Bearer lan-token' });
    expect(samples(text).get('codexbar_plan_used_ratio{account="default",window="primary"}')).toBe(0.45);
  });
});
