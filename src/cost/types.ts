/**
 * The cost report: what `codexbar cost` knows after paging and aggregating usage events. Renderers turn it
 * into CodexBar's text lines plus a table, or CodexBar's cost row plus our additive fields.
 */

import type { UsageEvent } from '../api/schemas/events.js';

/**
 * What aggregation reads of an event: a fetched UsageEvent is one, and so is an
 * event read back from the event store.
 */
export type CostEvent = Pick<
  UsageEvent,
  'timestamp' | 'model' | 'kind' | 'chargedCents' | 'tokenUsage' | 'owningUser'
>;

export interface CostWindow {
  start: Date;
  end: Date;
  /** IANA zone used for the window bounds and the day buckets. */
  timeZone: string;
  /** `--days N` value, or the number of local days the window spans for --since/--month/--all. */
  historyDays: number;
  /** Text label: "Last 30 days", "Today", "Month to date", "All history", "2026-11-01 – 2026-11-15". */
  label: string;
}

export type PriceSource = 'reported' | 'estimated' | 'unpriced';

/** Checked token sums (null once a sum overflows or a part is unknown). */
export interface TokenTotals {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  /** Cursor's cache-write tokens. */
  cacheCreationTokens: number | null;
  totalTokens: number | null;
}

export interface CostModelRow extends TokenTotals {
  modelName: string;
  /** API-rate cost in USD; null when unknown (no cents at all, or an invalid value seen: fail closed). */
  costUSD: number | null;
  /** Sum of chargedCents/100; null when any of its events lacks a valid chargedCents. */
  meteredUSD: number | null;
  requestCount: number;
  requestCounts: RequestCounts;
  /**
   * Cursor sent a negative, non-finite or malformed cost for one of this model's requests, so its API-rate
   * total is unknown (fail closed) although the model has a price.
   */
  invalidReportedCost: boolean;
}

export interface CostDay extends TokenTotals {
  /** YYYY-MM-DD in the window's time zone. */
  date: string;
  /** Sum of the known model costs, or null when no model has a known cost. */
  costUSD: number | null;
  meteredUSD: number | null;
  requestCount: number;
  /** Model names sorted ascending. */
  modelsUsed: string[];
  /** Sorted by cost desc (null = -1), then totalTokens desc, then name asc. */
  models: CostModelRow[];
}

export interface RequestCounts {
  /** Events whose API-rate cost came from Cursor's `tokenUsage.totalCents`. */
  reported: number;
  /** Events priced from the list-price table because `totalCents` was missing. */
  estimated: number;
  /** Events with tokens but no usable price (unknown model, or an invalid reported value). */
  unpriced: number;
}

/** How Cursor billed a request, in the order every report lists the buckets. */
export const USAGE_KIND_BUCKETS = ['included', 'onDemand', 'notCharged', 'byok', 'other'] as const;

export type UsageKindBucket = (typeof USAGE_KIND_BUCKETS)[number];

export interface KindTotals {
  requests: number;
  totalTokens: number | null;
  costUSD: number | null;
  meteredUSD: number | null;
  /** The kind's token events per model, sorted like a day's models (for `--by kind`). */
  models: CostModelRow[];
}

export interface CostTotals extends TokenTotals {
  /** 0 when there are no days; else the sum of known day costs, or null when every day is unknown. */
  costUSD: number | null;
}

/** How the stored ranges a run used were checked (docs/invariants.md, "When a stored range may be trusted"). */
export interface StoredRangesCheck {
  /** Stored ranges used. */
  used: number;
  /** Of those, the ones checked by their count alone: the source's totals were unavailable. */
  countOnly: number;
}

export interface CostReport {
  window: CostWindow;
  generatedAt: Date;
  daily: CostDay[];
  totals: CostTotals;
  /** Today's local-day entry: 0 when there is history but nothing today. */
  today: { tokens: number | null; costUSD: number | null };
  /** Σ chargedCents/100 over every valid event, or null (docs/invariants.md, "No partial total"). */
  meteredCostUSD: number | null;
  provenance: 'listPriceEstimate' | 'vendorMetered' | 'mixed' | 'unknown';
  coverage: { priced: number; unpriced: number; unmetered: number; estimated: number };
  /** Per model over the whole window, same order rules as a day's models. */
  byModel: CostModelRow[];
  byKind: Record<UsageKindBucket, KindTotals>;
  requestCounts: RequestCounts;
  /** De-duplicated events counted (valid timestamp), and the count cursor.com reported. */
  eventCount: number;
  /** Events left out of every figure: a timestamp that is no time, or token counts that are negative or overflow. */
  skippedEvents: number;
  reportedEventCount: number | null;
  /**
   * How the stored ranges the run used were checked: by count and cursor.com's totals, or (`countOnly` of
   * them) by count alone. Absent when the run used none.
   */
  storedRanges?: StoredRangesCheck;
}
