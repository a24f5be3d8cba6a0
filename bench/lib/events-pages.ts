/**
 * The events pages served to the cost benchmark, serialised once. The fake's own events scenario renders
 * each page per query window, and `--all` ends at each run's "now", so every run would make the benchmark
 * process re-serialise 150 pages while the CLI is being timed, competing with it for the CPU.
 */
import { EVENTS_PAGE_SIZE } from '../../src/api/events-endpoint.js';
import { createEventsHandler } from '../../test/fake-cursor/events.js';
import type { HandlerFunction, UsageEventJson } from '../../test/fake-cursor/server.js';

/** The page texts the server sends: pages of EVENTS_PAGE_SIZE with the total count. */
export function pageTexts(events: readonly UsageEventJson[]): string[] {
  const texts: string[] = [];
  for (let from = 0; from < events.length; from += EVENTS_PAGE_SIZE) {
    const usageEventsDisplay = events.slice(from, from + EVENTS_PAGE_SIZE);
    texts.push(JSON.stringify({ totalUsageEventsCount: events.length, usageEventsDisplay }));
  }
  return texts;
}

/**
 * get-filtered-usage-events from precomputed pages when the window covers every event (a cold run); any
 * narrower window (a warm run verifying a stored range and fetching the recent part) is answered by the fake's
 * own scenario handler, which filters the events by the window. A different page size is refused (HTTP 400).
 */
export function staticEventsHandler(
  events: readonly UsageEventJson[],
  texts: readonly string[],
): HandlerFunction {
  let oldest = Number.POSITIVE_INFINITY;
  let newest = Number.NEGATIVE_INFINITY;
  for (const event of events) {
    const stamp = Number(event.timestamp);
    oldest = Math.min(oldest, stamp);
    newest = Math.max(newest, stamp);
  }
  // Past the end the count stays and the array is omitted.
  const pastTheEnd = JSON.stringify({ totalUsageEventsCount: events.length });
  const narrower = createEventsHandler({ events: [...events] });
  return (req, attempt) => {
    const { page, pageSize, startDate, endDate } = (req.body ?? {}) as Record<string, unknown>;
    if (pageSize !== EVENTS_PAGE_SIZE || typeof page !== 'number' || page < 1)
      return { status: 400, json: { error: 'unexpected page or pageSize' } };
    if (!(Number(startDate) <= oldest && Number(endDate) >= newest)) return narrower(req, attempt);
    return { text: texts[page - 1] ?? pastTheEnd };
  };
}
