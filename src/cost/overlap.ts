/**
 * Page-boundary overlap (docs/behaviour.md §18.6). Events have no stable id, so rows repeated at a page
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

/** docs/behaviour.md §18.6: two rows that differ in any decoded field (even only totalCents or chargedCents) are distinct. */
function eventsEqual(a: UsageEvent, b: UsageEvent): boolean {
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

const float = new Float64Array(1);
const words = new Uint32Array(float.buffer);
const stringHashes = new Map<string, number>();

/** FNV-1a over a string's UTF-16 units; model names repeat, so each is hashed once. */
function stringHash(text: string | undefined): number {
  if (text === undefined) return 0x7ff80001;
  let hash = stringHashes.get(text);
  if (hash === undefined) {
    hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    if (stringHashes.size < 10_000) stringHashes.set(text, hash);
  }
  return hash;
}

/**
 * A fingerprint of a page's rows (docs/behaviour.md §18.11): 64 bits of hash over each row's time, model,
 * token counts and cents, in order, plus the row count. Rows that agree on all of these are the same
 * request in practice; a page with the same signature as another holds the same rows.
 */
export function pageSignature(events: readonly UsageEvent[]): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  const mix = (value: number | undefined) => {
    float[0] = value ?? Number.NaN;
    a = Math.imul(Math.imul(a ^ words[0]!, 0x01000193) ^ words[1]!, 0x01000193);
    b = Math.imul(Math.imul(b ^ words[1]!, 0x5bd1e995) ^ words[0]!, 0x5bd1e995);
  };
  for (const event of events) {
    const usage = event.tokenUsage;
    mix(event.timestamp);
    mix(stringHash(event.model));
    mix(event.chargedCents);
    mix(usage?.inputTokens);
    mix(usage?.outputTokens);
    mix(usage?.cacheWriteTokens);
    mix(usage?.cacheReadTokens);
    mix(usage?.totalCents);
  }
  return `${events.length}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}
