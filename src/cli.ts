import { Command, CommanderError, Help, Option } from 'commander';
import { z } from 'zod';
import { type AccountFlags, addAccountOptions } from './cli/account-options.js';
import { type CliIo, processIo } from './cli/io.js';
import { addSharedOptions, argvWantsJson, COST_FORMATS, type SharedFlags } from './cli/options.js';
import { reportFailure } from './cli/output.js';
import { addCostOptions, type CostFlags } from './cli/window-options.js';
import type { CacheClearFlags } from './commands/cache.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerConfigCommand } from './commands/config.js';
import { registerDoctorCommand } from './commands/doctor.js';
import type { GuardFlags } from './commands/guard.js';
import { GuardArgumentError } from './commands/guard-exit.js';
import { registerLoginCommands } from './commands/login.js';
import {
  addCacheClearOptions,
  addGuardOptions,
  addStatuslineOptions,
  maxAgeOption,
} from './commands/prompt-options.js';
import type { RefreshFlags } from './commands/refresh.js';
import { addServeCommand } from './commands/serve.js';
import type { StatuslineFlags } from './commands/statusline.js';
import { registerTeamCommand } from './commands/team.js';
import type { UsageFlags } from './commands/usage.js';
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

const USAGE_EXAMPLES = `
Examples:
  codexbar                                   plan usage (same as: codexbar usage --provider cursor)
  codexbar usage --verbose                   also say which credential was used
  codexbar usage --json --pretty             CodexBar's JSON row
  codexbar usage --max-age 5m                a snapshot up to 5 minutes old, without a request
  codexbar usage --account work --status     one token account, with cursor.com's status page`;

const STATUSLINE_EXAMPLES = `
Template tokens:
  {label} Cursor (Cursor (work) for an account named by --account/--account-index/--all-accounts)
  {left} 58% left   {used} 42% used   {reset} 15d 9h (primary window)
  {pace} 8% in reserve   {ondemand} $12.34/$50   {plan} Pro   {account} email   {age} 2m
  Parts between " · " that come out empty are dropped with their separator.

Examples:
  codexbar statusline                        Cursor 58% left · 15d 9h · $12.34/$50
  codexbar statusline --template '{left} ({age})'
  codexbar statusline --json                 {"provider":"cursor","text":…,"leftPercent":58,…}
  codexbar statusline --all-accounts         one line per token account: Cursor (work) 58% left · …`;

const GUARD_EXAMPLES = `
Exit codes: 0 enough left, 1 below --min-remaining, 64 bad arguments, 69 unavailable (0 with --fail-open).
With --all-accounts: 1 if any account is below, else 69 if any is unavailable, else 0.

Examples:
  codexbar guard --min-remaining 20
  codexbar guard --window weekly --json --fail-open
  codexbar guard --all-accounts --min-remaining 5`;

const CACHE_EXAMPLES = `
Examples:
  codexbar cache clear --usage               forget the usage snapshots
  codexbar cache clear --cookies --provider cursor`;

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

function buildProgram(io: CliIo, setExitCode: (code: number) => void, argv: readonly string[]): Command {
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

  // Each command's module is imported when it runs, so a command loads only its own code; and a run that
  // certainly runs one command registers only that one (commandOf).
  const only = commandOf(argv);
  for (const [, register] of COMMANDS) {
    if (only === undefined || register === only) register(program, io, setExitCode);
  }
  return program;
}

function registerUsage(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  // docs/behaviour.md §2.1: no command, or a first argument that is a flag, runs `usage`.
  addAccountOptions(
    addSharedOptions(
      program
        .command('usage', { isDefault: true })
        .description('plan usage: how much is used, when it resets, pace and on-demand spend'),
    ),
  )
    .option('--status', "add cursor.com's status page indicator (status.cursor.com)")
    .addOption(maxAgeOption(0, 'use a cached snapshot at most this old, without a request (0: always live)'))
    .addHelpText('after', USAGE_EXAMPLES)
    .action(async (flags: UsageFlags) => {
      shortRun();
      const { usageCommand } = await import('./commands/usage.js');
      setExitCode(await usageCommand(flags, io));
    });
}

function registerCost(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
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
    .action(async (flags: SharedFlags & CostFlags & AccountFlags) => {
      const { costCommand } = await import('./commands/cost.js');
      setExitCode(await costCommand(flags, io));
    });
}

