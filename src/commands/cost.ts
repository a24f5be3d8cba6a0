import { type Command, Option } from 'commander';
import { type CliIo, terminalColumns } from '../cli/io.js';
import {
  type AccountFlags,
  addAccountOptions,
  addSharedOptions,
  COST_FORMATS,
  type SharedFlags,
  sharedOptions,
} from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { choiceOption, duration, wholeNumber } from '../cli/parsers.js';
import {
  addStoreOptions,
  addWindowOptions,
  type WindowFlags,
  windowFromFlags,
} from '../cli/window-options.js';
import { checkAccountFlags } from '../config/accounts.js';
import { collectCost } from '../cost/collect.js';
import {
  GROUP_BYS,
  type GroupBy,
  groupReport,
  ORDERS,
  type Order,
  WEEK_STARTS,
  type WeekStart,
} from '../cost/groups.js';
import { verbosePageLine } from '../cost/pager.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { ArgumentError, exitCodeFor } from '../errors.js';
import { costCsv } from '../render/cost-csv.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage, type ProgressLine } from '../render/progress.js';
import { runWithCursorSession } from '../session/cursor-session.js';
import { withCostStore } from '../session/event-store.js';
import { type AccountOutcome, forEachAccount, lastFailureCode } from '../session/per-account.js';

const COST_EXAMPLES = `
Examples:
  codexbar cost                              the last 30 days, per day
  codexbar cost --days 7 --breakdown         per-model rows under each day
  codexbar cost --month --timezone Europe/Berlin
  codexbar cost --since 2026-10-01 --until 20261031 --json
  codexbar cost --days 90 --by week          one row per week (Monday first; --week-start sunday)
  codexbar cost --month --by model --format csv > models.csv`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
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
    .action(async (flags: CostCommandFlags) => setExitCode(await costCommand(flags, io)));
}

/** `cost`'s flags: the window, then paging and layout. */
function addCostOptions(command: Command): Command {
  addWindowOptions(command, { all: true })
    .addOption(
      new Option('--concurrency <n>', 'pages fetched at once once the event count is known')
        .argParser(wholeNumber('--concurrency', 1, 16))
        .default(6),
    )
    .addOption(
      new Option('--timeout <duration>', 'give up after this long: 45s, 5m, or seconds')
        .argParser(duration('--timeout', { min: 1, max: 86_400 }))
        .default(120_000, '120s'),
    );
  return addStoreOptions(command)
    .addOption(
      choiceOption('--by <group>', 'one row per day, week, month, model or kind (default: day)', GROUP_BYS),
    )
    .addOption(
      choiceOption('--week-start <day>', 'first day of a --by week week (default: monday)', WEEK_STARTS),
    )
    .addOption(
      choiceOption('--order <order>', 'rows oldest or cheapest first (asc) or the reverse (desc)', ORDERS),
    )
    .option('--breakdown', 'per-model rows under each day')
    .option('--compact', 'the narrow table layout');
}

/** What commander hands the `cost` action for the flags above, already validated. */
interface CostFlags extends WindowFlags {
  concurrency: number;
  /** The whole run's deadline, in milliseconds. */
  timeout: number;
  /** false with `--no-cache`. */
  cache: boolean;
  refresh?: boolean;
  by?: GroupBy;
  weekStart?: WeekStart;
  order?: Order;
  breakdown?: boolean;
  compact?: boolean;
}

type CostCommandFlags = SharedFlags & CostFlags & AccountFlags;

/**
 * `codexbar cost`: page every usage event of the window (through the account's event store), aggregate, print
 * CodexBar's lines and a table, CSV or JSON; one report per selected token account.
 */
async function costCommand(flags: CostCommandFlags, io: CliIo): Promise<number> {
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
  // docs/invariants.md, "No partial total": one deadline for the whole run, every account, session, page and
  // wait.
  const deadline = { signal: io.timing.deadline(flags.timeout), ms: flags.timeout };
  const choice = { noCache: flags.cache === false, refresh: flags.refresh === true };
  const options = reporter.options;
  return forEachAccount(io, options, flags, reporter.verbose, (target, log) =>
    runWithCursorSession(
      io,
      options,
      'cost',
      log,
      (client, session) =>
        withCostStore(io, choice, session, { label: target.account?.label }, reporter.verbose, (store) =>
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
      target,
    ),
  );
}

/** Per account, the JSON row (with `groups` under `--by`), CSV, or text. */
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
