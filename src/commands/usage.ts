import type { Command } from 'commander';
import { resolveStatusUrl } from '../api/base-url.js';
import type { ProviderStatus } from '../api/status-page.js';
import { proxySettings } from '../api/transport.js';
import type { CliIo } from '../cli/io.js';
import {
  type AccountFlags,
  addAccountOptions,
  addSharedOptions,
  maxAgeOption,
  type SharedFlags,
  sharedOptions,
} from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { checkAccountFlags } from '../config/accounts.js';
import { exitCodeFor } from '../errors.js';
import { formatDuration } from '../lib/duration.js';
import { usageErrorRow, usageRow } from '../render/usage-json.js';
import { implausibleFigures, renderUsageText } from '../render/usage-text.js';
import { type AccountOutcome, forEachAccount, lastFailureCode } from '../session/per-account.js';
import { noteTimeZone, type ObtainedUsage, obtainUsage } from '../session/usage-cache.js';
import { labelledSnapshot } from '../usage/account-label.js';

const USAGE_EXAMPLES = `
Examples:
  codexbar                                   plan usage (same as: codexbar usage --provider cursor)
  codexbar usage --verbose                   also say which credential was used
  codexbar usage --json --pretty             CodexBar's JSON row
  codexbar usage --max-age 5m                a snapshot up to 5 minutes old, without a request
  codexbar usage --account work --status     one token account, with cursor.com's status page`;

/** `usage` is also what no command, or a first argument that is a flag, runs. */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
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
    .action(async (flags: UsageFlags) => setExitCode(await usageCommand(flags, io)));
}

/** `usage`'s own flags on top of the shared and account ones. */
export interface UsageFlags extends SharedFlags, AccountFlags {
  status?: boolean;
  /** `--max-age`, in milliseconds; 0 (the default) means always live. */
  maxAge: number;
}

/**
 * `codexbar usage`: resolve a session per selected token account (or through the ordinary ladder), answer
 * from the usage cache when `--max-age` allows or fetch and map, then print one text section or one CodexBar
 * JSON row per account.
 */
async function usageCommand(flags: UsageFlags, io: CliIo): Promise<number> {
  const options = sharedOptions(flags);
  const reporter = new Reporter(io, options);
  let status: Promise<ProviderStatus | undefined> = Promise.resolve(undefined);
  try {
    checkAccountFlags(flags);
    const timeZone = noteTimeZone(io, reporter.verbose);
    // The status page is asked once, alongside the accounts, never with a credential.
    if (flags.status) {
      const siteUrl = resolveStatusUrl(io.env.CODEXBAR_CURSOR_STATUS_URL);
      // Imported only for --status, like every module a run may not need (bench/README.md, Start-up).
      status = import('../api/status-page.js').then(({ fetchProviderStatus }) =>
        fetchProviderStatus(siteUrl, proxySettings(io.env), io.timing.statusTimeoutMs),
      );
    }
    const outcomes = await forEachAccount(io, options, flags, reporter.verbose, (target, log) =>
      obtainUsage(io, options, log, { maxAgeMs: flags.maxAge, timeZone }, target),
    );
    printOutcomes(outcomes, reporter, options.sourceLabel, await status);
    return lastFailureCode(outcomes, exitCodeFor);
  } catch (error) {
    const known = await status;
    return reporter.fail(error, (failure) => usageErrorRow(failure, options.sourceLabel, { status: known }));
  }
}

function printOutcomes(
  outcomes: readonly AccountOutcome<ObtainedUsage>[],
  reporter: Reporter,
  source: string,
  status: ProviderStatus | undefined,
): void {
  const now = reporter.io.now();
  if (reporter.json) {
    reporter.printJson(
      outcomes.map((outcome) => {
        const account = outcome.account?.label;
        return outcome.ok
          ? usageRow(labelledSnapshot(outcome.value.snapshot, account), now, { account, status })
          : usageErrorRow(outcome.error, source, { account, status });
      }),
    );
    return;
  }
  const sections: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) {
      const snapshot = labelledSnapshot(outcome.value.snapshot, outcome.account?.label);
      for (const note of implausibleFigures(snapshot, now)) reporter.verbose(note);
      sections.push(
        renderUsageText(snapshot, { now, colour: reporter.colour, status }) + cacheNote(outcome.value, now),
      );
    } else {
      reporter.printRowError(outcome.error, outcome.account?.label);
    }
  }
  // Sections are separated by one blank line; stdout holds only the successes.
  if (sections.length > 0) reporter.printText(sections.join('\n\n'));
}

/** docs/invariants.md, "No cached figure as fresh": a figure from the cache says so, and how old it is. */
function cacheNote(usage: ObtainedUsage, now: Date): string {
  if (!usage.fromCache) return '';
  const age = Math.max(0, Math.floor((now.getTime() - usage.fetchedAt.getTime()) / 1000));
  return `\nFrom the cache, fetched ${formatDuration(age)} ago`;
}
