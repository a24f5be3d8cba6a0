import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CliIo } from '../cli/io.js';
import {
  addAccountOptions,
  maxAgeOption,
  providerOption,
  type SharedFlags,
  sharedOptions,
  sourceOption,
} from '../cli/options.js';
import { errorLine, Reporter } from '../cli/output.js';
import { choiceOption, duration } from '../cli/parsers.js';
import {
  type AccountFlags,
  accountFlagsUsed,
  checkAccountFlags,
  selectAccounts,
} from '../config/accounts.js';
import { BROWSER_IDS, type BrowserId } from '../config/schema.js';
import { ArgumentError, exitCodeFor } from '../errors.js';
import { DEFAULT_TEMPLATE, STATUSLINE_TOKENS, unknownTokens } from '../render/statusline.js';
import type { CursorTarget } from '../session/cursor-session.js';
import { type AccountOutcome, forEachAccount, lastFailureCode } from '../session/per-account.js';
import {
  type ObtainedUsage,
  obtainUsage,
  obtainUsageOrPending,
  type PendingUsage,
} from '../session/usage-cache.js';
import { startBackgroundRefresh } from '../statusline/background-refresh.js';
import {
  failureEntry,
  pendingEntry,
  renderStatusline,
  STATUSLINE_DEFAULT_MAX_AGE_MS,
  STATUSLINE_DEFAULT_TIMEOUT_MS,
  STATUSLINE_FORMATS,
  STATUSLINE_TIMEOUT_RANGE,
  type StatuslineFormat,
  type StatuslineSettings,
  statuslineEntry,
} from '../statusline/output.js';

const STATUSLINE_EXAMPLES = `
Template tokens:
  {label} Cursor (Cursor (work) for an account named by --account/--account-index/--all-accounts)
  {left} 58% left   {used} 42% used   {reset} 15d 9h (primary window)
  {pace} 8% in reserve   {ondemand} $12.34/$50   {plan} Pro   {account} email   {age} 2m
  Parts between " · " that come out empty are dropped with their separator. Where the locale (LC_ALL,
  LC_CTYPE, LANG) is not UTF-8 the line joins them with " | " instead, and the placeholder is "Cursor ...".

Examples:
  codexbar statusline                        Cursor 58% left · 15d 9h · $12.34/$50
  codexbar statusline --template '{left} ({age})'
  codexbar statusline --json                 {"provider":"cursor","text":…,"leftPercent":58,…}
  codexbar statusline --all-accounts         one line per token account: Cursor (work) 58% left · …
  codexbar statusline --no-wait              Cursor … until the first snapshot, fetched in the background
  codexbar statusline --format waybar        {"text":"Cursor 58% left · …","alt":"ok","tooltip":…,"class":"ok",…}
  codexbar statusline --format swiftbar      a SwiftBar/xbar plugin's output: title, ---, a menu line per fact
  codexbar statusline --format i3blocks      full text, short text (58%), a colour when low

Status-bar formats: the level (Waybar's class, the colour) follows the most-constrained window: critical below
10 % left, warning below 25 %, else ok; Waybar's class adds stale and error. See the README for each bar's recipe.`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    addStatuslineOptions(
      program
        .command('statusline')
        .description('one line for a shell prompt or status bar, from a shared cache'),
    ),
  )
    .addHelpText('after', STATUSLINE_EXAMPLES)
    .action(async (flags: StatuslineFlags) => setExitCode(await statuslineCommand(flags, io)));
}

