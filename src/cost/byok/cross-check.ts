/**
 * The BYOK cross-check: the tokens the proxy saw beside those cursor.com recorded as `USER_API_KEY` requests
 * for the same window and account(s). Best effort (docs/invariants.md, "Best-effort lookups never fail a
 * run"): when Cursor's figures cannot be had, or are not complete, there is no cross-check, and `--verbose`
 * says why. Pure: reports in, a comparison out.
 */
import type { CostReport } from '../types.js';

export interface CrossCheck {
  /** Cursor's `USER_API_KEY` requests in the window, and their tokens (all four counters). */
  cursorRequests: number;
  cursorTokens: number;
  /** The ledger's counted requests, and the tokens of those with usage (prompt + completion). */
  proxyRequests: number;
  proxyTokens: number;
}

export type CrossCheckResult = { ok: true; check: CrossCheck } | { ok: false; reason: string };

/**
 * The comparison, from each selected account's report (several with `--all-accounts`, summed: one proxy can
 * serve them all). A failed account, or a token sum that is unknown on either side, leaves it out.
 */
export function crossCheckOf(
  cursor: readonly ({ ok: true; report: CostReport } | { ok: false; reason: string })[],
  proxy: { requests: number; tokens: number | null },
): CrossCheckResult {
  if (proxy.tokens === null) return { ok: false, reason: "the proxy's token sum is unknown (overflow)" };
  let cursorRequests = 0;
  let cursorTokens = 0;
  for (const outcome of cursor) {
    if (!outcome.ok) return { ok: false, reason: outcome.reason };
    const byok = outcome.report.byKind.byok;
    if (byok.totalTokens === null) return { ok: false, reason: "cursor.com's BYOK token sum is unknown" };
    cursorRequests += byok.requests;
    cursorTokens += byok.totalTokens;
  }
  if (!Number.isSafeInteger(cursorTokens)) {
    return { ok: false, reason: "cursor.com's BYOK token sum is unknown (overflow)" };
  }
  return {
    ok: true,
    check: { cursorRequests, cursorTokens, proxyRequests: proxy.requests, proxyTokens: proxy.tokens },
  };
}

/**
 * How far Cursor's count is from the proxy's, in percent of the proxy's (−2.0 means Cursor recorded 2 %
 * fewer tokens); undefined when the proxy saw none.
 */
export function crossCheckDeviation(check: CrossCheck): number | undefined {
  if (check.proxyTokens === 0) return undefined;
  return ((check.cursorTokens - check.proxyTokens) / check.proxyTokens) * 100;
}
