/**
 * `cost --source byok`: the ledger's rows as cost events, summed by the aggregator `cost` uses, with the same
 * price table. A ledger row is one request Cursor sent through `codexbar proxy`:
 * - its tokens are the provider's usage: the prompt (cache reads and writes inside it) split into Cursor's
 *   four counters that do not overlap, so each is priced at its own rate;
 * - its cost is the provider-reported one when the provider sent one (`reported` to the aggregator), else
 *   the list-price estimate, else unpriced (an unknown model: never $0, docs/invariants.md, "No unknown price
 *   as zero");
 * - a row without a prompt or completion count (an answer aborted before the provider reported its usage)
 *   is a request of unknown tokens: counted as a request, in no token or cost figure, and said;
 * - a row whose counts do not add up (cache reads and writes above the prompt, a count that is not a whole
 *   number from 0 to 2^53 − 1, a cost that is not a finite number >= 0, a time that is none) is skipped and
 *   counted, like the aggregator's skipped events.
 * Pure: rows in, a report out.
 */
import { createDayKeyer } from '../../lib/time-zone.js';
import { type CostAggregator, createCostAggregator } from '../aggregate.js';
import { createListPricer, type ListPricer } from '../pricing.js';
import type { CostEvent, CostReport, CostWindow } from '../types.js';
import type { LedgerReadRow } from './ledger-read.js';

/** What a BYOK request is to the aggregator: Cursor's kind for a request on the user's own key. */
export const BYOK_EVENT_KIND = 'USAGE_EVENT_KIND_USER_API_KEY';
/** The `--by conversation` group of the requests whose body had no user message. */
const NO_CONVERSATION = '(none)';

export interface ByokCounts {
  /** Requests counted: every row of the window but the skipped ones. */
  requests: number;
  /** Of those, answers that did not end cleanly (`completed = 0`): counted as far as their usage was seen. */
  partialRequests: number;
  /** Of those, requests whose prompt or completion count the provider never reported: in no total. */
  requestsWithoutUsage: number;
  /** Rows left out of every figure: counts that do not add up, or no valid time. */
  skippedRows: number;
  /** Requests whose cost is the provider's own. */
  providerReportedRequests: number;
}

export interface ByokReport {
  /** The window's report, as `cost` builds it (every request in the `byok` kind). */
  report: CostReport;
  counts: ByokCounts;
  /** With `--by conversation`: one report per conversation key (`(none)` for none). */
  conversations?: ReadonlyMap<string, CostReport>;
}

export interface ByokAggregation {
  add(row: LedgerReadRow): void;
  finish(window: CostWindow, generatedAt: Date): ByokReport;
}

export function createByokAggregation(options: {
  window: CostWindow;
  today: Date;
  byConversation: boolean;
  pricing?: ListPricer;
}): ByokAggregation {
  const pricing = options.pricing ?? createListPricer();
  const { timeZone } = options.window;
  const dayKeyOf = createDayKeyer(timeZone);
  const aggregatorOptions = { timeZone, pricing, today: options.today, dayKeyOf };
  const whole = createCostAggregator(aggregatorOptions);
  const conversations = options.byConversation ? new Map<string, CostAggregator>() : undefined;
  const counts: ByokCounts = {
    requests: 0,
    partialRequests: 0,
    requestsWithoutUsage: 0,
    skippedRows: 0,
    providerReportedRequests: 0,
  };
  return {
    add(row) {
      const event = eventOf(row);
      if (event === undefined) {
        counts.skippedRows++;
        return;
      }
      counts.requests++;
      if (row.completed !== 1n && row.completed !== 1) counts.partialRequests++;
      if (event.tokenUsage === undefined) counts.requestsWithoutUsage++;
      whole.add(event);
      if (conversations) {
        const key = typeof row.conversation === 'string' ? row.conversation : NO_CONVERSATION;
        let aggregator = conversations.get(key);
        if (aggregator === undefined) {
          aggregator = createCostAggregator(aggregatorOptions);
          conversations.set(key, aggregator);
        }
        aggregator.add(event);
      }
    },
    finish(window, generatedAt) {
      const meta = { generatedAt, reportedEventCount: null };
      const report = whole.finish(window, meta);
      // The aggregator skips what has no valid time; those rows are skipped rows too.
      counts.skippedRows += report.skippedEvents;
      counts.requests -= report.skippedEvents;
      counts.providerReportedRequests = report.requestCounts.reported;
      const result: ByokReport = {
        report: { ...report, skippedEvents: counts.skippedRows },
        counts: { ...counts },
      };
      if (conversations) {
        result.conversations = new Map(
          [...conversations].map(([key, aggregator]) => [key, aggregator.finish(window, meta)]),
        );
      }
      return result;
    },
  };
}

/** A whole number from 0 to 2^53 − 1, or undefined; NULL is `null`. */
function count(value: unknown): number | null | undefined {
  if (value === null) return null;
  if (typeof value === 'bigint') {
    return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The row as a cost event, or undefined when it cannot be counted honestly (see the header). A row without
 * a prompt or completion count is an event without tokens.
 */
export function eventOf(row: LedgerReadRow): CostEvent | undefined {
  const startedAt = count(row.startedAt);
  const prompt = count(row.promptTokens);
  const cached = count(row.cachedTokens);
  const cacheWrite = count(row.cacheWriteTokens);
  const completion = count(row.completionTokens);
  if (!startedAt || prompt === undefined || completion === undefined) return undefined;
  if (cached === undefined || cacheWrite === undefined) return undefined;
  const cost = row.providerCostUSD;
  if (cost !== null && !(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0)) return undefined;
  if (row.model !== null && typeof row.model !== 'string') return undefined;
  const event: CostEvent = {
    timestamp: startedAt,
    model: row.model ?? undefined,
    kind: BYOK_EVENT_KIND,
    chargedCents: undefined,
    tokenUsage: undefined,
    owningUser: undefined,
  };
  if (prompt === null || completion === null) return event;
  // Cache reads and writes are inside the prompt; when the provider says nothing of them, there were none.
  const cacheReadTokens = cached ?? 0;
  const cacheWriteTokens = cacheWrite ?? 0;
  if (cacheReadTokens + cacheWriteTokens > prompt) return undefined;
  event.tokenUsage = {
    inputTokens: prompt - cacheReadTokens - cacheWriteTokens,
    outputTokens: completion,
    cacheReadTokens,
    cacheWriteTokens,
    totalCents: typeof cost === 'number' ? cost * 100 : undefined,
    totalCentsInvalid: false,
  };
  return event;
}