function addStatuslineOptions(command: Command): Command {
  return command
    .addOption(providerOption().default('cursor'))
    .addOption(sourceOption('auth source: web uses cookies only; cli is auto'))
    .addOption(new Option('--web', 'same as --source web').hideHelp())
    .addOption(
      choiceOption('--browser <name>', 'read the cursor.com cookie from this browser only', BROWSER_IDS),
    )
    .addOption(
      new Option(
        '--template <text>',
        `what to print; tokens: ${STATUSLINE_TOKENS.map((t) => `{${t}}`).join(' ')}`,
      )
        .argParser(template)
        .default(DEFAULT_TEMPLATE),
    )
    .addOption(
      maxAgeOption(STATUSLINE_DEFAULT_MAX_AGE_MS, 'a snapshot older than this is shown stale and refreshed'),
    )
    .addOption(
      new Option('--timeout <duration>', 'how long to wait for cursor.com when there is no snapshot at all')
        .argParser(duration('--timeout', STATUSLINE_TIMEOUT_RANGE))
        .default(STATUSLINE_DEFAULT_TIMEOUT_MS, `${STATUSLINE_DEFAULT_TIMEOUT_MS / 1000}s`),
    )
    .option(
      '--no-wait',
      'with no snapshot yet, print a placeholder (Cursor …) at once and fetch in the background',
    )
    .option('--strict', 'exit 1 (4 on a timeout) when there is nothing to show, instead of 0')
    .option('--json', 'one JSON object instead of the line (the same as --format json)')
    .addOption(
      choiceOption(
        '--format <name>',
        "line (default), json, or a status bar's format: waybar, swiftbar (also xbar), i3blocks",
        STATUSLINE_FORMATS,
      ),
    )
    .option('--pretty', 'pretty JSON (sorted keys)')
    .option('--color', 'colour even when stdout is not a terminal (NO_COLOR still wins)')
    .option('--no-color', 'no colour')
    .option('-v, --verbose', 'say where the figures came from, on stderr');
}

function template(value: string): string {
  const unknown = unknownTokens(value);
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `--template has unknown ${unknown.length === 1 ? 'token' : 'tokens'} ${unknown.join(', ')} ` +
        `(tokens: ${STATUSLINE_TOKENS.map((token) => `{${token}}`).join(' ')}).`,
    );
  }
  return value;
}

/** What commander hands the `statusline` action, already validated. */
export interface StatuslineFlags extends AccountFlags {
  provider: SharedFlags['provider'];
  source?: SharedFlags['source'];
  web?: boolean;
  browser?: BrowserId;
  json?: boolean;
  format?: StatuslineFormat;
  pretty?: boolean;
  /** true with --color, false with --no-color. */
  color?: boolean;
  verbose?: boolean;
  template: string;
  /** Milliseconds. */
  maxAge: number;
  /** Milliseconds. */
  timeout: number;
  /** false with --no-wait (commander's negation); true otherwise. */
  wait: boolean;
  strict?: boolean;
}

/**
 * One account's usage (or, under `--no-wait`, its placeholder), and how a background refresh selects the
 * account again: through the ordinary ladder (`{}`), by its label, or not at all (undefined).
 */
type LineUsage = (ObtainedUsage | PendingUsage) & {
  refresh?: { label?: string };
};

/**
 * `codexbar statusline`: one line per account from its snapshot; a stale one is printed at once, marked, and
 * refreshed in the background; with none, cursor.com is asked within `--timeout`. The fast path
 * (src/statusline/fast-path.ts) answers the common cases before this loads.
 */
