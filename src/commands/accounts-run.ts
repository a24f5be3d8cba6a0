import type { CursorClient } from '../api/client.js';
import type { Session } from '../auth/types.js';
import { mapWithConcurrency } from '../concurrency.js';
import {
  type AccountFlags,
  accountFlagsUsed,
  checkAccountFlags,
  type SelectedAccount,
  selectAccounts,
} from '../config/accounts.js';
import { ArgumentError } from '../errors.js';
import { type Purpose, prepareCursor, runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import type { SharedOptions } from './options.js';

/** docs/behaviour.md §27.3: at most this many accounts are fetched at once. */
const ACCOUNT_CONCURRENCY = 4;

/** One row's worth of work: the account it ran as (none for the ordinary ladder) and how it ended. */
export type AccountOutcome<T> =
  | { account?: SelectedAccount; ok: true; value: T; session: Session }
  | { account?: SelectedAccount; ok: false; error: unknown };

/**
 * Runs `perform` once per selected token account (docs/behaviour.md §27.2–27.3), or once through the ordinary
 * credential ladder when no account applies. Flag, config and selection errors are thrown (nothing has
 * been fetched yet); a failure of one account is its outcome, and the others still run. Outcomes keep the
 * config order whatever order the fetches finish in.
 */
export async function runForAccounts<T>(
  io: CliIo,
  options: SharedOptions,
  flags: AccountFlags,
  purpose: Purpose,
  log: (line: string) => void,
  perform: (client: CursorClient, session: Session, account: SelectedAccount | undefined) => Promise<T>,
): Promise<AccountOutcome<T>[]> {
  checkAccountFlags(flags);
  if (options.cookieFlag !== undefined && accountFlagsUsed(flags)) {
    throw new ArgumentError('--cookie cannot be combined with --account, --account-index or --all-accounts.');
  }
  const prep = await prepareCursor(io, options, log);
  const envCookie = io.env.CODEXBAR_CURSOR_COOKIE?.trim();
  const accounts = selectAccounts(prep.config.cursor, flags, {
    manualOverride: options.cookieFlag !== undefined || Boolean(envCookie),
  });
  const fetchAs = async (account: SelectedAccount | undefined): Promise<AccountOutcome<T>> => {
    const accountLog = account && accounts.length > 1 ? labelledLog(log, account.label) : log;
    const { value, session } = await runWithCursorSession(
      io,
      options,
      purpose,
      accountLog,
      (client, session) => perform(client, session, account),
      { prep, account },
    );
    return { account, ok: true, value, session };
  };
  // The ordinary ladder is one run: its failure is the command's, printed like any other (an argument error
  // stays a `cli` row). With token accounts, one account's failure is its own row.
  if (accounts.length === 0) return [await fetchAs(undefined)];
  return mapWithConcurrency(accounts, ACCOUNT_CONCURRENCY, (account) =>
    fetchAs(account).catch((error: unknown): AccountOutcome<T> => ({ account, ok: false, error })),
  );
}

/** `[cursor] Using …` becomes `[cursor - work] Using …` when several accounts log at once. */
function labelledLog(log: (line: string) => void, label: string): (line: string) => void {
  return (line) => log(line.replace(/^\[([\w-]+)\]/, (_match, tag: string) => `[${tag} - ${label}]`));
}

/** docs/behaviour.md §4, §27.3: the run exits with the code of the last failing row, else 0. */
export function lastFailureCode<T>(
  outcomes: readonly AccountOutcome<T>[],
  codeOf: (error: unknown) => number,
): number {
  let code = 0;
  for (const outcome of outcomes) if (!outcome.ok) code = codeOf(outcome.error);
  return code;
}
