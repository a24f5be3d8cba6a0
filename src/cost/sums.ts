/**
 * The sums and order that every report level shares: days, the window, kinds, and the weekly and monthly
 * groups of `--by` all add up the same way.
 */

import { moneyAtPrecision } from '../lib/money.js';
import { checkedSum } from './accumulators.js';
import { ExactSum } from './exact-sum.js';
import type { CostModelRow, TokenTotals } from './types.js';

/** What a row is ranked by. */
export type RankedRow = Pick<CostModelRow, 'costUSD' | 'totalTokens' | 'modelName'>;

/** Cost desc (unknown = −1), then totalTokens desc, then name asc. */
export function compareModelRows(a: RankedRow, b: RankedRow): number {
  const costA = a.costUSD ?? -1;
  const costB = b.costUSD ?? -1;
  if (costA !== costB) return costB - costA;
  const tokensA = a.totalTokens ?? -1;
  const tokensB = b.totalTokens ?? -1;
  if (tokensA !== tokensB) return tokensB - tokensA;
  return a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0;
}

/**
 * An exact sum of USD figures, or null once it leaves the finite range in cents: the figures are sums of
 * cents (src/cost/accumulators.ts), and a sum of them is held to the same limit (docs/invariants.md,
 * "No unknown price as zero").
 */
function usdSum(values: readonly number[]): number | null {
  const sum = new ExactSum();
  for (const value of values) sum.add(value);
  const usd = sum.value;
  return sum.finite && Number.isFinite(usd * 100) ? moneyAtPrecision(usd) : null;
}

/**
 * The day rule: the sum of the known values, or null when none is known. Exact, so the
 * order of the values (e.g. a kind's models, in the order they were first seen) never changes a digit.
 */
export function sumKnown(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : usdSum(known);
}

export function allKnown(values: readonly (number | null)[]): number | null {
  return values.includes(null) ? null : usdSum(values as readonly number[]);
}

/** Each token field summed with overflow checks; the total is the sum of the four sums. */
export function sumTokens(parts: readonly TokenTotals[]): TokenTotals {
  const field = (pick: (part: TokenTotals) => number | null) => checkedSum(parts.map(pick));
  const inputTokens = field((part) => part.inputTokens);
  const outputTokens = field((part) => part.outputTokens);
  const cacheReadTokens = field((part) => part.cacheReadTokens);
  const cacheCreationTokens = field((part) => part.cacheCreationTokens);
  return {
    inputTokens,
    outputTokens,
    cacheReadTokens,
    cacheCreationTokens,
    totalTokens: checkedSum([inputTokens, outputTokens, cacheReadTokens, cacheCreationTokens]),
  };
}
