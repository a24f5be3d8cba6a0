/**
 * One request, from head to answer: head checks, method, route, auth,
 * query, then the route itself under the request deadline.
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { AccountSelectionError, messageFor } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import type { CostRow } from '../render/cost-json.js';
import type { UsageRow } from '../render/usage-json.js';
import { orAfter } from '../server/deadline.js';
import { getOrInsert, type Served } from './cache.js';
import type { ServeData } from './data-service.js';
import type { CursorDataSource, ServeConfig, UsageSelection } from './data-source.js';
import { checkHead } from './head.js';
import { METRICS_TYPE, renderMetrics } from './metrics.js';
import { NextLoad } from './next-load.js';
import type { PageAsset, PageAssets } from './page/assets.js';
import { PAGE_CSP } from './page/assets.js';
import { accountSelection, detailLevel, isResponse, providerSelection } from './query.js';
import {
  badQuery,
  expectationFailed,
  forbiddenHost,
  invalidRequest,
  JSON_TYPE,
  jsonResponse,
  methodNotAllowed,
  NO_STORE,
  notFound,
  requestTimedOut,
  type ServeResponse,
  serverError,
  unauthorized,
} from './responses.js';
import { bearerAuthorized, type ServeSettings } from './settings.js';
import { buildSnapshot } from './snapshot.js';

export interface AppOptions {
  settings: ServeSettings;
  source: CursorDataSource;
  data: ServeData;
  page: PageAssets;
  version: string;
  /** The cache clock (ms), the same one ServeData uses. */
  now: () => number;
  /** Wall clock for `generatedAt`. */
  clock: () => Date;
}

/** Who may call a route: anyone, anyone on a loopback bind, or only a Bearer token. */
type Access = 'open' | 'loopback-or-token' | 'token';

interface RequestContext {
  query: URLSearchParams;
  /** Milliseconds this request may still wait for a fetch (0.8 × the timeout, from its arrival). */
  fetchBudget(): number | undefined;
}

interface Route {
  access: Access;
  run(context: RequestContext): Promise<ServeResponse> | ServeResponse;
}

const HEAD_REFUSALS = { 400: invalidRequest, 403: forbiddenHost, 417: expectationFailed };

/** Each provider gets 0.8 × the request timeout. */
const PROVIDER_SHARE = 0.8;
/** How long a hung config read holds back the next one. */
const CONFIG_STALL_MS = 1000;

export function createApp(options: AppOptions): (request: IncomingMessage) => Promise<ServeResponse> {
  const routes = buildRoutes(options);
  const timeoutMs = options.settings.requestTimeoutSeconds * 1000;

  return async (request) => {
    const arrivedAt = performance.now();
    const head = checkHead(
      {
        method: request.method ?? '',
        httpVersion: request.httpVersion,
        target: request.url ?? '',
        rawHeaders: request.rawHeaders,
      },
      options.settings,
    );
    if (!head.ok) return HEAD_REFUSALS[head.status]();
    if (request.method !== 'GET') return methodNotAllowed();
    const route = routes.get(head.path);
    if (!route) return notFound();
    if (!allowed(route.access, head.authorization, options.settings)) return unauthorized();
    const context: RequestContext = {
      query: head.query,
      fetchBudget: () =>
        timeoutMs > 0 ? PROVIDER_SHARE * timeoutMs - (performance.now() - arrivedAt) : undefined,
    };
    const answer = Promise.resolve(route.run(context)).catch((error: unknown) =>
      serverError(messageFor(error)),
    );
    // Whole milliseconds: Node keeps one timer list per distinct duration, and a fractional remainder
    // would make a new list for every request.
    return timeoutMs > 0
      ? orAfter(answer, Math.round(timeoutMs - (performance.now() - arrivedAt)), requestTimedOut)
      : answer;
  };
}

function allowed(access: Access, authorization: string | undefined, settings: ServeSettings): boolean {
  if (access === 'open' || (access === 'loopback-or-token' && settings.loopback)) return true;
  return bearerAuthorized(authorization, settings.tokenDigest);
}

