import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions } from '../cli/options.js';
import type { LoginFlags } from './login-run.js';
import type { LogoutFlags } from './logout.js';

/**
 * `login` and `logout` (docs/behaviour.md §27.5). This file only declares them; their code is imported when
 * one runs, so no other command loads it (docs/architecture.md, Start-up).
 */
export function registerLoginCommands(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  addOutputOptions(
    program
      .command('login')
      .description('add a cursor.com session as a token account: pasted without echo, verified, then saved'),
  )
    .option('--stdin', 'read the cookie from stdin instead of a hidden prompt')
    .option('--label <name>', 'the token account label (default: the account email)')
    .option('--no-activate', 'keep the active account as it is')
    .addHelpText('after', LOGIN_EXAMPLES)
    .action(async (flags: LoginFlags) => {
      const { loginCommand } = await import('./login-run.js');
      setExitCode(await loginCommand(flags, io));
    });
  addOutputOptions(
    program
      .command('logout')
      .description('remove a token account from the config file (the active one unless told)'),
  )
    .option('--account <label>', 'the token account with this label')
    .option('--all', 'every token account')
    .action(async (flags: LogoutFlags) => {
      const { logoutCommand } = await import('./logout.js');
      setExitCode(await logoutCommand(flags, io));
    });
}

const LOGIN_EXAMPLES = `
The secret is never an argument: paste it at the hidden prompt, or pipe it in with --stdin.

Examples:
  codexbar login                             paste, verify, save as the active account
  codexbar login --label work --no-activate  add a second account without switching to it
  pbpaste | codexbar login --stdin           macOS: from the clipboard
  wl-paste | codexbar login --stdin          Wayland (xclip -o -selection clipboard on X11)
  codexbar logout --account work             forget one account`;
