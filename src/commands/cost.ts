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
import { collectByok } from '../cost/byok/collect.js';
import { type CrossCheck, type CrossCheckResult, crossCheckOf } from '../cost/byok/cross-check.js';
import type { ByokReport } from '../cost/byok/report.js';
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
import { ArgumentError, exitCodeFor, messageFor } from '../errors.js';
import { byokCostRow, renderByokText } from '../render/cost-byok.js';
import { costCsv } from '../render/cost-csv.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage, type ProgressLine } from '../render/progress.js';
import { accountCostReport } from '../session/account-cost.js';
import { type AccountOutcome, forEachAccount, lastFailureCode } from '../session/per-account.js';

const COST_EXAMPLES = `
Examples:
  codexbar cost                              the last 30 days, per day
  codexbar cost --days 7 --breakdown         per-model rows under each day
  codexbar cost --month --timezone Europe/Berlin
  codexbar cost --since 2026-10-01 --until 20261031 --json
  codexbar cost --days 90 --by week          one row per week (Monday first; --week-start sunday)
  codexbar cost --month --by model --format csv > models.csv
  codexbar cost --source byok --by conversation   what \`codexbar proxy\` recorded, per conversation`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    addCostOptions(
      addSharedOptions(
        program
          .command('cost')
          .description('what your usage cost per day and per model (API list price and Cursor-metered)'),
        { formats: COST_FORMATS, byok: true },
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
      choiceOption(
        '--by <group>',
        'one row per day, week, month, model, kind or (--source byok) conversation (default: day)',
        GROUP_BYS,
      ),
    )
    .addOption(
      choiceOption('--week-start <day>', 'first day of a --by week week (default: monday)', WEEK_STARTS),
    )
    .addOption(
      choiceOption('--order <order>', 'rows oldest or cheapest first (asc) or the reverse (desc)', ORDERS),
    )
    .option('--breakdown', 'per-model rows under each day')
    .option('--compact', 'the narrow table layout')
    .option('--no-cross-check', "--source byok: leave out the comparison with cursor.com's BYOK events");
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
  /** false with `--no-cross-check`. */
  crossCheck: boolean;
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
  const byok = flags.source === 'byok';
  try {
    checkAccountFlags(flags);
    if (flags.weekStart !== undefined && flags.by !== 'week') {
      throw new ArgumentError('--week-start applies to --by week only.');
    }
    if (!byok && flags.by === 'conversation') {
      throw new ArgumentError('--by conversation applies to --source byok only.');
    }
    if (!byok && !flags.crossCheck)
      throw new ArgumentError('--no-cross-check applies to --source byok only.');
    const window = windowFromFlags(flags, io, reporter.verbose);
    if (byok) return await byokCost(window, flags, io, reporter, progress);
    const outcomes = await fetchReports(window, flags, io, reporter, progress);
    progress.finish();
    printReports(outcomes, flags, io, reporter);
    return lastFailureCode(outcomes, exitCodeFor);
  } catch (error) {
    progress.finish();
    return reporter.fail(error, (failure) =>
      costErrorRow(failure, io.now(), undefined, byok ? 'byok' : 'web'),
    );
  }
}

/**
 * `cost --source byok`: the ledger's report (a failure to read it is the run's), then, best effort, the
 * cross-check against cursor.com's `USER_API_KEY` events of the same window and account(s), fetched as a
 * plain `cost` run fetches them (docs/invariants.md, "Best-effort lookups never fail a run").
 */
async function byokCost(
  window: CostWindow,
  flags: CostCommandFlags,
  io: CliIo,
  reporter: Reporter,
  progress: ProgressLine,
): Promise<number> {
  const { byok, shown } = await collectByok({
    env: io,
    window,
    now: io.now,
    byConversation: flags.by === 'conversation',
    log: reporter.verbose,
  });
  const check = flags.crossCheck
    ? await byokCrossCheck(byok, window, flags, io, reporter, progress)
    : undefined;
  progress.finish();
  const by = flags.by ?? 'day';
  const weekStart = flags.weekStart ?? 'monday';
  const groups = groupReport(byok.report, {
    by,
    weekStart,
    order: flags.order,
    conversations: byok.conversations,
  });
  if (reporter.json) {
    reporter.printJson([byokCostRow(byok, flags.by ? { by, weekStart, groups } : undefined, check)]);
  } else if (reporter.options.format === 'csv') {
    reporter.printText(costCsv(groups, by));
  } else {
    reporter.printText(
      renderByokText(byok, {
        colour: reporter.colour,
        columns: terminalColumns(io),
        compact: flags.compact === true,
        breakdown: flags.breakdown === true,
        isTTY: io.stdout.isTTY === true,
        table: { by, groups },
        ledgerShown: shown,
        crossCheck: check,
      }),
    );
  }
  return 0;
}

/** The cross-check, or undefined (and one `--verbose` line) when cursor.com's figures cannot be had. */
async function byokCrossCheck(
  byok: ByokReport,
  window: CostWindow,
  flags: CostCommandFlags,
  io: CliIo,
  reporter: Reporter,
  progress: ProgressLine,
): Promise<CrossCheck | undefined> {
  // The session is resolved as `cost` resolves it, `--web` and the account flags included.
  const cursor = new Reporter(io, sharedOptions({ ...flags, source: undefined }));
  let result: CrossCheckResult;
  try {
    const outcomes = await fetchReports(window, flags, io, cursor, progress);
    result = crossCheckOf(
      outcomes.map((outcome) =>
        outcome.ok ? { ok: true, report: outcome.value } : { ok: false, reason: messageFor(outcome.error) },
      ),
      { requests: byok.counts.requests, tokens: byok.report.totals.totalTokens },
    );
  } catch (error) {
    result = { ok: false, reason: messageFor(error) };
  }
  if (result.ok) return result.check;
  reporter.verbose(`[byok] No cross-check with cursor.com: ${result.reason}`);
  return undefined;
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
    accountCostReport(io, options, target, log, {
      window,
      deadline,
      store: choice,
      storeLog: reporter.verbose,
      concurrency: flags.concurrency,
      onProgress: (page) => {
        reporter.verbose(verbosePageLine(page));
        progress.update(eventsPageMessage(page.page, page.pagesKnown ?? undefined));
      },
    }),
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