function buildRoutes(options: AppOptions): Map<string, Route> {
  const { settings, source, data, page } = options;
  const configs = new NextLoad(() => source.loadConfig(), CONFIG_STALL_MS);
  // The same bytes for every caller: encoded once.
  const healthAnswer = jsonResponse(200, { status: 'ok', version: options.version });
  const health: Route = { access: 'open', run: () => healthAnswer };
  /** /usage and /cost: the provider check, the config of this request, then the cache. */
  const dataRoute = (
    serve: (config: ServeConfig, context: RequestContext) => Promise<Served<unknown> | ServeResponse>,
  ): Route => ({
    access: 'loopback-or-token',
    run: async (context) => {
      const selection = providerSelection(context.query);
      if (isResponse(selection)) return selection;
      const served = await serve(await configs.get(), context);
      return isResponse(served) ? served : servedResponse(served, options.now());
    },
  });
  // /usage takes `usage`'s account selection; a bad one is 400 with its sentence.
  const usage = dataRoute(async (config, { query, fetchBudget }) => {
    const flags = accountSelection(query);
    if (isResponse(flags)) return flags;
    let selection: UsageSelection;
    try {
      selection = source.selectUsage(config, flags.flags);
    } catch (error) {
      if (error instanceof AccountSelectionError) return badQuery(error.message);
      throw error;
    }
    return data.usage(config, selection, fetchBudget());
  });
  const cost = dataRoute((config, { fetchBudget }) => data.cost(config, fetchBudget()));
  const snapshot: Route = {
    access: 'token',
    run: async (context) => {
      const selection = providerSelection(context.query);
      if (isResponse(selection)) return selection;
      const detail = detailLevel(context.query);
      if (isResponse(detail)) return detail;
      const config = await configs.get();
      const fetch = detail.detail === 'full' && config.enabled;
      const [usageServed, costServed] = fetch
        ? await Promise.all([
            data.usage(config, source.selectUsage(config), context.fetchBudget()),
            data.cost(config, context.fetchBudget()),
          ])
        : [undefined, undefined];
      const body = buildSnapshot({
        version: options.version,
        generatedAt: options.clock(),
        refreshIntervalSeconds: settings.refreshIntervalSeconds,
        identity: settings.identity,
        enabled: config.enabled,
        source: config.sourceLabel,
        usage: usageServed,
        cost: costServed,
        nowMs: options.now(),
      });
      return jsonResponse(200, body, { noStore: true });
    },
  };
  // /metrics: the same cached answers as /usage (the default accounts) and /cost, so a scrape never
  // fetches more often than a client of those routes would. An answer carrying an error row is never
  // cached, so while cursor.com fails with nothing cached each request fetches again: a scrape reuses such
  // an answer for the refresh interval instead (unless a fetch runs, which asking again would only join).
  let failedScrape: { key: string; at: number; answers: ScrapeAnswers } | undefined;
  const metrics: Route = {
    access: 'loopback-or-token',
    run: async (context) => {
      const config = await configs.get();
      let answers: ScrapeAnswers | undefined;
      if (config.enabled) {
        const selection = source.selectUsage(config);
        const key = `${config.hash}|${selection.key}`;
        const reuse =
          failedScrape?.key === key &&
          options.now() - failedScrape.at < settings.refreshIntervalSeconds * 1000 &&
          data.runningFetches() === 0;
        if (reuse && failedScrape) answers = failedScrape.answers;
        else {
          answers = await Promise.all([
            data.usage(config, selection, context.fetchBudget()),
            data.cost(config, context.fetchBudget()),
          ]);
          failedScrape = answers.some(failedFetch) ? { key, at: options.now(), answers } : undefined;
        }
      }
      const text = await renderMetrics({
        version: options.version,
        usage: answers?.[0],
        cost: answers?.[1],
        fetches: data.fetchRecords(),
      });
      return {
        status: 200,
        headers: { 'Content-Type': METRICS_TYPE, 'Cache-Control': NO_STORE },
        body: Buffer.from(text, 'utf8'),
      };
    },
  };
  const index: Route = {
    access: 'open',
    run: () => assetResponse(page.index, { 'Content-Security-Policy': PAGE_CSP, 'Cache-Control': NO_STORE }),
  };
  const routes = new Map<string, Route>([
    ['/health', health],
    ['/usage', usage],
    ['/cost', cost],
    ['/dashboard/v1/snapshot', snapshot],
    ['/metrics', metrics],
    ['/', index],
  ]);
  for (const [path, asset] of page.files) {
    routes.set(path, { access: 'open', run: () => assetResponse(asset, { 'Cache-Control': NO_STORE }) });
  }
  for (const [path, icon] of page.icons) {
    routes.set(path, { access: 'open', run: () => assetResponse(icon, { 'Cache-Control': 'no-cache' }) });
  }
  return routes;
}

function assetResponse(asset: PageAsset, headers: Record<string, string>): ServeResponse {
  return {
    status: 200,
    headers: {
      'Content-Type': asset.type,
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cross-Origin-Resource-Policy': 'same-origin',
      ...headers,
    },
    body: asset.body,
  };
}

type ScrapeAnswers = [Served<UsageRow>, Served<CostRow>];

/** An answer from a fetch that failed: an error row the cache did not keep, or a last good row in its place. */
const failedFetch = (served: Served<{ error?: unknown }>): boolean =>
  served.state === 'fallback' ||
  (served.state === 'miss' && served.rows.some((row) => row.error !== undefined));

/** The rows plus their source and age (docs/invariants.md, "No cached figure as fresh"). */
function servedResponse(served: Served<unknown>, nowMs: number): ServeResponse {
  const age = Math.max(0, Math.floor((nowMs - served.fetchedAt) / 1000));
  return {
    status: 200,
    headers: {
      'Content-Type': JSON_TYPE,
      'Cache-Control': NO_STORE,
      'X-CodexBar-Cache': served.state,
      Age: String(age),
    },
    body: getOrInsert(encodedBodies, served.rows, encodeRows),
  };
}

/** A cached answer is the same array on every hit: encode it once, not once per request. */
const encodedBodies = new WeakMap<readonly unknown[], Buffer>();
const encodeRows = (rows: readonly unknown[]): Buffer => Buffer.from(encodeJson(rows), 'utf8');
