import { Command, CommanderError, Help, Option } from 'commander';
import { type AccountFlags, addAccountOptions } from './commands/account-options.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerConfigCommand } from './commands/config.js';
import { costCommand } from './commands/cost.js';
import { addCostOptions, type CostFlags } from './commands/cost-options.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { type CliIo, processIo } from './commands/io.js';
import { registerLoginCommands } from './commands/login.js';
import { addSharedOptions, argvWantsJson, COST_FORMATS, type SharedFlags } from './commands/options.js';
import { reportFailure } from './commands/report.js';
import { addServeCommand } from './commands/serve.js';
import { registerTeamCommand } from './commands/team.js';
import { type UsageFlags, usageCommand } from './commands/usage.js';
import { ArgumentError } from './errors.js';

const ROOT_EXAMPLES = `
Examples:
  codexbar                                   plan usage (same as: codexbar usage --provider cursor)
  codexbar usage --verbose                   also say which credential was used and why others were skipped
  codexbar --json --pretty                   CodexBar's JSON row
  codexbar cost                              what the last 30 days cost, per day
  codexbar cost --days 7 --breakdown         per-model rows under each day
  codexbar cost --month --timezone Europe/Berlin
  codexbar login                             add a cursor.com session (pasted without echo, verified, saved)
  codexbar usage --all-accounts              every token account in the config file
  codexbar doctor                            what is set up, what is used, and how to fix the rest

Run codexbar <command> --help for a command's options.`;

const USAGE_EXAMPLES = `
Examples:
  codexbar                                   plan usage (same as: codexbar usage --provider cursor)
  codexbar usage --verbose                   also say which credential was used
  codexbar usage --json --pretty             CodexBar's JSON row
  codexbar usage --account work --status     one token account, with cursor.com's status page`;

const COST_EXAMPLES = `
Examples:
  codexbar cost                              the last 30 days, per day
  codexbar cost --days 7 --breakdown         per-model rows under each day
  codexbar cost --month --timezone Europe/Berlin
  codexbar cost --since 2026-10-01 --until 20261031 --json
  codexbar cost --days 90 --by week          one row per week (Monday first; --week-start sunday)
  codexbar cost --month --by model --format csv > models.csv`;

/**
 * `-V, --version` is answered by bin/codexbar.js before this bundle loads (the one place that handles it,
 * so `--version` starts as fast as bare node). It is listed in the root help all the same.
 */
const VERSION_OPTION = new Option('-V, --version', 'print the version');

function buildProgram(io: CliIo, setExitCode: (code: number) => void): Command {
  const program = new Command('codexbar')
    .description('Cursor plan usage and cost in the terminal, in CI and in shell prompts.')
    .usage('[command] [options]')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({
      visibleOptions(this: Help, command: Command): Option[] {
        const options = Help.prototype.visibleOptions.call(this, command);
        return command.parent ? options : [VERSION_OPTION, ...options];
      },
    })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Parse errors are printed by `run` (as text or as a JSON row), not by commander.
      outputError: () => {},
    })
    .addHelpText('after', ROOT_EXAMPLES);

  // docs/behaviour.md §2.1: no command, or a first argument that is a flag, runs `usage`.
  addAccountOptions(
    addSharedOptions(
      program
        .command('usage', { isDefault: true })
        .description('plan usage: how much is used, when it resets, pace and on-demand spend'),
    ),
  )
    .option('--status', "add cursor.com's status page indicator (status.cursor.com)")
    .addHelpText('after', USAGE_EXAMPLES)
    .action(async (flags: UsageFlags) => setExitCode(await usageCommand(flags, io)));

  addAccountOptions(
    addCostOptions(
      addSharedOptions(
        program
          .command('cost')
          .description('what your usage cost per day and per model (API list price and Cursor-metered)'),
        { formats: COST_FORMATS },
      ),
    ),
  )
    .addHelpText('after', COST_EXAMPLES)
    .action(async (flags: SharedFlags & CostFlags & AccountFlags) =>
      setExitCode(await costCommand(flags, io)),
    );

  addServeCommand(program, io, setExitCode);
  registerConfigCommand(program, io, setExitCode);
  registerLoginCommands(program, io, setExitCode);
  registerDoctorCommand(program, io, setExitCode);
  registerTeamCommand(program, io, setExitCode);
  // Last: the completion scripts describe every command registered before it.
  registerCompletionCommand(program, io, setExitCode);
  return program;
}

/** Runs the CLI and resolves to the process exit code (docs/behaviour.md §4). Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help
    const failure =
      error instanceof CommanderError ? new ArgumentError(argumentMessage(error, argv, program)) : error;
    return reportFailure(io, failure, {
      // docs/behaviour.md §Serve.1: serve's start-up errors are always JSON rows.
      json: argvWantsJson(argv) || argv[0] === 'serve',
      pretty: argv.includes('--pretty'),
      jsonOnly: argv.includes('--json-only'),
    });
  }
}

/**
 * commander's wording without its `error: ` prefix; for a value our parsers refused, only their sentence,
 * which already names the flag and the accepted values.
 */
function argumentMessage(error: CommanderError, argv: readonly string[], program: Command): string {
  // A word that is not a command reaches the default command as a stray argument: at the top level
  // (`codexbar bogus`) or under a command with subcommands (`codexbar config bogus`).
  if (error.code === 'commander.excessArguments') {
    const [first, second] = argv;
    const parent = program.commands.find((command) => command.name() === first);
    const [scope, word, prefix] =
      parent && parent.commands.length > 0 ? [parent, second, `${first} `] : [program, first, ''];
    const names = scope.commands.map((command) => command.name());
    if (word !== undefined && !word.startsWith('-') && !names.includes(word)) {
      return `unknown command '${prefix}${word}' (${prefix}commands: ${names.join(', ')})`;
    }
  }
  const message = error.message.replace(/^error: /, '');
  const refused =
    /^(?:option '[^']*' argument|command-argument value) '[\s\S]*' is invalid(?: for argument '[^']*')?\. ([\s\S]*)$/.exec(
      message,
    );
  return refused ? refused[1]! : message;
}