async function statuslineCommand(flags: StatuslineFlags, io: CliIo): Promise<number> {
  if (flags.json === true && flags.format !== undefined && flags.format !== 'json') {
    throw new ArgumentError(`--json and --format ${flags.format} cannot be used together.`);
  }
  const format = flags.json === true ? 'json' : (flags.format ?? 'line');
  const settings: StatuslineSettings = {
    template: flags.template,
    json: format === 'json',
    bar: format === 'json' || format === 'line' ? undefined : format,
    pretty: flags.pretty === true,
    colorFlag: flags.color,
    strict: flags.strict === true,
  };
  const options = sharedOptions({
    provider: flags.provider,
    source: flags.source,
    web: flags.web,
    browser: flags.browser,
    json: settings.json,
    verbose: flags.verbose,
    color: flags.color !== false,
  });
  // --verbose lines go through the one printer: redacted, control characters made visible (docs/invariants.md,
  // "Control characters never reach a terminal"); a token account's label is in most of them.
  const log = new Reporter(io, options).verbose;
  // A bad combination of account flags is an argument error (exit 1), not a line.
  checkAccountFlags(flags);
  const named = accountFlagsUsed(flags);
  // --no-wait: an account with no snapshot yet is a placeholder now and a background refresh, not a wait.
  const obtain = flags.wait ? obtainUsage : obtainUsageOrPending;
  let outcomes: AccountOutcome<LineUsage>[];
  try {
    outcomes = await forEachAccount(io, options, flags, log, async (target, accountLog) => ({
      ...(await obtain(
        io,
        options,
        accountLog,
        { maxAgeMs: flags.maxAge, acceptStale: true, deadlineMs: flags.timeout },
        target,
      )),
      refresh: named ? refreshByLabel(target) : {},
    }));
  } catch (error) {
    // The ordinary ladder's failure, or a selection error (`No token account labeled 'x' for cursor.`): one
    // marker line, as any failure.
    outcomes = [{ ok: false, error }];
  }

  const now = io.now();
  const entries = outcomes.map((outcome) => {
    const account = named ? outcome.account?.label : undefined;
    if (!outcome.ok) return failureEntry(outcome.error, account);
    if ('pending' in outcome.value) return pendingEntry(io.env, account);
    return statuslineEntry(settings, io.env, io.stdout.isTTY === true, { ...outcome.value, now, account });
  });
  io.stdout.write(renderStatusline(entries, settings, flags.allAccounts === true));
  if (settings.strict && !settings.json) {
    for (const outcome of outcomes) {
      if (outcome.ok) continue;
      io.stderr.write(`${errorLine(outcome.error, named ? outcome.account?.label : undefined)}\n`);
    }
  }
  for (const outcome of outcomes) {
    if (outcome.ok) await refreshIfStale(outcome.value, options.sourceLabel, flags.browser, now, io, log);
  }
  // A failure never breaks a prompt; --strict exits with the failing line's code (the last one's).
  return settings.strict ? lastFailureCode(outcomes, exitCodeFor) : 0;
}

/**
 * A background refresh selects a flag-named account again by its label (a label is not a secret). Only when
 * that label selects this very account: a blank label, or one that an earlier account shares, would refresh
 * another account, so such an account is not refreshed in the background.
 */
function refreshByLabel(target: CursorTarget): { label: string } | undefined {
  const { account, prep } = target;
  if (account === undefined || prep === undefined || account.label.trim() === '') return undefined;
  const [byLabel] = selectAccounts(prep.config.cursor, { account: account.label });
  return byLabel?.index === account.index ? { label: account.label } : undefined;
}

/** A stale snapshot, or a placeholder, gets one detached refresh per account (behind its lock). */
async function refreshIfStale(
  usage: LineUsage,
  source: string,
  browser: BrowserId | undefined,
  now: Date,
  io: CliIo,
  log: (line: string) => void,
): Promise<void> {
  const pending = 'pending' in usage;
  if (!(pending || usage.stale) || usage.account === undefined || usage.cacheDir === undefined) return;
  if (usage.refresh === undefined) {
    log('[cache] Background refresh: not started (no label selects this account alone)');
    return;
  }
  const label = usage.refresh.label;
  const started = await startBackgroundRefresh(
    {
      usageDir: usage.cacheDir,
      account: usage.account,
      seenFetchedAt: pending ? usage.seenFetchedAt : usage.fetchedAt,
      now,
      sourceArgs: [
        '--source',
        source,
        ...(browser ? ['--browser', browser] : []),
        ...(label === undefined ? [] : [`--label=${label}`]),
      ],
    },
    io.spawnRefresh,
  ).catch((error: unknown) => `failed (${error instanceof Error ? error.message : String(error)})`);
  log(`[cache] Background refresh: ${started}`);
}
