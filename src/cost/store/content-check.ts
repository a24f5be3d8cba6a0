/**
 * The event store's content check (docs/invariants.md, "When a stored range may be trusted"): the sums of
 * the events a range holds, against cursor.com's own totals of that range. A count alone cannot see
 * settled events re-rated in place; their cost sum can.
 */
import type { RangeTotals } from '../../api/schemas/aggregated-usage.js';
import { type EventRows, HAS_TOKENS } from '../events/rows.js';
import { ExactSum } from '../exact-sum.js';

/**
 * Cents are summed in another order on cursor.com's side, so they may differ in the last binary digits;
 * a re-rating moves them by far more than this.
 */
const CENTS_TOLERANCE = 1e-9;

/** The totals of the events held, as cursor.com sums them: the four token counts and `totalCents`. */
export function heldTotals(rows: EventRows): RangeTotals {
  const cents = new ExactSum();
  const tokens = [0, 0, 0, 0];
  for (let i = 0; i < rows.length; i++) {
    if ((rows.flags[i]! & HAS_TOKENS) === 0) continue;
    tokens[0]! += rows.inputTokens[i]!;
    tokens[1]! += rows.outputTokens[i]!;
    tokens[2]! += rows.cacheReadTokens[i]!;
    tokens[3]! += rows.cacheWriteTokens[i]!;
    const value = rows.totalCents[i]!;
    if (!Number.isNaN(value)) cents.add(value);
  }
  return {
    inputTokens: tokens[0]!,
    outputTokens: tokens[1]!,
    cacheReadTokens: tokens[2]!,
    cacheWriteTokens: tokens[3]!,
    totalCents: cents.finite ? cents.value : Number.NaN,
  };
}

const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

/**
 * Equal totals: every token sum exactly (a sum past 2^53 cannot be compared, so it never matches), and the
 * cents within rounding.
 */
export function sameTotals(held: RangeTotals, reported: RangeTotals): boolean {
  for (const field of TOKEN_FIELDS) {
    if (!Number.isSafeInteger(held[field]) || held[field] !== reported[field]) return false;
  }
  const scale = Math.max(1, Math.abs(reported.totalCents));
  return Math.abs(held.totalCents - reported.totalCents) <= CENTS_TOLERANCE * scale;
}

/** Totals for `--verbose`: `$7.35, 1,234 tokens`. */
export function totalsText(totals: RangeTotals): string {
  const tokens = TOKEN_FIELDS.reduce((sum, field) => sum + totals[field], 0);
  const cost = Number.isFinite(totals.totalCents) ? `$${(totals.totalCents / 100).toFixed(2)}` : 'no cost';
  return `${cost}, ${tokens.toLocaleString('en-US')} tokens`;
}
