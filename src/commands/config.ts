import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, type OutputOptions, outputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';

type ConfigActions = typeof import('./config-run.js');

/**
 * `codexbar config validate|dump|providers|enable|disable` (docs/behaviour.md §27.4). `validate` is the
 * default. Only `enable` and `disable` write, through updateConfigFile (§27.1).
 */
export function registerConfigCommand(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  const config = program
    .command('config')
    .description('check, show and change the config file CodexBar and codexbar share')
    .addHelpText('after', CONFIG_EXAMPLES);
  // The subcommands' code is imported only when one runs (docs/architecture.md, Start-up).
  const action =
    <F extends OutputFlags>(
      run: (actions: ConfigActions, flags: F, reporter: Reporter<OutputOptions>) => Promise<number>,
    ) =>
    async (flags: F) => {
      const reporter = new Reporter(io, outputOptions(flags));
      try {
        setExitCode(await run(await import('./config-run.js'), flags, reporter));
      } catch (error) {
        setExitCode(reporter.fail(error));
      }
    };

  addOutputOptions(
    config.command('validate', { isDefault: true }).description('check the config file (default)'),
  ).action(action((run, _flags, reporter) => run.validate(reporter)));
  addOutputOptions(config.command('dump').description('print the config file as JSON, credentials redacted'))
    .option('--show-secrets', 'print tokens, cookies and keys as they are')
    .action(
      action((run, flags: OutputFlags & { showSecrets?: boolean }, reporter) =>
        run.dump(reporter, flags.showSecrets === true),
      ),
    );
  addOutputOptions(
    config.command('providers').description('list the providers and whether they are enabled'),
  ).action(action((run, _flags, reporter) => run.providers(reporter)));
  for (const enabled of [true, false]) {
    addOutputOptions(
      config
        .command(enabled ? 'enable' : 'disable')
        .description(
          `${enabled ? 'enable' : 'disable'} a provider in CodexBar (codexbar always queries Cursor)`,
        ),
    )
      .option('--provider <id>', 'the provider: cursor, or one already in the file')
      .action(
        action((run, flags: OutputFlags & { provider?: string }, reporter) =>
          run.toggle(reporter, flags.provider, enabled),
        ),
      );
  }
}

const CONFIG_EXAMPLES = `
Examples:
  codexbar config                            check the config file (same as: codexbar config validate)
  codexbar config dump --pretty              the file with tokens and cookies redacted
  codexbar config enable --provider cursor   show Cursor in CodexBar too`;
