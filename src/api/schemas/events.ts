/**
 * `POST /api/dashboard/get-filtered-usage-events`: one page of usage events, decoded with the lenient number
 * rules below. A bad number never fails its event; a page that is not the documented envelope (missing array
 * with other content, a non-array, a non-object event, a negative count) or a field of the wrong JSON type
 * (schema drift) fails as a whole.
 *
 * Events are decoded by one hand-written function inside the zod boundary: a heavy account has 150,000
 * events, and per-field zod transforms cost several times the JSON parse itself.
 */
import { z } from 'zod';

// A plain decimal number as text: no whitespace, hex, "NaN" or "Infinity" (those decode as absent).
const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
// Swift's Int64 bounds: an integral double outside them is not an integer.
const INT64_LIMIT = 2 ** 63;

/** A finite number, or text holding one; anything else is undefined. */
export function lenientNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** An integer, an integral double, or text holding one; anything else is undefined. */
export function lenientInteger(value: unknown): number | undefined {
  const parsed = lenientNumber(value);
  return parsed !== undefined && Number.isInteger(parsed) && Math.abs(parsed) < INT64_LIMIT
    ? parsed
    : undefined;
}

export interface DecodedTokenUsage {
  /** Token counts that are not integers decode as 0, those past 2^53 − 1 as UNKNOWN_COUNT. */
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  /** API list-price cost in cents, when present and a finite number ≥ 0. */
  totalCents: number | undefined;
  /**
   * totalCents was present (not missing, not null) but unusable: text, "NaN", non-finite or negative.
   * docs/invariants.md, "No unknown price as zero": such a value fails the model's sum closed, while a
   * missing one may be list-priced.
   */
  totalCentsInvalid: boolean;
}

export interface DecodedUsageEvent {
  timestamp: number | undefined;
  /** "" decodes as undefined (reported as "unknown"). */
  model: string | undefined;
  kind: string | undefined;
  requestsCosts: number | undefined;
  usageBasedCosts: string | undefined;
  isTokenBasedCall: boolean | undefined;
  /** Numeric strings or integers, kept as text so "1" and 1 compare equal. */
  owningUser: string | undefined;
  owningTeam: string | undefined;
  cursorTokenFee: number | undefined;
  isChargeable: boolean | undefined;
  isHeadless: boolean | undefined;
  chargedCents: number | undefined;
  tokenUsage: DecodedTokenUsage | undefined;
  /**
   * The member who made the request: set only by the Admin API's decoder, so dashboard events (and any cache
   * built from them) never carry an email (docs/invariants.md, "Other members' data stays out").
   */
  userEmail?: string;
}

/** Reasons an event or page fails to decode; empty while everything is fine. */
export type Issues = string[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optionalString(value: unknown, key: string, issues: Issues): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  issues.push(`${key} is not a string`);
  return undefined;
}

export function optionalBoolean(value: unknown, key: string, issues: Issues): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  issues.push(`${key} is not a boolean`);
  return undefined;
}

export function optionalId(value: unknown, key: string, issues: Issues): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  issues.push(`${key} is not a string or number`);
  return undefined;
}

/** "" decodes as undefined (reported as "unknown"). */
export function decodeModel(value: unknown, issues: Issues): string | undefined {
  const model = optionalString(value, 'model', issues);
  return model === '' ? undefined : model;
}

/**
 * A token count too large for a JavaScript number to hold exactly (past 2^53 − 1: Int64.max, 1e20): unknown,
 * never 0 (docs/invariants.md, "No unknown price as zero"). It is +Infinity, which the event store keeps as it
 * is and every checked token sum turns into unknown (src/cost/accumulators.ts).
 */
export const UNKNOWN_COUNT = Number.POSITIVE_INFINITY;

/**
 * A token count: an integer, an integral double or text holding one; UNKNOWN_COUNT past 2^53 − 1 (a literal
 * too large for a double included); anything else 0.
 */
export function tokenCount(value: unknown): number {
  const count = typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value;
  if (typeof count !== 'number') return 0;
  if (count > Number.MAX_SAFE_INTEGER) return UNKNOWN_COUNT;
  return Number.isInteger(count) ? count : 0;
}

/** `tokenUsage.totalCents` when it is a finite number ≥ 0, else undefined. */
export function totalCentsOf(value: unknown): number | undefined {
  const cents = value === undefined || value === null ? undefined : lenientNumber(value);
  return cents !== undefined && cents >= 0 ? cents : undefined;
}

/** `tokenUsage.totalCents` present but unusable (see `DecodedTokenUsage`). */
export function totalCentsInvalid(value: unknown): boolean {
  return value !== undefined && value !== null && totalCentsOf(value) === undefined;
}

function decodeTokenUsage(value: unknown, issues: Issues): DecodedTokenUsage | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    issues.push('tokenUsage is not an object');
    return undefined;
  }
  return {
    inputTokens: tokenCount(value.inputTokens),
    outputTokens: tokenCount(value.outputTokens),
    cacheWriteTokens: tokenCount(value.cacheWriteTokens),
    cacheReadTokens: tokenCount(value.cacheReadTokens),
    totalCents: totalCentsOf(value.totalCents),
    totalCentsInvalid: totalCentsInvalid(value.totalCents),
  };
}

