import type { CliIo } from '../cli/io.js';
import { type SharedFlags, sharedOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { type CostFlags, windowFromFlags } from '../cli/window-options.js';
import { type AccountFlags, checkAccountFlags } from '../config/accounts.js';
import { collectCost } from '../cost/collect.js';
import { groupReport } from '../cost/groups.js';
import { verbosePageLine } from '../cost/pager.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { ArgumentError, exitCodeFor } from '../errors.js';
import { costCsv } from '../render/cost-csv.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage, type ProgressLine } from '../render/progress.js';
import { type AccountOutcome, lastFailureCode, runForAccounts } from '../session/accounts.js';
import { withCostStore } from '../session/event-store.js';

/** Output that is not a terminal has no width to fit: print the full table unless --compact says otherwise. */
const UNBOUNDED_COLUMNS = 1000;

/**
 * `codexbar cost`: page every usage event of the window (through the account's event store), aggregate,
 * print CodexBar's lines and a table, CSV or JSON; one report per selected token account
 * (docs/behaviour.md §27.3, §28).
 */
export async function costCommand(flags: SharedFlags & CostFlags & AccountFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, sharedOptions(flags));
  // The progress line is for people watching a terminal: never in JSON, never into a pipe or a log, and
  // not while several accounts page at once.
  const progress = createProgressLine({
    enabled: !reporter.json && io.stderr.isTTY === true && flags.allAccounts !== true,
    stream: io.stderr,
  });
  try {
    checkAccountFlags(flags);
    if (flags.weekStart !== undefined && flags.by !== 'week') {
      throw new ArgumentError('--week-start applies to --by week only.');
    }
    const window = windowFromFlags(flags, io, reporter.verbose);
    const outcomes = await fetchReports(window, flags, io, reporter, progress);
    progress.finish();
    printReports(outcomes, flags, io, reporter);
    return lastFailureCode(outcomes, exitCodeFor);
  } catch (error) {
    progress.finish();
    return reporter.fail(error, (failure) => costErrorRow(failure, io.now()));
  }
}

function fetchReports(
  window: CostWindow,
  flags: CostFlags & AccountFlags,
  io: CliIo,
  reporter: Reporter,
  progress: ProgressLine,
): Promise<AccountOutcome<CostReport>[]> {
  // docs/behaviour.md §18.12: one deadline for the whole run, every account, session, page and wait.
  const deadline = { signal: io.timing.deadline(flags.timeout), ms: flags.timeout };
  const env = { platform: io.platform, env: io.env, homeDir: io.homeDir, now: io.now };
  const choice = { noCache: flags.cache === false, refresh: flags.refresh === true };
  return runForAccounts(io, reporter.options, flags, 'cost', reporter.verbose, (client, session, account) =>
    withCostStore(env, choice, session, { label: account?.label }, reporter.verbose, (store) =>
      collectCost({
        client,
        cookieHeader: session.cookieHeader,
        window,
        now: io.now,
        concurrency: flags.concurrency,
        timeoutMs: io.timing.requestTimeoutMs,
        retry: { sleep: io.timing.sleep },
        deadline,
        store,
        onProgress: (page) => {
          reporter.verbose(verbosePageLine(page));
          progress.update(eventsPageMessage(page.page, page.pagesKnown ?? undefined));
        },
      }),
    ),
  );
}

/** docs/behaviour.md §27.3, §28.4–28.5: per account, the JSON row (with `groups` under `--by`), CSV, or text. */
function printReports(
  outcomes: readonly AccountOutcome<CostReport>[],
  flags: CostFlags,
  io: CliIo,
  reporter: Reporter,
): void {
  const by = flags.by ?? 'day';
  const weekStart = flags.weekStart ?? 'monday';
  const grouped = (report: CostReport) => groupReport(report, { by, weekStart, order: flags.order });
  if (reporter.json) {
    reporter.printJson(
      outcomes.map((outcome) => {
        const account = outcome.account?.label;
        if (!outcome.ok) return costErrorRow(outcome.error, io.now(), account);
        const grouping = flags.by ? { by, weekStart, groups: grouped(outcome.value) } : undefined;
        return costRow(outcome.value, { account, grouping });
      }),
    );
    return;
  }
  const sections: string[] = [];
  for (const outcome of outcomes) {
    if (!outcome.ok) {
      reporter.printRowError(outcome.error, outcome.account?.label);
      continue;
    }
    const groups = grouped(outcome.value);
    if (reporter.options.format === 'csv') {
      sections.push(costCsv(groups, by));
      continue;
    }
    sections.push(
      renderCostText(outcome.value, {
        colour: reporter.colour,
        columns: terminalColumns(io),
        compact: flags.compact === true,
        breakdown: flags.breakdown === true,
        isTTY: io.stdout.isTTY === true,
        account: outcome.account?.label,
        table: { by, groups },
      }),
    );
  }
  if (sections.length > 0) reporter.printText(sections.join('\n\n'));
}

/** COLUMNS, then the terminal's width (ccusage's rule); a pipe or a file gets the full table. */
function terminalColumns(io: CliIo): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}
