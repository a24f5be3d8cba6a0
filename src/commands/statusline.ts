import type { CliIo } from '../cli/io.js';
import { type SharedFlags, sharedOptions } from '../cli/options.js';
import { errorLine } from '../cli/output.js';
import {
  type AccountFlags,
  accountFlagsUsed,
  checkAccountFlags,
  selectAccounts,
} from '../config/accounts.js';
import type { BrowserId } from '../config/schema.js';
import { exitCodeFor } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { failureJson, failureText, type StatuslineJson } from '../render/statusline.js';
import { type AccountResult, eachAccount, lastFailureCode } from '../session/accounts.js';
import type { CursorTarget } from '../session/cursor-session.js';
import { type ObtainedUsage, obtainUsage } from '../session/usage-cache.js';
import { startBackgroundRefresh } from '../statusline/background-refresh.js';
import { type StatuslineSettings, statuslineEntry } from '../statusline/output.js';

/** What commander hands the `statusline` action, already validated. */
export interface StatuslineFlags extends AccountFlags {
  provider: SharedFlags['provider'];
  source?: SharedFlags['source'];
  web?: boolean;
  browser?: BrowserId;
  json?: boolean;
  pretty?: boolean;
  /** true with --color, false with --no-color. */
  color?: boolean;
  verbose?: boolean;
  template: string;
  /** Milliseconds. */
  maxAge: number;
  /** Milliseconds. */
  timeout: number;
  strict?: boolean;
}

/**
 * One account's usage, and how a background refresh selects the account again: through the ordinary ladder
 * (`{}`), by its label, or not at all (undefined).
 */
interface LineUsage extends ObtainedUsage {
  refresh?: { label?: string };
}

/**
 * `codexbar statusline` (docs/behaviour.md §26.4–26.6, §26.11): one line per account from its snapshot; a
 * stale one is printed at once, marked, and refreshed in the background; with none, cursor.com is asked
 * within `--timeout`. The fast path (src/statusline/fast-path.ts) answers the common cases before this loads.
 */
export async function statuslineCommand(flags: StatuslineFlags, io: CliIo): Promise<number> {
  const settings: StatuslineSettings = {
    template: flags.template,
    json: flags.json === true,
    pretty: flags.pretty === true,
    colorFlag: flags.color,
    strict: flags.strict === true,
  };
  const options = sharedOptions({
    provider: flags.provider,
    source: flags.source,
    web: flags.web,
    browser: flags.browser,
    json: flags.json,
    verbose: flags.verbose,
    color: flags.color !== false,
  });
  const log = (line: string) => {
    if (options.verbose) io.stderr.write(`${line}\n`);
  };
  // docs/behaviour.md §26.11: a bad combination of account flags is an argument error (exit 1), not a line.
  checkAccountFlags(flags);
  const named = accountFlagsUsed(flags);
  let outcomes: AccountResult<LineUsage>[];
  try {
    outcomes = await eachAccount(io, options, flags, log, async (target, accountLog) => ({
      ...(await obtainUsage(
        io,
        options,
        accountLog,
        { maxAgeMs: flags.maxAge, acceptStale: true, deadlineMs: flags.timeout },
        target,
      )),
      refresh: named ? refreshByLabel(target) : {},
    }));
  } catch (error) {
    // The ordinary ladder's failure, or a selection error (`No token account labeled 'x' for cursor.`):
    // one marker line, as any failure (docs/behaviour.md §26.4).
    outcomes = [{ ok: false, error }];
  }

  const now = io.now();
  const lines = outcomes.map((outcome) => {
    const account = named ? outcome.account?.label : undefined;
    if (!outcome.ok)
      return { text: failureText(outcome.error, account), json: failureJson(outcome.error, account) };
    return statuslineEntry(settings, io.env, io.stdout.isTTY === true, { ...outcome.value, now, account });
  });
  io.stdout.write(render(lines, settings, flags.allAccounts === true));
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

/** Text: one line per account. JSON: one object, or with --all-accounts an array of them. */
function render(
  lines: readonly { text: string; json: StatuslineJson }[],
  settings: StatuslineSettings,
  array: boolean,
): string {
  if (!settings.json) return lines.map((line) => `${line.text}\n`).join('');
  const objects = lines.map((line) => line.json);
  return `${encodeJson(array ? objects : objects[0], { pretty: settings.pretty })}\n`;
}

/**
 * docs/behaviour.md §26.11: a background refresh selects a flag-named account again by its label (a label is
 * not a secret). Only when that label selects this very account: a blank label, or one that an earlier
 * account shares, would refresh another account, so such an account is not refreshed in the background.
 */
function refreshByLabel(target: CursorTarget): { label: string } | undefined {
  const { account, prep } = target;
  if (account === undefined || prep === undefined || account.label.trim() === '') return undefined;
  const [byLabel] = selectAccounts(prep.config.cursor, { account: account.label });
  return byLabel?.index === account.index ? { label: account.label } : undefined;
}

/** docs/behaviour.md §26.5: a stale snapshot gets one detached refresh per account (behind its lock). */
async function refreshIfStale(
  usage: LineUsage,
  source: string,
  browser: BrowserId | undefined,
  now: Date,
  io: CliIo,
  log: (line: string) => void,
): Promise<void> {
  if (!usage.stale || usage.account === undefined || usage.cacheDir === undefined) return;
  if (usage.refresh === undefined) {
    log('[cache] Background refresh: not started (no label selects this account alone)');
    return;
  }
  const label = usage.refresh.label;
  const started = await startBackgroundRefresh(
    {
      usageDir: usage.cacheDir,
      account: usage.account,
      seenFetchedAt: usage.fetchedAt,
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
