import { systemTimeZone } from '../cost/time-zone.js';
import { CodexbarError, exitCodeFor } from '../errors.js';
import { cliErrorRow, usageErrorRow, usageRow } from '../render/usage-json.js';
import { renderUsageText } from '../render/usage-text.js';
import { collectUsage } from '../usage/collect.js';
import { runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import { parseSharedOptions } from './options.js';
import { Reporter } from './report.js';

/** `codexbar usage`: resolve a session, fetch and map, then print text or CodexBar's JSON row. */
export async function usageCommand(rawOptions: unknown, io: CliIo): Promise<number> {
  const options = parseSharedOptions(rawOptions);
  const reporter = new Reporter(io, options);
  try {
    const { value: snapshot } = await runWithCursorSession(
      io,
      options,
      'usage',
      reporter.verbose,
      (client, session) =>
        collectUsage({ client, session, now: io.now(), timeZone: systemTimeZone(), log: reporter.verbose }),
    );
    const now = io.now();
    if (reporter.json) {
      reporter.printJson([usageRow(snapshot, now)]);
    } else {
      reporter.printText(renderUsageText(snapshot, { now, colour: reporter.colour }));
    }
    return 0;
  } catch (error) {
    if (reporter.json) {
      const commandLevel =
        error instanceof CodexbarError && (error.kind === 'config' || error.kind === 'args');
      reporter.printJson([commandLevel ? cliErrorRow(error) : usageErrorRow(error, options.sourceLabel)]);
    } else {
      reporter.printTextError(error);
    }
    return exitCodeFor(error);
  }
}
