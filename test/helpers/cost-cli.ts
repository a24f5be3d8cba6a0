import type { FakeAccount, RecordedRequest } from '../fake-cursor/server.js';
import type { CliResult, RunOptions } from './cli.js';
import { costOutputSchema } from './json-rows/cost.js';
import { openScene } from './scene.js';

const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';
export const EVENTS_ENDPOINT = `POST ${EVENTS_PATH}`;

/** A manual session the fake accepts (manual headers are not JWT-checked, only forwarded). */
export const MANUAL_COOKIE_VALUE = 'user_cost%3A%3Amanual-session';
export const MANUAL_COOKIE = `WorkosCursorSessionToken=${MANUAL_COOKIE_VALUE}`;

export interface CostRunOptions {
  /** The frozen clock of the CLI: every `new Date()` and `Date.now()` returns exactly this. */
  now: Date;
  env?: Record<string, string | undefined>;
  /** Sent as CODEXBAR_CURSOR_COOKIE; null sends none (local credential stores are used). Default MANUAL_COOKIE. */
  cookie?: string | null;
  /** Prepares the temp HOME (credential files) before the run. */
  prepareHome?: (home: string) => void | Promise<void>;
  /** Terminals, timing and platform, as for runCli. */
  io?: Pick<RunOptions, 'stdoutTTY' | 'stderrTTY' | 'timing' | 'platform'>;
}

export interface CostRun extends CliResult {
  /** Every request the fake saw during this run. */
  requests: RecordedRequest[];
}

/**
 * Runs `codexbar cost …` in-process once in a scene of its own (a fresh fake cursor.com and a fresh HOME,
 * test/helpers/scene.ts), with a frozen clock so two runs print byte-identical output (updatedAt and the
 * window end included). Runs never share a HOME, so none finds what another stored.
 */
export async function runCost(
  accounts: FakeAccount[],
  args: readonly string[],
  options: CostRunOptions,
): Promise<CostRun> {
  const cookie = options.cookie === undefined ? MANUAL_COOKIE : options.cookie;
  const scene = openScene({
    now: options.now,
    frozen: true,
    env: { CODEXBAR_CURSOR_COOKIE: cookie ?? undefined, ...options.env },
  });
  try {
    await options.prepareHome?.(scene.home);
    const fake = await scene.serve(accounts);
    const result = await scene.run(['cost', ...args], options.io);
    return { ...result, requests: [...fake.requests] };
  } finally {
    await scene.close();
  }
}

export interface EventsRequestBody {
  page: number;
  pageSize: number;
  startDate?: string;
  endDate?: string;
}

export function eventsRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.path === EVENTS_PATH);
}

export function eventsBodies(requests: readonly RecordedRequest[]): EventsRequestBody[] {
  return eventsRequests(requests).map((request) => request.body as EventsRequestBody);
}

/** How many times the fake was asked for `page`. */
export function attemptsAt(requests: readonly RecordedRequest[], page: number): number {
  return eventsBodies(requests).filter((body) => body.page === page).length;
}

/** Page numbers requested, sorted and de-duplicated. */
export function pagesRequested(requests: readonly RecordedRequest[]): number[] {
  return [...new Set(eventsBodies(requests).map((body) => body.page))].sort((a, b) => a - b);
}

/** The single row of a `cost --json` run. */
export function onlyRow(result: CliResult): Record<string, unknown> {
  const rows = JSON.parse(result.stdout) as unknown;
  if (!Array.isArray(rows) || rows.length !== 1)
    throw new Error(`expected one JSON row, got: ${result.stdout}`);
  costOutputSchema.parse(rows);
  return rows[0] as Record<string, unknown>;
}
