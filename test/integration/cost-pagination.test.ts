/**
 * Pagination end to end (docs/invariants.md, "No partial total"): the CLI (in-process) pages the fake
 * cursor.com at --concurrency 1 and 6, and a user must see the same stdout and exit code from both, a
 * complete total or an error and never a partial total. Each paging rule (page counts, overlap, counts, the
 * 200-page cap) is pinned in test/unit/cost-pager.test.ts and, over HTTP, test/unit/cost-collect.test.ts;
 * this file keeps what only the whole command shows: exit codes, stdout and stderr, JSON rows and the
 * credential used.
 */
import { describe, expect, it } from 'vitest';
import { createEventsHandler, generateEvents, type UsageEventJson } from '../fake-cursor/events.js';
import type { FakeAccount, HandlerFunction } from '../fake-cursor/server.js';
import {
  attemptsAt,
  type CostRun,
  EVENTS_ENDPOINT,
  eventsRequests,
  MANUAL_COOKIE_VALUE,
  onlyRow,
  pagesRequested,
  runCost,
} from '../helpers/cost-cli.js';
import { makeToken, type TestToken, writeAgentToken, writeAppToken } from '../helpers/home.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const UPDATED_AT = '2026-07-20T15:00:00Z';

const generated = (count: number, seed = 7): UsageEventJson[] =>
  generateEvents({ count, start: new Date('2026-07-01T00:00:00Z'), end: NOW, seed });

const inputTokensOf = (events: UsageEventJson[]) =>
  events.reduce((sum, event) => sum + Number(event.tokenUsage?.inputTokens ?? 0), 0);

type Events = FakeAccount['events'];

const manualAccount = (events: Events): FakeAccount[] => [{ cookies: [MANUAL_COOKIE_VALUE], events }];

interface BothRuns {
  json: CostRun;
  json6: CostRun;
  text: CostRun;
  text6: CostRun;
}

/**
 * `cost --json` and text at --concurrency 1 and 6, each against a fresh fake; stdout, exit code and
 * (in text) stderr must be identical between the two concurrencies.
 */
async function runBoth(
  accounts: () => FakeAccount[],
  options: Partial<Parameters<typeof runCost>[2]> = {},
): Promise<BothRuns> {
  const run = (args: string[]) => runCost(accounts(), args, { now: NOW, ...options });
  const [json, json6, text, text6] = await Promise.all([
    run(['--json', '--concurrency', '1']),
    run(['--json', '--concurrency', '6']),
    run(['--concurrency', '1']),
    run(['--concurrency', '6']),
  ]);
  expect(json6.stdout).toBe(json.stdout);
  expect(json6.code).toBe(json.code);
  expect(text6.stdout).toBe(text.stdout);
  expect(text6.stderr).toBe(text.stderr);
  expect(text6.code).toBe(text.code);
  return { json, json6, text, text6 };
}

const allRuns = (runs: BothRuns): CostRun[] => [runs.json, runs.json6, runs.text, runs.text6];

/** Every valid event lands in exactly one billing-kind bucket, so their sum is the event count. */
function requestTotal(row: Record<string, unknown>): number {
  const byKind = row.byKind as Record<string, { requests: number }>;
  return Object.values(byKind).reduce((sum, kind) => sum + kind.requests, 0);
}

function expectComplete(runs: BothRuns, events: number, inputTokens?: number): Record<string, unknown> {
  expect(runs.json.code).toBe(0);
  expect(runs.text.code).toBe(0);
  expect(runs.text.stderr).toBe('');
  const row = onlyRow(runs.json);
  expect(row.error).toBeUndefined();
  expect(requestTotal(row)).toBe(events);
  if (inputTokens !== undefined)
    expect((row.totals as { inputTokens: number }).inputTokens).toBe(inputTokens);
  return row;
}

/** The JSON error row (no `kind`), exit 1, and in text no partial total at all. */
function expectFailure(runs: BothRuns, message: string | RegExp): void {
  expect(runs.json.code).toBe(1);
  const row = onlyRow(runs.json);
  expect(row).toEqual({
    provider: 'cursor',
    source: 'web',
    updatedAt: UPDATED_AT,
    daily: [],
    projects: [],
    error: { code: 1, message: typeof message === 'string' ? message : expect.stringMatching(message) },
  });
  expect(runs.text.code).toBe(1);
  expect(runs.text.stdout).toBe('');
  const firstLine = runs.text.stderr.split('\n')[0] ?? '';
  if (typeof message === 'string') expect(firstLine).toBe(`Error: ${message}`);
  else expect(firstLine.replace(/^Error: /, '')).toMatch(message);
  expect(runs.text.stderr).not.toMatch(/^(Cursor Cost|Today:|Last \d+ days:)/m);
  for (const run of allRuns(runs)) expect(run.stdout + run.stderr).not.toContain(MANUAL_COOKIE_VALUE);
}

const incomplete = (received: number, expected: number) =>
  `Cursor cost refresh was incomplete (received ${received} of ${expected} events).`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const PARSE_ERROR = new RegExp(`^Could not parse Cursor usage: ${escaped(EVENTS_ENDPOINT)}: `);

/** The generated scenario for one page answered by `override`, every other page as usual. */
function withPage(events: UsageEventJson[], page: number, override: HandlerFunction): HandlerFunction {
  const generatedPages = createEventsHandler({ events });
  return (req, attempt) =>
    (req.body as { page: number }).page === page ? override(req, attempt) : generatedPages(req, attempt);
}

