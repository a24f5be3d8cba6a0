import { collectCost } from '../cost/collect.js';
import { verbosePageLine } from '../cost/pager.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage, type ProgressLine } from '../render/progress.js';
import { type CostFlags, windowFromFlags } from './cost-options.js';
import { runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import { type SharedFlags, type SharedOptions, sharedOptions } from './options.js';
import { Reporter } from './report.js';

/** Output that is not a terminal has no width to fit: print the full table unless --compact says otherwise. */
const UNBOUNDED_COLUMNS = 1000;

/** `codexbar cost`: page every usage event of the window, aggregate, print CodexBar's lines and a table. */
export async function costCommand(flags: SharedFlags & CostFlags, io: CliIo): Promise<number> {
  const options = sharedOptions(flags);
  const reporter = new Reporter(io, options);
  // The progress line is for people watching a terminal: never in JSON, never into a pipe or a log.
  const progress = createProgressLine({
    enabled: !reporter.json && io.stderr.isTTY === true,
    stream: io.stderr,
  });
  try {
    const window = windowFromFlags(flags, io, reporter.verbose);
    const report = await fetchReport(window, flags, options, io, reporter, progress);
    progress.finish();
    printReport(report, flags, io, reporter);
    return 0;
  } catch (error) {
    progress.finish();
    return reporter.fail(error, (failure) => costErrorRow(failure, io.now()));
  }
}

async function fetchReport(
  window: CostWindow,
  flags: CostFlags,
  options: SharedOptions,
  io: CliIo,
  reporter: Reporter,
  progress: ProgressLine,
): Promise<CostReport> {
  // docs/behaviour.md §18.12: one deadline for the whole run, every session tried and every page and wait.
  const deadline = { signal: io.timing.deadline(flags.timeout), ms: flags.timeout };
  const { value } = await runWithCursorSession(io, options, 'cost', reporter.verbose, (client, session) =>
    collectCost({
      client,
      cookieHeader: session.cookieHeader,
      window,
      now: io.now,
      concurrency: flags.concurrency,
      timeoutMs: io.timing.requestTimeoutMs,
      retry: { sleep: io.timing.sleep },
      deadline,
      onProgress: (page) => {
        reporter.verbose(verbosePageLine(page));
        progress.update(eventsPageMessage(page.page, page.pagesKnown ?? undefined));
      },
    }),
  );
  return value;
}

function printReport(report: CostReport, flags: CostFlags, io: CliIo, reporter: Reporter): void {
  if (reporter.json) {
    reporter.printJson([costRow(report)]);
    return;
  }
  reporter.printText(
    renderCostText(report, {
      colour: reporter.colour,
      columns: terminalColumns(io),
      compact: flags.compact === true,
      breakdown: flags.breakdown === true,
      isTTY: io.stdout.isTTY === true,
    }),
  );
}

/** COLUMNS, then the terminal's width (ccusage's rule); a pipe or a file gets the full table. */
function terminalColumns(io: CliIo): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}