function registerStatusline(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    addStatuslineOptions(
      program
        .command('statusline')
        .description('one line for a shell prompt or status bar, from a shared cache'),
    ),
  )
    .addHelpText('after', STATUSLINE_EXAMPLES)
    .action(async (flags: StatuslineFlags) => {
      shortRun();
      const { statuslineCommand } = await import('./commands/statusline.js');
      setExitCode(await statuslineCommand(flags, io));
    });
}

function registerGuard(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    addGuardOptions(program.command('guard').description('a quota gate for scripts and CI (exit 0/1/64/69)')),
  )
    .addHelpText('after', GUARD_EXAMPLES)
    .action(async (flags: GuardFlags) => {
      shortRun();
      const { guardCommand } = await import('./commands/guard.js');
      setExitCode(await guardCommand(flags, io));
    });
}

function registerCache(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addCacheClearOptions(
    program
      .command('cache')
      .description('clear the caches codexbar keeps')
      .command('clear', { isDefault: true })
      .description("clear the usage snapshots, the cost cache or CodexBar's legacy cookie cache"),
  )
    .addHelpText('after', CACHE_EXAMPLES)
    .action(async (flags: CacheClearFlags) => {
      const { cacheClearCommand } = await import('./commands/cache.js');
      setExitCode(await cacheClearCommand(flags, io));
    });
}

function registerRefresh(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  // The detached refresh a stale statusline starts (docs/behaviour.md §26.5); not for people.
  program
    .command('__refresh', { hidden: true })
    .requiredOption('--account <key>')
    .requiredOption('--lock <nonce>')
    .option('--label <label>')
    .option('--source <mode>')
    .option('--browser <name>')
    .action(async (flags: RefreshFlags) => {
      const { refreshCommand } = await import('./commands/refresh.js');
      setExitCode(await refreshCommand(flags, io));
    });
}

/**
 * `usage`, `statusline` and `guard` parse a handful of small objects. zod's JIT builds a parser per object
 * schema with `new Function`, which no code cache keeps, for one use each: ~5 ms of their start-up
 * (docs/architecture.md, Start-up). Commands that parse thousands of objects (cost, team) keep it.
 */
function shortRun(): void {
  z.config({ jitless: true });
}

type Register = (program: Command, io: CliIo, setExitCode: (code: number) => void) => void;

/** Every command with the words that run it, in help order; completion last, as it describes the others. */
const COMMANDS: [names: readonly string[], register: Register][] = [
  [['usage'], registerUsage],
  [['cost'], registerCost],
  [['statusline'], registerStatusline],
  [['guard'], registerGuard],
  [['cache'], registerCache],
  [['__refresh'], registerRefresh],
  [['serve'], addServeCommand],
  [['config'], registerConfigCommand],
  [['login', 'logout'], registerLoginCommands],
  [['doctor', 'diagnose'], registerDoctorCommand],
  [['team'], registerTeamCommand],
  [['completion'], registerCompletionCommand],
];

const HELP_WORDS = new Set(['help', '--help', '-h']);

/**
 * The one command this argv runs, when its first word makes that certain: a command's name, or `usage` (the
 * default, docs/behaviour.md §2.1) for no word or a flag. Building every command's options and help is a
 * noticeable share of a short run (docs/architecture.md, Start-up). Help, completions and anything unknown
 * get every command, so lists and suggestions stay whole.
 */
function commandOf(argv: readonly string[]): Register | undefined {
  if (argv.some((word) => HELP_WORDS.has(word))) return undefined;
  const [first] = argv;
  if (first === undefined || first.startsWith('-')) return registerUsage;
  if (first === 'completion') return undefined;
  return COMMANDS.find(([names]) => names.includes(first))?.[1];
}

/** Runs the CLI and resolves to the process exit code (docs/behaviour.md §4). Never calls process.exit. */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(
    io,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help
    // docs/behaviour.md §26.8: guard's argument errors exit 64, as CodexBar's guard.
    const Refusal = argv[0] === 'guard' ? GuardArgumentError : ArgumentError;
    const failure =
      error instanceof CommanderError ? new Refusal(argumentMessage(error, argv, program)) : error;
    return reportFailure(io, failure, {
      // docs/behaviour.md §29.1: serve's start-up errors are always JSON rows.
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
