import type { Command } from 'commander';
import { collectCost } from '../cost/collect.js';
import { verbosePageLine } from '../cost/pager.js';
import { resolveCostWindow } from '../cost/window.js';
import { CodexbarError, exitCodeFor } from '../errors.js';
import { costErrorRow, costRow } from '../render/cost-json.js';
import { renderCostText } from '../render/cost-text.js';
import { createProgressLine, eventsPageMessage } from '../render/progress.js';
import { cliErrorRow } from '../render/usage-json.js';
import { parseCostOptions } from './cost-options.js';
import { runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import { parseSharedOptions } from './options.js';
import { Reporter } from './report.js';

/** Output that is not a terminal has no width to fit: print the full table unless --compact says otherwise. */
const UNBOUNDED_COLUMNS = 1000;

/** `codexbar cost`: page every usage event of the window, aggregate, print CodexBar's lines and a table. */
export async function costCommand(rawOptions: unknown, io: CliIo, command: Command): Promise<number> {
  const options = parseSharedOptions(rawOptions);
  const cost = parseCostOptions(rawOptions, command.getOptionValueSource('days') === 'cli');
  const reporter = new Reporter(io, options);
  // The progress line is for people watching a terminal: never in JSON, never into a pipe or a log.
  const progress = createProgressLine({
    enabled: !reporter.json && io.stderr.isTTY === true,
    stream: io.stderr,
  });
  try {
    const now = io.now();
    // Bad window values fail here, before any credential is read or request sent.
    const window = resolveCostWindow({ ...cost, now });
    const { value: report } = await runWithCursorSession(
      io,
      options,
      'cost',
      reporter.verbose,
      (client, session) =>
        collectCost({
          client,
          cookieHeader: session.cookieHeader,
          window,
          now: () => io.now(),
          concurrency: cost.concurrency,
          onProgress: (page) => {
            reporter.verbose(verbosePageLine(page));
            progress.update(eventsPageMessage(page.page, page.pagesKnown ?? undefined));
          },
        }),
    );
    progress.finish();
    if (reporter.json) {
      reporter.printJson([costRow(report)]);
    } else {
      reporter.printText(
        renderCostText(report, {
          colour: reporter.colour,
          columns: terminalColumns(io),
          compact: cost.compact,
          breakdown: cost.breakdown,
          isTTY: io.stdout.isTTY === true,
        }),
      );
    }
    return 0;
  } catch (error) {
    progress.finish();
    if (reporter.json) {
      const commandLevel =
        error instanceof CodexbarError && (error.kind === 'config' || error.kind === 'args');
      reporter.printJson([commandLevel ? cliErrorRow(error) : costErrorRow(error, io.now())]);
    } else {
      reporter.printTextError(error);
    }
    return exitCodeFor(error);
  }
}

/** COLUMNS, then the terminal's width (ccusage's rule); a pipe or a file gets the full table. */
function terminalColumns(io: CliIo): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}
