import { Command, CommanderError } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import { costCommand } from './commands/cost.js';
import { addCostOptions } from './commands/cost-options.js';
import { type CliIo, processIo } from './commands/io.js';
import { addSharedOptions, argvWantsJson } from './commands/options.js';
import { printCliError } from './commands/report.js';
import { addServeCommand } from './commands/serve.js';
import { usageCommand } from './commands/usage.js';
import { ArgumentError } from './errors.js';

export const VERSION: string = pkg.version;

/**
 * contract.md §1: no command runs `usage`, and a first argument that starts with `-` gets `usage` put in
 * front, so `codexbar --json` is `codexbar usage --json`.
 */
export function effectiveArgv(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) return ['usage', ...argv];
  return [...argv];
}

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('codexbar')
    .description('Cursor plan usage and cost in the terminal, in CI and in shell prompts.')
    .version(`codexbar ${VERSION}`, '-V, --version', 'print the version')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Parse errors are printed by `run` (as text or as a JSON row), not by commander.
      outputError: () => {},
    });

  addSharedOptions(
    program
      .command('usage')
      .description('plan usage: how much is used, when it resets, pace and on-demand spend'),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  codexbar                                   plan usage (same as: codexbar usage --provider cursor)',
        '  codexbar usage --verbose                   also say which credential was used',
        "  codexbar usage --json --pretty             CodexBar's JSON row",
        '',
        'Other commands: codexbar cost --help, codexbar help',
      ].join('\n'),
    )
    .action(async (options) => setExitCode(await usageCommand(options, io)));

  addCostOptions(
    addSharedOptions(
      program
        .command('cost')
        .description('what your usage cost per day and per model (API list price and Cursor-metered)'),
    ),
  )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  codexbar cost                              the last 30 days, per day',
        '  codexbar cost --days 7 --breakdown         per-model rows under each day',
        '  codexbar cost --month --timezone Europe/Berlin',
        '  codexbar cost --since 2026-10-01 --until 20261031 --json',
      ].join('\n'),
    )
    .action(async (options, command: Command) => setExitCode(await costCommand(options, io, command)));

  addServeCommand(program, io, setExitCode);

  return program;
}

/** Runs the CLI and resolves to the process exit code (contract.md §5). Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  // codexbar-cli.md §1.1: --version anywhere prints the version before anything else runs.
  if (argv.includes('-V') || argv.includes('--version')) {
    io.stdout.write(`codexbar ${VERSION}\n`);
    return 0;
  }
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(effectiveArgv(argv), { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help') return 0;
      const message = error.message.replace(/^error: /, 'Error: ');
      // serve's start-up errors are always JSON rows (docs/behaviour.md §Serve.1).
      const json = argvWantsJson(argv) || argv[0] === 'serve';
      printCliError(io, new ArgumentError(message), json, argv.includes('--pretty'));
      return 1;
    }
    printCliError(io, error, argvWantsJson(argv), argv.includes('--pretty'));
    return 1;
  }
}
