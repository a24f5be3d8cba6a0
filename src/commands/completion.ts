import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from '../cli/io.js';
import { reportFailure } from '../cli/output.js';
import { bashScript } from '../completion/bash.js';
import { fishScript } from '../completion/fish.js';
import { powershellScript } from '../completion/powershell.js';
import { completionSpec } from '../completion/spec.js';
import { zshScript } from '../completion/zsh.js';
import { findConfigPath } from '../config/config.js';
import { readConfigDocument } from '../config/document.js';
import { ArgumentError } from '../errors.js';
import { safeText } from '../render/safe-text.js';

const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
type Shell = (typeof SHELLS)[number];

const GENERATORS: Record<Shell, typeof bashScript> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
  powershell: powershellScript,
};

/**
 * `codexbar completion bash|zsh|fish|powershell` prints a script generated from `program` as it is when the
 * command runs, so it always matches the real commands and flags. The hidden `--list-accounts` is what the
 * scripts call back to offer the token-account labels of the config.
 */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh, fish or powershell)')
    .addArgument(
      new Argument('[shell]', 'the shell to complete for').choices(SHELLS).argParser((value: string) => {
        const shell = value.trim().toLowerCase();
        if (!(SHELLS as readonly string[]).includes(shell)) {
          throw new InvalidArgumentError(`the shell must be one of ${SHELLS.join(', ')} (got '${value}').`);
        }
        return shell;
      }),
    )
    .addOption(new Option('--list-accounts', 'print the token-account labels, one per line').hideHelp())
    .addHelpText('after', COMPLETION_HELP)
    .action(async (shell: Shell | undefined, flags: { listAccounts?: boolean }) => {
      if (flags.listAccounts) {
        await listAccounts(io);
        return;
      }
      if (shell === undefined) {
        setExitCode(
          reportFailure(io, new ArgumentError(`completion needs a shell: ${SHELLS.join(', ')}.`), {
            json: false,
            pretty: false,
            jsonOnly: false,
          }),
        );
        return;
      }
      io.stdout.write(GENERATORS[shell](completionSpec(program)));
    });
}

const COMPLETION_HELP = `
Install:
  bash        echo 'source <(codexbar completion bash)' >> ~/.bashrc
  zsh         echo 'source <(codexbar completion zsh)' >> ~/.zshrc        (after compinit)
  fish        codexbar completion fish > ~/.config/fish/completions/codexbar.fish
  powershell  codexbar completion powershell | Out-String | Invoke-Expression   (add it to $PROFILE)`;

/** The labels for `--account <TAB>`; a missing or broken config simply offers none. */
async function listAccounts(io: CliIo): Promise<void> {
  const document = await readConfigDocument(await findConfigPath(io));
  if (document.kind !== 'ok') return;
  const cursor = document.file.providers.find((entry) => entry.id === 'cursor');
  // A label is the config file's text: one line, escapes visible (docs/invariants.md, "Control characters
  // never reach a terminal").
  const labels = (cursor?.tokenAccounts?.accounts ?? [])
    .map((account) => safeText(account.label.trim()))
    .filter(Boolean);
  if (labels.length > 0) io.stdout.write(`${labels.join('\n')}\n`);
}
