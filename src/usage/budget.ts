/**
 * The budget verdict `codexbar guard` and the MCP tool `cursor_budget_check` share: for Cursor the session
 * window is the primary one and weekly the secondary; what is left is 100 − used, clamped to 0–100; exactly
 * the minimum left still passes; a snapshot that cannot be had, or has no such window, is `unknown` with a
 * reason.
 */
import {
  AccountSelectionError,
  ConfigError,
  NoSessionError,
  NotLoggedInError,
  TimeoutError,
  UnsupportedError,
} from '../errors.js';
import type { UsageSnapshot } from '../usage/types.js';

export type BudgetWindow = 'session' | 'weekly';
export type UnavailableReason = 'account-resolution' | 'fetch-failed' | 'timeout' | 'window-unavailable';

export interface BudgetVerdict {
  decision: 'ok' | 'blocked' | 'unknown';
  remainingPercent?: number;
  unavailableReason?: UnavailableReason;
}

export function verdictOf(
  snapshot: UsageSnapshot,
  window: BudgetWindow,
  minRemaining: number,
): BudgetVerdict {
  const figures = window === 'session' ? snapshot.primary : snapshot.secondary;
  if (!figures) return { decision: 'unknown', unavailableReason: 'window-unavailable' };
  const remainingPercent = Math.min(100, Math.max(0, 100 - figures.usedPercent));
  return { decision: remainingPercent >= minRemaining ? 'ok' : 'blocked', remainingPercent };
}

export function unavailableVerdict(error: unknown): BudgetVerdict {
  return { decision: 'unknown', unavailableReason: unavailableReasonFor(error) };
}

export function unavailableReasonFor(error: unknown): UnavailableReason {
  if (error instanceof TimeoutError) return 'timeout';
  const noAccount =
    error instanceof NoSessionError ||
    error instanceof NotLoggedInError ||
    error instanceof ConfigError ||
    error instanceof UnsupportedError ||
    error instanceof AccountSelectionError;
  return noAccount ? 'account-resolution' : 'fetch-failed';
}
