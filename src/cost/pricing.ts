/**
 * The API-rate cost of one event: Cursor's reported `tokenUsage.totalCents` when present, else a
 * list-price estimate from the bundled table. Unknown models stay unpriced — never zero, never a fuzzy
 * match (docs/invariants.md, "No unknown price as zero").
 */
import type { TokenUsage } from '../api/schemas/events.js';
import { PRICE_TABLE, type PriceRow, type TokenRates } from './price-table.js';

const VENDOR_PREFIXES = ['anthropic/', 'anthropic.', 'openai/', 'openai:', 'google/'];
// Thinking, effort, context and legacy max suffixes do not change the per-token rate.
const RATE_NEUTRAL_SUFFIXES = new Set([
  'thinking',
  'minimal',
  'low',
  'medium',
  'high',
  'xhigh',
  'max',
  '1m',
  'standard',
]);
const CURSOR_ORDER = /^claude-(\d+)(?:\.(\d+))?-(sonnet|opus|haiku)$/;
const PROVIDER_ORDER = /^claude-(sonnet|opus|haiku)-(\d+)(?:[.-](\d{1,2}))?(?:-\d{8})?$/;

function anthropicKey(family: string, major: string, minor: string | undefined): string {
  return minor && minor !== '0' ? `claude-${family}-${major}-${minor}` : `claude-${family}-${major}`;
}

/**
 * The price-table key for a Cursor model name: lowercased and trimmed, vendor prefix removed, rate-neutral
 * suffixes dropped, Anthropic names in the provider order. `-fast` is kept as a distinct key, so it is
 * priced only where the table has a `-fast` row.
 */
export function priceKeyFor(model: string): string {
  let name = model.trim().toLowerCase();
  const prefix = VENDOR_PREFIXES.find((candidate) => name.startsWith(candidate));
  if (prefix) name = name.slice(prefix.length);

  const parts = name.split('-');
  let fast = false;
  while (parts.length > 1) {
    const last = parts[parts.length - 1]!;
    if (last === 'fast') fast = true;
    else if (!RATE_NEUTRAL_SUFFIXES.has(last)) break;
    parts.pop();
    if (last === 'high' && parts.length > 1 && parts[parts.length - 1] === 'extra') parts.pop();
  }
  let base = parts.join('-');

  if (base === 'auto' || base === 'default') base = 'cursor-auto';
  else if (base.startsWith('gemini-') && base.endsWith('-preview')) base = base.slice(0, -'-preview'.length);
  else {
    const cursorOrder = CURSOR_ORDER.exec(base);
    const providerOrder = cursorOrder ? null : PROVIDER_ORDER.exec(base);
    if (cursorOrder) base = anthropicKey(cursorOrder[3]!, cursorOrder[1]!, cursorOrder[2]);
    else if (providerOrder) base = anthropicKey(providerOrder[1]!, providerOrder[2]!, providerOrder[3]);
  }
  return fast ? `${base}-fast` : base;
}

function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** Whether a price row applies at `atMs`: from its first UTC day, until (not including) its last. */
export function priceRowAppliesAt(row: PriceRow, atMs: number): boolean {
  return (
    (row.validFrom === undefined || atMs >= dayStartMs(row.validFrom)) &&
    (row.validUntil === undefined || atMs < dayStartMs(row.validUntil))
  );
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
}

export interface ListPricer {
  /** List-price cost in cents, or null when the model (at that date) has no row. */
  estimateCents(model: string | undefined, tokens: TokenCounts, atMs: number): number | null;
}

/** Cursor's four counters do not overlap, so each bills at its own rate. */
function centsAt(rates: TokenRates, tokens: TokenCounts): number {
  const usd =
    (tokens.inputTokens * rates.input +
      tokens.outputTokens * rates.output +
      tokens.cacheWriteTokens * (rates.cacheWrite ?? rates.input) +
      tokens.cacheReadTokens * rates.cacheRead) /
    1_000_000;
  return usd * 100;
}

export function createListPricer(table: readonly PriceRow[] = PRICE_TABLE): ListPricer {
  const rowsByKey = new Map<string, PriceRow[]>();
  for (const row of table) {
    const rows = rowsByKey.get(row.key) ?? [];
    rows.push(row);
    rowsByKey.set(row.key, rows);
  }
  const keyCache = new Map<string, string>();
  return {
    estimateCents(model, tokens, atMs) {
      if (model === undefined) return null;
      let key = keyCache.get(model);
      if (key === undefined) {
        key = priceKeyFor(model);
        keyCache.set(model, key);
      }
      const row = rowsByKey.get(key)?.find((candidate) => priceRowAppliesAt(candidate, atMs));
      if (!row) return null;
      const prompt = tokens.inputTokens + tokens.cacheWriteTokens + tokens.cacheReadTokens;
      const rates = row.longContext && prompt > row.longContext.aboveTokens ? row.longContext : row;
      const cents = centsAt(rates, tokens);
      return Number.isFinite(cents) ? cents : null;
    },
  };
}

export type EventCost =
  | { source: 'reported'; cents: number }
  | { source: 'estimated'; cents: number }
  | { source: 'unpriced' }
  /** A reported value that is present but unusable: fails the model's sum closed. */
  | { source: 'invalid' };

const UNPRICED: EventCost = { source: 'unpriced' };
const INVALID: EventCost = { source: 'invalid' };

/**
 * Reported zero stays zero; malformed, negative or non-finite reported costs
 * are invalid; the list price is used only when totalCents is missing or null.
 */
export function eventCost(
  usage: TokenUsage,
  model: string | undefined,
  atMs: number,
  pricer: ListPricer | null,
): EventCost {
  if (usage.totalCentsInvalid) return INVALID;
  if (usage.totalCents !== undefined) {
    return Number.isFinite(usage.totalCents) && usage.totalCents >= 0
      ? { source: 'reported', cents: usage.totalCents }
      : INVALID;
  }
  const cents = pricer?.estimateCents(model, usage, atMs) ?? null;
  return cents === null ? UNPRICED : { source: 'estimated', cents };
}
