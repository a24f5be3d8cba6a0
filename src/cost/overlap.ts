/**
 * Page-boundary overlap. Events have no stable id, so rows repeated at a page
 * boundary are recognised by comparing every decoded field.
 */
import { type EventRows, HAS_TOKENS } from './events/rows.js';

/** SameValueZero: an absent number is NaN in the columns, and equals itself as undefined does. */
const same = (x: number, y: number) => x === y || (Number.isNaN(x) && Number.isNaN(y));

/**
 * Row `i` of `a` and row `j` of `b` are the same event: every column equal (rows
 * that differ in any decoded field, even only totalCents or chargedCents, are distinct). Flags hold the
 * booleans and the presence of token usage; without token usage the token columns hold the same fillers, so
 * they compare equal.
 */
function rowsEqual(a: EventRows, i: number, b: EventRows, j: number): boolean {
  return (
    same(a.timestamp[i]!, b.timestamp[j]!) &&
    a.model[i] === b.model[j] &&
    same(a.chargedCents[i]!, b.chargedCents[j]!) &&
    a.kind[i] === b.kind[j] &&
    a.flags[i] === b.flags[j] &&
    same(a.requestsCosts[i]!, b.requestsCosts[j]!) &&
    a.usageBasedCosts[i] === b.usageBasedCosts[j] &&
    a.owningUser[i] === b.owningUser[j] &&
    a.owningTeam[i] === b.owningTeam[j] &&
    a.userEmail[i] === b.userEmail[j] &&
    same(a.cursorTokenFee[i]!, b.cursorTokenFee[j]!) &&
    same(a.inputTokens[i]!, b.inputTokens[j]!) &&
    same(a.outputTokens[i]!, b.outputTokens[j]!) &&
    same(a.cacheWriteTokens[i]!, b.cacheWriteTokens[j]!) &&
    same(a.cacheReadTokens[i]!, b.cacheReadTokens[j]!) &&
    same(a.totalCents[i]!, b.totalCents[j]!)
  );
}

/**
 * The overlap of two pages: the largest n such that the last n rows of `previous` equal
 * the first n rows of `current`. Knuth–Morris–Pratt over the rows, so even a page of identical rows costs
 * O(n) comparisons rather than O(n²).
 */
export function rowsOverlap(previous: EventRows, current: EventRows): number {
  const limit = Math.min(previous.length, current.length);
  if (limit === 0) return 0;
  // Fast exit for the usual case: the first row of the page appears nowhere in the compared tail.
  const tailStart = previous.length - limit;
  let seen = false;
  for (let i = tailStart; i < previous.length && !seen; i++) seen = rowsEqual(previous, i, current, 0);
  if (!seen) return 0;

  const failure = new Int32Array(limit);
  for (let i = 1, k = 0; i < limit; i++) {
    while (k > 0 && !rowsEqual(current, i, current, k)) k = failure[k - 1]!;
    if (rowsEqual(current, i, current, k)) k++;
    failure[i] = k;
  }
  let matched = 0;
  for (let i = tailStart; i < previous.length; i++) {
    while (matched > 0 && (matched === limit || !rowsEqual(previous, i, current, matched)))
      matched = failure[matched - 1]!;
    if (rowsEqual(previous, i, current, matched)) matched++;
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
 * A fingerprint of a page's rows: 64 bits of hash over each row's time, model,
 * token counts and cents, in order, plus the row count. Rows that agree on all of these are the same
 * request in practice; a page with the same signature as another holds the same rows.
 */
class Signature {
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  /** One value; an absent one is NaN. */
  mix(value: number): void {
    float[0] = value;
    this.a = Math.imul(Math.imul(this.a ^ words[0]!, 0x01000193) ^ words[1]!, 0x01000193);
    this.b = Math.imul(Math.imul(this.b ^ words[1]!, 0x5bd1e995) ^ words[0]!, 0x5bd1e995);
  }

  text(rows: number): string {
    return `${rows}:${(this.a >>> 0).toString(16)}:${(this.b >>> 0).toString(16)}`;
  }
}

export function rowsSignature(rows: EventRows): string {
  const signature = new Signature();
  for (let i = 0; i < rows.length; i++) {
    const tokens = (rows.flags[i]! & HAS_TOKENS) !== 0;
    signature.mix(rows.timestamp[i]!);
    signature.mix(stringHash(rows.model[i]));
    signature.mix(rows.chargedCents[i]!);
    signature.mix(tokens ? rows.inputTokens[i]! : Number.NaN);
    signature.mix(tokens ? rows.outputTokens[i]! : Number.NaN);
    signature.mix(tokens ? rows.cacheWriteTokens[i]! : Number.NaN);
    signature.mix(tokens ? rows.cacheReadTokens[i]! : Number.NaN);
    signature.mix(rows.totalCents[i]!);
  }
  return signature.text(rows.length);
}
