import { Command, CommanderError, Help, Option } from 'commander';
import { z } from 'zod';
import type { CommandModule } from './cli/command.js';
import { type CliIo, processIo } from './cli/io.js';
import { argvWantsJson } from './cli/options.js';
import { reportFailure } from './cli/output.js';
import { ArgumentError } from './errors.js';

const ROOT_EXAMPLES = `
Examples:
  codexbar                                   plan usage (same as: codexbar usage --provider cursor)
  codexbar usage --verbose                   also say which credential was used and why others were skipped
  codexbar --json --pretty                   CodexBar's JSON row
  codexbar cost                              what the last 30 days cost, per day
  codexbar cost --days 7 --breakdown         per-model rows under each day
  codexbar cost --month --timezone Europe/Berlin
  codexbar statusline                        one line for a shell prompt or status bar
  codexbar guard --min-remaining 20          exit 1 in CI when less than 20% is left
  codexbar login                             add a cursor.com session (pasted without echo, verified, saved)
  codexbar usage --all-accounts              every token account in the config file
  codexbar doctor                            what is set up, what is used, and how to fix the rest

Run codexbar <command> --help for a command's options.`;

/**
 * `-V, --version` is answered by bin/codexbar.js before this bundle loads (the one place that handles it,
 * so `--version` starts as fast as bare node). It is listed in the root help all the same.
 */
const VERSION_OPTION = new Option('-V, --version', 'print the version');

interface CommandEntry {
  /** The words that run it: its name and aliases. */
  names: readonly string[];
  load: () => Promise<CommandModule>;
  /**
   * A short run parses a handful of small objects. zod's JIT builds a parser per object schema with
   * `new Function`, which no code cache keeps, for one use each: ~5 ms of start-up (bench/README.md). Commands
   * that parse thousands of objects (cost, team) keep it. A global: it stays set for the process.
   */
  shortRun?: boolean;
}

/**
 * Every command, in help order (completion last, as it describes the others). Each one's module is imported
 * only when the run needs it, and esbuild turns that into a deferred initialiser in the one bundle, so a
 * command loads only its own code.
 */
const COMMANDS: readonly CommandEntry[] = [
  { names: ['usage'], load: () => import('./commands/usage.js'), shortRun: true },
  { names: ['cost'], load: () => import('./commands/cost.js') },
  { names: ['statusline'], load: () => import('./commands/statusline.js'), shortRun: true },
  { names: ['guard'], load: () => import('./commands/guard.js'), shortRun: true },
  { names: ['alert'], load: () => import('./commands/alert.js'), shortRun: true },
  { names: ['cache'], load: () => import('./commands/cache.js') },
  { names: ['__refresh'], load: () => import('./commands/refresh.js') },
  { names: ['serve'], load: () => import('./commands/serve.js') },
  { names: ['proxy'], load: () => import('./commands/proxy.js') },
  { names: ['config'], load: () => import('./commands/config.js') },
  { names: ['login'], load: () => import('./commands/login.js') },
  { names: ['logout'], load: () => import('./commands/logout.js') },
  { names: ['doctor', 'diagnose'], load: () => import('./commands/doctor.js') },
  { names: ['team'], load: () => import('./commands/team.js') },
  { names: ['models'], load: () => import('./commands/models.js') },
  { names: ['mcp'], load: () => import('./commands/mcp.js') },
  { names: ['completion'], load: () => import('./commands/completion.js') },
];

const HELP_WORDS = new Set(['help', '--help', '-h']);

/**
 * The one command this argv runs, when its first word makes that certain: a command's name, or `usage` (the
 * default) for no word or a flag. Building every command's options and help is a noticeable share of a short
 * run. Help, completions and anything unknown get every command, so lists and suggestions stay whole.
 */
function commandOf(argv: readonly string[]): CommandEntry | undefined {
  if (argv.some((word) => HELP_WORDS.has(word))) return undefined;
  const [first] = argv;
  if (first === undefined || first.startsWith('-')) return COMMANDS[0];
  if (first === 'completion') return undefined;
  return COMMANDS.find((entry) => entry.names.includes(first));
}

async function buildProgram(
  io: CliIo,
  setExitCode: (code: number) => void,
  entries: readonly CommandEntry[],
): Promise<Command> {
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
  for (const module of await Promise.all(entries.map((entry) => entry.load()))) {
    module.register(program, io, setExitCode);
  }
  return program;
}

/** Runs the CLI and resolves to the process exit code. Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const only = commandOf(argv);
  if (only?.shortRun) z.config({ jitless: true });
  const program = await buildProgram(
    io,
    (code) => {
      exitCode = code;
    },
    only ? [only] : COMMANDS,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help
    // The command the first word names has been loaded, with all the others or alone.
    const named = COMMANDS.find((entry) => entry.names.includes(argv[0] ?? ''));
    const module = named && (await named.load());
    const failure =
      error instanceof CommanderError
        ? (module?.argumentError ?? ((message: string) => new ArgumentError(message)))(
            argumentMessage(error, argv, program),
          )
        : error;
    return reportFailure(io, failure, {
      json: argvWantsJson(argv) || module?.jsonErrors === true,
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
    const names = scope.commands.map((command) => command.name()).filter((name) => !name.startsWith('__'));
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