/**
 * One event from its raw JSON fields. With the field rules above, the one definition of the event shape: the
 * schema below decodes with it, and the byte decoder (`cost/events/byte-decoder.ts`) applies the same rule to
 * each field, so the two cannot disagree on a field.
 */
function decodeUsageEvent(raw: Record<string, unknown>, issues: Issues): DecodedUsageEvent {
  return {
    timestamp: lenientInteger(raw.timestamp),
    model: decodeModel(raw.model, issues),
    kind: optionalString(raw.kind, 'kind', issues),
    requestsCosts: lenientNumber(raw.requestsCosts),
    usageBasedCosts: optionalString(raw.usageBasedCosts, 'usageBasedCosts', issues),
    isTokenBasedCall: optionalBoolean(raw.isTokenBasedCall, 'isTokenBasedCall', issues),
    owningUser: optionalId(raw.owningUser, 'owningUser', issues),
    owningTeam: optionalId(raw.owningTeam, 'owningTeam', issues),
    cursorTokenFee: lenientNumber(raw.cursorTokenFee),
    isChargeable: optionalBoolean(raw.isChargeable, 'isChargeable', issues),
    isHeadless: optionalBoolean(raw.isHeadless, 'isHeadless', issues),
    chargedCents: lenientNumber(raw.chargedCents),
    tokenUsage: decodeTokenUsage(raw.tokenUsage, issues),
  };
}

/**
 * Decodes one `usageEventsDisplay` element, or returns the reasons it fails its page: a non-object element or
 * a field of the wrong JSON type.
 */
function decodeElement(value: unknown, issues: Issues): DecodedUsageEvent | undefined {
  if (!isRecord(value)) {
    issues.push('usage event is not an object');
    return undefined;
  }
  const event = decodeUsageEvent(value, issues);
  return issues.length > 0 ? undefined : event;
}

export const usageEventSchema = z.unknown().transform((value, ctx): DecodedUsageEvent => {
  const issues: Issues = [];
  const event = decodeElement(value, issues);
  for (const message of issues) ctx.addIssue({ code: 'custom', message });
  return event ?? z.NEVER;
});

/** Adds endpoint-specific fields to a decoded event, pushing a reason onto `issues` for a bad one. */
export type EventExtension = (
  raw: Record<string, unknown>,
  event: DecodedUsageEvent,
  issues: string[],
) => void;

// One transform over the whole array, with the array check done here too: per-element zod schemas (even
// z.unknown()) cost as much again as the JSON parse on a 1000-event page.
export function usageEventsArraySchema(arrayName: string, extend?: EventExtension) {
  return z.unknown().transform((items, ctx): DecodedUsageEvent[] => {
    if (!Array.isArray(items)) {
      ctx.addIssue({ code: 'custom', message: `${arrayName} is not an array` });
      return z.NEVER;
    }
    const events: DecodedUsageEvent[] = new Array(items.length);
    const issues: Issues = [];
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      const event = decodeElement(item, issues);
      if (event !== undefined && extend) extend(item as Record<string, unknown>, event, issues);
      if (event === undefined || issues.length > 0) {
        for (const message of issues) ctx.addIssue({ code: 'custom', message, path: [index] });
        return z.NEVER;
      }
      events[index] = event;
    }
    return events;
  });
}

const usageEventsArray = usageEventsArraySchema('usageEventsDisplay');

export type UsageEvent = z.output<typeof usageEventSchema>;
export type TokenUsage = DecodedTokenUsage;

/** "Infinity" and non-integral counts are treated as absent; a negative count is a decode error. */
export function decodeEventCount(value: unknown, issues: Issues): number | undefined {
  const count = lenientNumber(value);
  if (count === undefined || !Number.isInteger(count)) return undefined;
  if (count < 0) issues.push(`totalUsageEventsCount is negative (${count})`);
  return count;
}

export const eventCountSchema = z
  .unknown()
  .transform((value, ctx) => {
    const issues: Issues = [];
    const count = decodeEventCount(value, issues);
    for (const message of issues) ctx.addIssue({ code: 'custom', message });
    return issues.length > 0 ? z.NEVER : count;
  })
  .optional();

const ENVELOPE_KEYS = new Set(['totalUsageEventsCount', 'usageEventsDisplay']);

export const eventsPageSchema = z
  .looseObject({
    totalUsageEventsCount: eventCountSchema,
    usageEventsDisplay: usageEventsArray.optional(),
  })
  .superRefine((page, ctx) => {
    // Only `{}` (empty window) and `{totalUsageEventsCount}` (empty terminal page) may omit the array; an
    // envelope that omits it while carrying anything else is ambiguous.
    if (page.usageEventsDisplay !== undefined) return;
    const unexpected = Object.keys(page).filter((key) => !ENVELOPE_KEYS.has(key));
    if (unexpected.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `usageEventsDisplay is missing and the page has other fields (${unexpected.join(', ')})`,
      });
    }
  })
  .transform((page) => ({
    totalUsageEventsCount: page.totalUsageEventsCount,
    usageEventsDisplay: page.usageEventsDisplay ?? [],
  }));

export type EventsPage = z.output<typeof eventsPageSchema>;