describe('complete windows: the same total at --concurrency 1 and 6', () => {
  it('a clean multi-page window counts every event once and stops at the short page', async () => {
    const events = generated(2500);
    const runs = await runBoth(() => manualAccount({ events }));
    expectComplete(runs, 2500, inputTokensOf(events));
    expect(pagesRequested(runs.json.requests)).toEqual([1, 2, 3]);
    expect(pagesRequested(runs.json6.requests)).toEqual([1, 2, 3]);
  });

  it('`{}` for an empty window is an empty report, not an error', async () => {
    const runs = await runBoth(() => manualAccount({ events: [] }));
    const row = expectComplete(runs, 0);
    expect(row.daily).toEqual([]);
    expect(row.totals).toEqual({ totalTokens: 0, totalCost: 0 });
    expect(runs.text.stdout).toContain('No usage events in this window.');
    expect(eventsRequests(runs.json.requests)).toHaveLength(1);
    expect(eventsRequests(runs.json6.requests)).toHaveLength(1);
  });

  it('a 503 that clears on retry leaves the output identical to a clean run', async () => {
    const events = generated(1500);
    const clean = await runCost(manualAccount({ events }), ['--json'], { now: NOW });
    const runs = await runBoth(() => manualAccount({ events, faults: [{ page: 2, status: 503, times: 1 }] }));
    expectComplete(runs, 1500);
    expect(runs.json.stdout).toBe(clean.stdout);
    expect(attemptsAt(runs.json.requests, 2)).toBe(2);
  });
});

describe('pagination that cannot prove completeness fails with CodexBar messages and no total', () => {
  it('fewer events than reported is incomplete', async () => {
    const events = generated(1500);
    const runs = await runBoth(() => manualAccount({ events, count: 1600 }));
    expectFailure(runs, incomplete(1500, 1600));
  });

  it('a page that omits the array while carrying other fields is a parse error naming the endpoint', async () => {
    const events = generated(1500);
    const runs = await runBoth(() =>
      manualAccount(withPage(events, 2, () => ({ json: { totalUsageEventsCount: 1500, message: 'moved' } }))),
    );
    expectFailure(runs, PARSE_ERROR);
    expect(runs.json.stdout).toContain('usageEventsDisplay is missing');
  });
});

describe('HTTP failures on the events endpoint', () => {
  it('401 with a manual cookie: exit 1 "Not logged in", never retried, no other credential tried', async () => {
    const agent = await makeToken('agent_user', { exp: NOW.getTime() / 1000 + 86_400 });
    const runs = await runBoth(
      () => [
        { cookies: [MANUAL_COOKIE_VALUE], events: { status: 401, json: {} } },
        { cookies: [agent.cookieValue], events: { events: generated(10) } },
      ],
      { prepareHome: (home) => void writeAgentToken(home, agent.jwt) },
    );
    expectFailure(runs, /^Not logged in/);
    for (const run of allRuns(runs)) {
      expect(eventsRequests(run.requests)).toHaveLength(1);
      expect(run.requests.some((r) => r.headers.cookie?.includes(agent.cookieValue))).toBe(false);
    }
  });

  describe('with a Cursor app token and a valid cursor-agent token on disk', () => {
    let app: TestToken;
    let agent: TestToken;
    const prepareHome = (home: string) => {
      writeAppToken(home, app.jwt);
      writeAgentToken(home, agent.jwt);
    };

    it("401 for the app token on the events endpoint: the agent's events are used", async () => {
      const exp = NOW.getTime() / 1000 + 86_400;
      app = await makeToken('app_user', { exp });
      agent = await makeToken('agent_user', { exp });
      const agentEvents = generated(1500, 21);
      const runs = await runBoth(
        () => [
          { cookies: [app.cookieValue], events: { status: 401, json: {} } },
          { cookies: [agent.cookieValue], events: { events: agentEvents } },
        ],
        { cookie: null, prepareHome },
      );
      expectComplete(runs, 1500, inputTokensOf(agentEvents));
      for (const run of allRuns(runs)) {
        const cookies = eventsRequests(run.requests).map((r) => r.headers.cookie);
        expect(cookies[0]).toBe(`WorkosCursorSessionToken=${app.cookieValue}`);
        expect(cookies.slice(1).every((c) => c === `WorkosCursorSessionToken=${agent.cookieValue}`)).toBe(
          true,
        );
      }
    });

    it('403 on the events endpoint is final: "Cursor API error: HTTP 403", exit 1, no fallback, no retry', async () => {
      const exp = NOW.getTime() / 1000 + 86_400;
      app = await makeToken('app_user', { exp });
      agent = await makeToken('agent_user', { exp });
      const runs = await runBoth(
        () => [
          {
            cookies: [app.cookieValue],
            events: { events: generated(1500), faults: [{ page: 2, status: 403 }] },
          },
          { cookies: [agent.cookieValue], events: { events: generated(10) } },
        ],
        { cookie: null, prepareHome },
      );
      expectFailure(runs, `Cursor API error: HTTP 403 (${EVENTS_ENDPOINT})`);
      for (const run of allRuns(runs)) {
        expect(attemptsAt(run.requests, 2)).toBe(1);
        expect(run.requests.some((r) => r.headers.cookie?.includes(agent.cookieValue))).toBe(false);
      }
    });
  });
});
