import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, outputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { findConfigPath } from '../config/config.js';
import { readConfigDocument } from '../config/document.js';
import { type RemoveResult, type RemoveTarget, removeTokenAccounts } from '../config/edit.js';
import { updateConfigFile } from '../config/write.js';
import { AccountSelectionError, ArgumentError } from '../errors.js';
import { displayPath } from '../local/paths.js';
import { safeText } from '../render/safe-text.js';

/** `codexbar logout`. */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addOutputOptions(
    program
      .command('logout')
      .description('remove a token account from the config file (the active one unless told)'),
  )
    .option('--account <label>', 'the token account with this label')
    .option('--all', 'every token account')
    .action(async (flags: LogoutFlags) => setExitCode(await logoutCommand(flags, io)));
}

interface LogoutFlags extends OutputFlags {
  account?: string;
  all?: boolean;
}

/**
 * `codexbar logout`: removes the active token account, the one `--account` names, or every one with `--all`,
 * from the config file. The session itself stays valid on cursor.com.
 */
async function logoutCommand(flags: LogoutFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, outputOptions(flags));
  try {
    if (flags.all && flags.account !== undefined)
      throw new ArgumentError('--all cannot be combined with --account.');
    const target: RemoveTarget = flags.all
      ? { kind: 'all' }
      : flags.account?.trim()
        ? { kind: 'label', label: flags.account.trim() }
        : { kind: 'active' };
    // No file, no accounts: say so without creating anything.
    if ((await readConfigDocument(await findConfigPath(io))).kind === 'missing') throw noAccounts();
    const { path, result } = await updateConfigFile(io, (current) => {
      if (current === undefined) throw noAccounts();
      const removal = removeTokenAccounts(current, target);
      if (removal.removed.length === 0) {
        // Thrown inside the update: the file is left exactly as it was.
        if (removal.remaining === 0) throw noAccounts();
        throw new AccountSelectionError(
          `No token account labeled '${(target as { label: string }).label}' for cursor.`,
        );
      }
      return { config: current, result: removal };
    });
    if (reporter.json) reporter.printJson({ ...result, configPath: path });
    else reporter.printText(summary(result, displayPath(path, io)));
    return 0;
  } catch (error) {
    return reporter.fail(error);
  }
}

function noAccounts(): AccountSelectionError {
  return new AccountSelectionError('No token accounts configured for cursor.');
}

function summary(result: RemoveResult, shown: string): string {
  // Labels are the user's text, or cursor.com's email: shown with their control characters escaped.
  const names = result.removed.map((label) => `"${safeText(label)}"`).join(', ');
  const lines = [`Removed token account${result.removed.length > 1 ? 's' : ''} ${names} from ${shown}.`];
  if (result.active !== undefined) lines.push(`Active account: ${safeText(result.active)}.`);
  else lines.push('No token accounts left: codexbar uses the other credential sources again.');
  return lines.join('\n');
}
