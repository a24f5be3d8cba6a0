import type { CliIo } from '../cli/io.js';
import type { SharedOptions } from '../cli/options.js';
import {
  type AccountFlags,
  accountFlagsUsed,
  type SelectedAccount,
  selectAccounts,
} from '../config/accounts.js';
import { ArgumentError } from '../errors.js';
import { mapWithConcurrency } from '../lib/concurrency.js';
import { type CursorPrep, type CursorTarget, prepareCursor } from './cursor-session.js';

/** At most this many accounts are fetched at once. */
const ACCOUNT_CONCURRENCY = 4;

/** How one account's run ended: the account it ran as (none for the ordinary ladder), and its value or error. */
export type AccountOutcome<V> =
  | { account?: SelectedAccount; ok: true; value: V }
  | { account?: SelectedAccount; ok: false; error: unknown };

/**
 * Runs `perform` once per selected token account, or once through the ordinary credential ladder when no
 * account applies: `perform` gets the target to open the session with (through `openCursorSession` or
 * `runWithCursorSession`) and the log to write to. The caller has checked the account flags
 * (`checkAccountFlags`). Config and selection errors are thrown (nothing has been fetched yet); a failure of
 * one account is its outcome, and the others still run. Outcomes keep the config order whatever order the
 * fetches finish in.
 */
export async function forEachAccount<V>(
  io: CliIo,
  options: SharedOptions,
  flags: AccountFlags,
  log: (line: string) => void,
  perform: (target: CursorTarget, log: (line: string) => void) => Promise<V>,
  /** A preparation already made (serve's, with the config its request read); otherwise one is made here. */
  given?: CursorPrep,
): Promise<AccountOutcome<V>[]> {
  if (options.cookieFlag !== undefined && accountFlagsUsed(flags)) {
    throw new ArgumentError('--cookie cannot be combined with --account, --account-index or --all-accounts.');
  }
  const prep = given ?? (await prepareCursor(io, options, log));
  const envCookie = io.env.CODEXBAR_CURSOR_COOKIE?.trim();
  const manualOverride = options.cookieFlag !== undefined || Boolean(envCookie);
  const accounts = selectAccounts(prep.config.cursor, flags, { manualOverride });
  // The account a run without flags would use: a flag naming any other one is off the ladder.
  const [plain] = accountFlagsUsed(flags)
    ? selectAccounts(prep.config.cursor, {}, { manualOverride })
    : accounts;
  const runAs = async (account: SelectedAccount | undefined): Promise<AccountOutcome<V>> => {
    const accountLog = account && accounts.length > 1 ? labelledLog(log, account.label) : log;
    const offLadder = account !== undefined && account.index !== plain?.index;
    return { account, ok: true, value: await perform({ prep, account, offLadder }, accountLog) };
  };
  // The ordinary ladder is one run: its failure is the command's, printed like any other (an argument error
  // stays a `cli` row). With token accounts, one account's failure is its own row.
  if (accounts.length === 0) return [await runAs(undefined)];
  return mapWithConcurrency(accounts, ACCOUNT_CONCURRENCY, (account) =>
    runAs(account).catch((error: unknown): AccountOutcome<V> => ({ account, ok: false, error })),
  );
}

/** `[cursor] Using …` becomes `[cursor - work] Using …` when several accounts log at once. */
function labelledLog(log: (line: string) => void, label: string): (line: string) => void {
  return (line) => log(line.replace(/^\[([\w-]+)\]/, (_match, tag: string) => `[${tag} - ${label}]`));
}

/** The run exits with the code of the last failing row, else 0. */
export function lastFailureCode<T>(
  outcomes: readonly AccountOutcome<T>[],
  codeOf: (error: unknown) => number,
): number {
  let code = 0;
  for (const outcome of outcomes) if (!outcome.ok) code = codeOf(outcome.error);
  return code;
}
