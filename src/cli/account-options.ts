import { type Command, InvalidArgumentError, Option } from 'commander';
import { ACCOUNT_INDEX_INVALID, parseAccountIndex } from '../config/accounts.js';

export type { AccountFlags } from '../config/accounts.js';

/**
 * `--account <label>`, `--account-index <n>` and `--all-accounts` (docs/behaviour.md §27.2), defined once for
 * every command that fetches per account. commander hands the action `AccountFlags`; pass them, with the
 * loaded config, to `selectAccounts` (src/config/accounts.ts), or run them all with `runForAccounts`
 * (src/session/accounts.ts).
 */
export function addAccountOptions(command: Command): Command {
  return command
    .option('--account <label>', 'the token account with this label (trimmed, any case)')
    .addOption(
      new Option('--account-index <n>', 'the n-th token account in the config file (1-based)').argParser(
        (value: string) => {
          const index = parseAccountIndex(value);
          if (index === undefined) throw new InvalidArgumentError(ACCOUNT_INDEX_INVALID);
          return index;
        },
      ),
    )
    .option('--all-accounts', 'every token account, fetched concurrently (4 at a time)');
}
