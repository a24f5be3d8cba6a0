/**
 * In-process timings of the cost pipeline's pieces (src/cost/, run through tsx): collectCost against the
 * fake cursor.com, the JSON decode of every page, and the aggregator alone over already-decoded rows.
 */
import { Agent } from 'undici';
import { CursorClient } from '../../src/api/client.js';
import { createCostAggregator } from '../../src/cost/aggregate.js';
import { collectCost } from '../../src/cost/collect.js';
import { decodeEventsPageBytes } from '../../src/cost/events/byte-decoder.js';
import { type EventRows, eventRowsPageSchema } from '../../src/cost/events/rows.js';
import { createListPricer } from '../../src/cost/pricing.js';
import type { CostReport, CostWindow } from '../../src/cost/types.js';
import { resolveCostWindow } from '../../src/cost/window.js';

/** `--all` in UTC, as the CLI runs use it. */
function allHistoryWindow(now: Date): CostWindow {
  return resolveCostWindow({ all: true, now, timeZone: 'UTC' });
}

/** Times one collectCost run; throws unless every event was counted. */
export async function timeCollectCost(
  baseUrl: string,
  cookieHeader: string,
  expectedEvents: number,
): Promise<number> {
  // A plain Agent, not the default proxy-aware one: the benchmark must only ever talk to 127.0.0.1.
  const client = new CursorClient({ baseUrl, dispatcher: new Agent({ keepAliveTimeout: 10_000 }) });
  try {
    const started = performance.now();
    const report = await collectCost({
      client,
      cookieHeader,
      window: allHistoryWindow(new Date()),
    });
    const elapsed = performance.now() - started;
    if (report.eventCount !== expectedEvents)
      throw new Error(`collectCost counted ${report.eventCount} of ${expectedEvents} events`);
    return elapsed;
  } finally {
    await client.close();
  }
}

/**
 * The page bytes through the fast decoder, as the client does per page (src/api/events-endpoint.ts); the
 * schema path (JSON.parse, then the rows page schema) only if it gives up.
 */
export function decodePages(texts: readonly string[]): EventRows[] {
  return texts.map(
    (text) =>
      (decodeEventsPageBytes(Buffer.from(text, 'latin1')) ?? eventRowsPageSchema.parse(JSON.parse(text)))
        .usageEventsDisplay,
  );
}

/** The aggregator alone: add every decoded page's rows, then finish. */
export function aggregate(pages: readonly EventRows[], now: Date): CostReport {
  const aggregator = createCostAggregator({ timeZone: 'UTC', pricing: createListPricer(), today: now });
  let events = 0;
  for (const rows of pages) {
    aggregator.addRows(rows, 0, rows.length);
    events += rows.length;
  }
  return aggregator.finish(allHistoryWindow(now), { generatedAt: now, reportedEventCount: events });
}
