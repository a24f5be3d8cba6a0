import { AccountSelectionError, ArgumentError } from '../errors.js';
import type { CursorConfig } from './config.js';

/**
 * Token-account selection: which configured accounts a command runs for. Pure: the caller has parsed the
 * flags (or a query string) and loaded the config.
 */

/** `--account <label>`, `--account-index <n>` (1-based), `--all-accounts`. */
export interface AccountFlags {
  account?: string;
  accountIndex?: number;
  allAccounts?: boolean;
}

/** One configured token account picked for a run. */
export interface SelectedAccount {
  /** 0-based position in `tokenAccounts.accounts`. */
  index: number;
  id: string;
  label: string;
  /** As stored: for Cursor a Cookie header, cleaned when it is used. Never print it. */
  token: string;
}

const ALL_ACCOUNTS_CONFLICT = '--all-accounts cannot be combined with --account or --account-index.';
export const ACCOUNT_INDEX_INVALID = '--account-index must be a positive integer.';

/** `--account-index`: a positive whole number (`3`, `+3`), else undefined; 1-based as the user counts. */
export function parseAccountIndex(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\+?\d+$/.test(trimmed)) return undefined;
  const index = Number(trimmed);
  return Number.isSafeInteger(index) && index > 0 ? index : undefined;
}

/** Whether any account flag was given (an empty `--account ""` counts, as CodexBar counts it). */
export function accountFlagsUsed(flags: AccountFlags): boolean {
  return flags.account !== undefined || flags.accountIndex !== undefined || flags.allAccounts === true;
}

/**
 * The one combination CodexBar refuses before anything is read: an argument error. Each command checks it
 * once, first; selectAccounts and forEachAccount take the flags as checked.
 */
export function checkAccountFlags(flags: AccountFlags): void {
  if (flags.allAccounts === true && (flags.account !== undefined || flags.accountIndex !== undefined)) {
    throw new ArgumentError(ALL_ACCOUNTS_CONFLICT);
  }
}

export interface SelectOptions {
  /**
   * A manual header from `--cookie` or `CODEXBAR_CURSOR_COOKIE` is in effect: without account flags it beats
   * the active account, so nothing is selected.
   */
  manualOverride?: boolean;
}

/**
 * The accounts to run, in config order. Empty means "no token account": the ordinary credential ladder.
 * - no accounts configured: empty, or `No token accounts configured for cursor.` when a flag asked for one;
 * - `--all-accounts`: every account;
 * - `--account <label>` (trimmed, case-insensitive; beats `--account-index`): that account;
 * - `--account-index <n>`: the n-th account;
 * - otherwise the account at `activeIndex`, clamped into the list.
 */
export function selectAccounts(
  cursor: CursorConfig,
  flags: AccountFlags,
  options: SelectOptions = {},
): SelectedAccount[] {
  const used = accountFlagsUsed(flags);
  if (!used && options.manualOverride) return [];
  const accounts = (cursor.tokenAccounts?.accounts ?? []).map(
    (account, index): SelectedAccount => ({
      index,
      id: account.id,
      label: account.label,
      token: account.token,
    }),
  );
  if (accounts.length === 0) {
    if (used) {
      throw new AccountSelectionError(
        'No token accounts configured for cursor.',
        'Add one with `codexbar login` (it verifies the cookie and stores it in the config file).',
      );
    }
    return [];
  }
  if (flags.allAccounts) return accounts;

  const label = flags.account?.trim();
  if (label) {
    const wanted = label.toLowerCase();
    const match = accounts.find((account) => account.label.trim().toLowerCase() === wanted);
    if (match) return [match];
    throw new AccountSelectionError(
      `No token account labeled '${label}' for cursor.`,
      `Configured: ${accounts.map((account) => account.label).join(', ')}.`,
    );
  }
  if (flags.accountIndex !== undefined) {
    const account = accounts[flags.accountIndex - 1];
    if (flags.accountIndex < 1 || account === undefined) {
      throw new AccountSelectionError(
        `Token account index ${flags.accountIndex} out of range for cursor (1-${accounts.length}).`,
      );
    }
    return [account];
  }
  return [accounts[activeIndex(cursor, accounts.length)]!];
}

/** `activeIndex` clamped into the list, as CodexBar clamps it. */
export function activeIndex(cursor: CursorConfig, count: number): number {
  return Math.min(Math.max(cursor.tokenAccounts?.activeIndex ?? 0, 0), Math.max(count - 1, 0));
}
