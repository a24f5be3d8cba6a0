import { collectCost } from '../cost/collect.js';
import { groupReport } from '../cost/groups.js';
import { verbosePageLine } from '../cost/pager.js';
import { resolveLocalTimeZone } from '../cost/time-zone.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { resolveCostWindow } from '../cost/window.js';
import { ArgumentError } from '../errors.js';
import { costCsv } from '../render/cost-csv.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage, type ProgressLine } from '../render/progress.js';
import type { CostFlags } from './cost-options.js';
import { withCostStore } from './cost-store.js';
import { runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { Reporter } from './report.js';

/** Output that is not a terminal has no width to fit: print the full table unless --compact says otherwise. */
const UNBOUNDED_COLUMNS = 1000;

/** `codexbar cost`: page every usage event of the window, aggregate, print CodexBar's lines and a table. */
export async function costCommand(flags: SharedFlags & CostFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, sharedOptions(flags));
  // The progress line is for people watching a terminal: never in JSON, never into a pipe or a log.
  const progress = createProgressLine({
    enabled: !reporter.json && io.stderr.isTTY === true,
    stream: io.stderr,
  });
  try {
    if (flags.weekStart !== undefined && flags.by !== 'week') {
      throw new ArgumentError('--week-start applies to --by week only.');
    }
    const window = costWindow(flags, io, reporter);
    const report = await fetchReport(window, flags, io, reporter, progress);
    progress.finish();
    printReport(report, flags, io, reporter);
    return 0;
  } catch (error) {
    progress.finish();
    return reporter.fail(error, (failure) => costErrorRow(failure, io.now()));
  }
}

/** The flags are already valid; what is left needs today's date, so it is checked before any request. */
function costWindow(flags: CostFlags, io: CliIo, reporter: Reporter): CostWindow {
  let timeZone = flags.timezone;
  if (timeZone === undefined) {
    const local = resolveLocalTimeZone(io.env);
    if (local.note) reporter.verbose(`[cursor-cost] ${local.note}`);
    timeZone = local.zone;
  }
  return resolveCostWindow({
    days: flags.days,
    since: flags.since,
    until: flags.until,
    month: flags.month,
    all: flags.all,
    timeZone,
    now: io.now(),
  });
}

async function fetchReport(
  window: CostWindow,
  flags: CostFlags,
  io: CliIo,
  reporter: Reporter,
  progress: ProgressLine,
): Promise<CostReport> {
  const { value } = await runWithCursorSession(
    io,
    reporter.options,
    'cost',
    reporter.verbose,
    (client, session, account) =>
      withCostStore(
        { platform: io.platform, env: io.env, homeDir: io.homeDir, now: io.now },
        { noCache: flags.cache === false, refresh: flags.refresh === true },
        session,
        account,
        reporter.verbose,
        (store) =>
          collectCost({
            client,
            cookieHeader: session.cookieHeader,
            window,
            now: io.now,
            concurrency: flags.concurrency,
            timeoutMs: io.timing.requestTimeoutMs,
            retry: { sleep: io.timing.sleep },
            store,
            onProgress: (page) => {
              reporter.verbose(verbosePageLine(page));
              progress.update(eventsPageMessage(page.page, page.pagesKnown ?? undefined));
            },
          }),
      ),
  );
  return value;
}

/** docs/behaviour.md §28.4–28.5: the JSON row (with `groups` under `--by`), CSV, or text. */
function printReport(report: CostReport, flags: CostFlags, io: CliIo, reporter: Reporter): void {
  const by = flags.by ?? 'day';
  const weekStart = flags.weekStart ?? 'monday';
  const groups = groupReport(report, { by, weekStart, order: flags.order });
  if (reporter.json) {
    reporter.printJson([costRow(report, flags.by ? { by, weekStart, groups } : undefined)]);
  } else if (reporter.options.format === 'csv') {
    reporter.printText(costCsv(groups, by));
  } else {
    reporter.printText(
      renderCostText(report, {
        colour: reporter.colour,
        columns: terminalColumns(io),
        compact: flags.compact === true,
        breakdown: flags.breakdown === true,
        isTTY: io.stdout.isTTY === true,
        table: { by, groups },
      }),
    );
  }
}

/** COLUMNS, then the terminal's width (ccusage's rule); a pipe or a file gets the full table. */
function terminalColumns(io: CliIo): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}
