import { resolveLocalTimeZone } from '../cost/time-zone.js';
import { usageErrorRow, usageRow } from '../render/usage-json.js';
import { implausibleFigures, renderUsageText } from '../render/usage-text.js';
import { collectUsage } from '../usage/collect.js';
import { runWithCursorSession } from './cursor-context.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { Reporter } from './report.js';

/** `codexbar usage`: resolve a session, fetch and map, then print text or CodexBar's JSON row. */
export async function usageCommand(flags: SharedFlags, io: CliIo): Promise<number> {
  const options = sharedOptions(flags);
  const reporter = new Reporter(io, options);
  const zone = resolveLocalTimeZone(io.env);
  if (zone.note) reporter.verbose(`[cursor] ${zone.note}`);
  try {
    const { value: snapshot } = await runWithCursorSession(
      io,
      options,
      'usage',
      reporter.verbose,
      (client, session) =>
        collectUsage({
          client,
          session,
          now: io.now(),
          timeZone: zone.zone,
          log: reporter.verbose,
          timeouts: {
            requestMs: io.timing.requestTimeoutMs,
            optionalMs: io.timing.optionalTimeoutMs,
            teamDeadlineMs: io.timing.teamDeadlineMs,
          },
        }),
    );
    const now = io.now();
    if (reporter.json) {
      reporter.printJson([usageRow(snapshot, now)]);
    } else {
      for (const note of implausibleFigures(snapshot, now)) reporter.verbose(note);
      reporter.printText(renderUsageText(snapshot, { now, colour: reporter.colour }));
    }
    return 0;
  } catch (error) {
    return reporter.fail(error, (failure) => usageErrorRow(failure, options.sourceLabel));
  }
}
