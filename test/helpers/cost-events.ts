/** Shared builders for the cost tests: raw dashboard JSON in, decoded events out. */
import {
  type EventsPage,
  eventsPageSchema,
  type UsageEvent,
  usageEventSchema,
} from '../../src/api/schemas/events.js';

export interface RawEvent {
  timestamp?: unknown;
  model?: unknown;
  kind?: unknown;
  chargedCents?: unknown;
  tokenUsage?: Record<string, unknown> | null;
  [field: string]: unknown;
}

/** A decoded event; `at` is an ISO instant. */
export function event(at: string, fields: Omit<RawEvent, 'timestamp'> = {}): UsageEvent {
  return usageEventSchema.parse({ timestamp: String(Date.parse(at)), ...fields });
}

export function tokens(
  input: number,
  output = 0,
  cacheWrite = 0,
  cacheRead = 0,
  extra: Record<string, unknown> = {},
) {
  return {
    inputTokens: input,
    outputTokens: output,
    cacheWriteTokens: cacheWrite,
    cacheReadTokens: cacheRead,
    ...extra,
  };
}

/** Distinct rows: each has its own timestamp, so only deliberate copies compare equal. */
export function rows(count: number, from = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    timestamp: String(1_781_000_000_000 - (from + i) * 1000),
    model: 'gpt-5',
    tokenUsage: { inputTokens: 10, totalCents: 1 },
    chargedCents: 1,
  }));
}

export function page(events: unknown[] | undefined, count?: number | null): EventsPage {
  const body: Record<string, unknown> = {};
  if (count !== undefined && count !== null) body.totalUsageEventsCount = count;
  if (events !== undefined) body.usageEventsDisplay = events;
  return eventsPageSchema.parse(body);
}
