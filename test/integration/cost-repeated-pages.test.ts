/**
 * docs/invariants.md, "No partial total": a page whose events equal an earlier page's, or that overlaps the
 * previous page by more than a boundary shift can explain (500 rows), is asked for once more; a repeat that
 * persists fails as incomplete pagination with no total, at any --concurrency. Each scenario has a count that
 * matches the rows served, which is exactly the case that used to publish a double-counted total with exit 0.
 */
import { describe, expect, it } from 'vitest';
import { createEventsHandler, type UsageEventJson } from '../fake-cursor/events.js';
import type { FakeAccount, HandlerFunction } from '../fake-cursor/server.js';
import { attemptsAt, type CostRun, MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');

/** Small distinct rows, newest first, one a minute, each with its own token count. */
const generated = (count: number): UsageEventJson[] =>
  Array.from({ length: count }, (_, i) => ({
    timestamp: String(NOW.getTime() - (i + 1) * 60_000),
    model: i % 3 === 0 ? 'gpt-5' : 'claude-4.5-sonnet',
    tokenUsage: { inputTokens: 1 + (i % 97), totalCents: 1 },
  }));

const inputTokensOf = (events: UsageEventJson[]) =>
  events.reduce((sum, event) => sum + Number(event.tokenUsage?.inputTokens ?? 0), 0);

const pageRows = (events: UsageEventJson[], page: number) => events.slice((page - 1) * 1000, page * 1000);

/** Every page as generated, except `page`, answered with `rows` on the attempts `repeatOn` accepts. */
function repeating(
  events: UsageEventJson[],
  page: number,
  rows: UsageEventJson[],
  repeatOn: (attempt: number) => boolean = () => true,
): FakeAccount[] {
  const normal = createEventsHandler({ events });
  const handler: HandlerFunction = (req, attempt) => {
    if ((req.body as { page: number }).page !== page || !repeatOn(attempt)) return normal(req, attempt);
    return { json: { totalUsageEventsCount: events.length, usageEventsDisplay: rows } };
  };
  return [{ cookies: [MANUAL_COOKIE_VALUE], events: handler }];
}

/** `cost --json` and text at --concurrency 1 and 6. */
async function atBothConcurrencies(accounts: () => FakeAccount[]): Promise<CostRun[]> {
  return Promise.all(
    [
      ['--json', '--concurrency', '1'],
      ['--json', '--concurrency', '6'],
      ['--concurrency', '1'],
      ['--concurrency', '6'],
    ].map((args) => runCost(accounts(), args, { now: NOW })),
  );
}

function expectRepeatFailure(runs: CostRun[], page: number, earlier: number): void {
  const message = `Cursor cost refresh was incomplete (page ${page} repeated page ${earlier}, twice).`;
  const [json1, json6, text1, text6] = runs as [CostRun, CostRun, CostRun, CostRun];
  for (const json of [json1, json6]) {
    expect(json.code).toBe(1);
    expect(onlyRow(json)).toEqual({
      provider: 'cursor',
      source: 'web',
      updatedAt: '2026-07-20T15:00:00Z',
      daily: [],
      projects: [],
      error: { code: 1, message },
    });
    // Asked for once more, then given up: never a third time.
    expect(attemptsAt(json.requests, page)).toBe(2);
  }
  for (const text of [text1, text6]) {
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr.split('\n')[0]).toBe(`Error: ${message}`);
  }
}

describe('a repeated page fails closed at --concurrency 1 and 6', () => {
  it("page 2 returns page 1's events", async () => {
    const events = generated(2500);
    const runs = await atBothConcurrencies(() => repeating(events, 2, pageRows(events, 1)));
    expectRepeatFailure(runs, 2, 1);
  });

  it("page 3 returns page 2's events", async () => {
    const events = generated(3500);
    const runs = await atBothConcurrencies(() => repeating(events, 3, pageRows(events, 2)));
    expectRepeatFailure(runs, 3, 2);
  });

  it('page 2 overlaps page 1 by 600 rows: more than a boundary shift, so a repeat', async () => {
    const events = generated(2500);
    const runs = await atBothConcurrencies(() => repeating(events, 2, events.slice(400, 1400)));
    expectRepeatFailure(runs, 2, 1);
  });
});

describe('a repeat that clears on the second try', () => {
  it('gives the right total, the same as a clean run, at --concurrency 1 and 6', async () => {
    const events = generated(2500);
    const clean = await runCost([{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }], ['--json'], {
      now: NOW,
    });
    const runs = await atBothConcurrencies(() =>
      repeating(events, 2, pageRows(events, 1), (attempt) => attempt === 0),
    );
    const [json1, json6, text1, text6] = runs as [CostRun, CostRun, CostRun, CostRun];
    for (const json of [json1, json6]) {
      expect(json.code, json.stdout).toBe(0);
      expect(json.stdout).toBe(clean.stdout);
      expect((onlyRow(json).totals as { inputTokens: number }).inputTokens).toBe(inputTokensOf(events));
      expect(attemptsAt(json.requests, 2)).toBe(2);
    }
    expect(text1.code).toBe(0);
    expect(text6.stdout).toBe(text1.stdout);
  });

  it('a legitimate boundary shift of a few rows is not mistaken for a repeat', async () => {
    const events = generated(2500);
    const runs = await atBothConcurrencies(() => [
      { cookies: [MANUAL_COOKIE_VALUE], events: { events, overlap: { afterPage: 1, rows: 3 } } },
    ]);
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
    // The three repeated rows are the proven surplus: removed, not refetched.
    expect((onlyRow(runs[0]!).totals as { inputTokens: number }).inputTokens).toBe(inputTokensOf(events));
    expect(attemptsAt(runs[0]!.requests, 2)).toBe(1);
  });
});
