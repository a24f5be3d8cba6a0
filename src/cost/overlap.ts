/**
 * Page-boundary overlap (codexbar-core.md §2.5). Events have no stable id, so rows repeated at a page
 * boundary are recognised by comparing every decoded field.
 */
import type { TokenUsage, UsageEvent } from '../api/schemas/events.js';

function tokenUsageEqual(a: TokenUsage | undefined, b: TokenUsage | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.inputTokens === b.inputTokens &&
    a.outputTokens === b.outputTokens &&
    a.cacheWriteTokens === b.cacheWriteTokens &&
    a.cacheReadTokens === b.cacheReadTokens &&
    a.totalCents === b.totalCents &&
    a.totalCentsInvalid === b.totalCentsInvalid
  );
}

/** §2.5: two rows that differ in any decoded field (even only totalCents or chargedCents) are distinct. */
export function eventsEqual(a: UsageEvent, b: UsageEvent): boolean {
  return (
    a.timestamp === b.timestamp &&
    a.model === b.model &&
    a.chargedCents === b.chargedCents &&
    a.kind === b.kind &&
    a.requestsCosts === b.requestsCosts &&
    a.usageBasedCosts === b.usageBasedCosts &&
    a.isTokenBasedCall === b.isTokenBasedCall &&
    a.owningUser === b.owningUser &&
    a.owningTeam === b.owningTeam &&
    a.cursorTokenFee === b.cursorTokenFee &&
    a.isChargeable === b.isChargeable &&
    a.isHeadless === b.isHeadless &&
    a.userEmail === b.userEmail &&
    tokenUsageEqual(a.tokenUsage, b.tokenUsage)
  );
}

/**
 * The largest n ≤ min(|previous|, |current|) such that the last n rows of `previous` equal the first n
 * rows of `current`. Knuth–Morris–Pratt over the rows, so even a page of identical rows costs O(n)
 * comparisons rather than O(n²).
 */
export function boundaryOverlap(previous: readonly UsageEvent[], current: readonly UsageEvent[]): number {
  const limit = Math.min(previous.length, current.length);
  if (limit === 0) return 0;
  // Fast exit for the usual case: the first row of the page appears nowhere in the compared tail.
  const tailStart = previous.length - limit;
  const first = current[0]!;
  let seen = false;
  for (let i = tailStart; i < previous.length && !seen; i++) seen = eventsEqual(previous[i]!, first);
  if (!seen) return 0;

  const failure = new Int32Array(limit);
  for (let i = 1, k = 0; i < limit; i++) {
    while (k > 0 && !eventsEqual(current[i]!, current[k]!)) k = failure[k - 1]!;
    if (eventsEqual(current[i]!, current[k]!)) k++;
    failure[i] = k;
  }
  let matched = 0;
  for (let i = tailStart; i < previous.length; i++) {
    while (matched > 0 && (matched === limit || !eventsEqual(previous[i]!, current[matched]!))) {
      matched = failure[matched - 1]!;
    }
    if (eventsEqual(previous[i]!, current[matched]!)) matched++;
  }
  return matched;
}
