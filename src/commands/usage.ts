import { formatDuration } from '../duration.js';
import { usageErrorRow, usageRow } from '../render/usage-json.js';
import { implausibleFigures, renderUsageText } from '../render/usage-text.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { Reporter } from './report.js';
import { obtainUsage } from './usage-source.js';

export interface UsageFlags extends SharedFlags {
  /** `--max-age`, in milliseconds; 0 (the default) means always live. */
  maxAge: number;
}

/** `codexbar usage`: resolve a session, fetch and map, then print text or CodexBar's JSON row. */
export async function usageCommand(flags: UsageFlags, io: CliIo): Promise<number> {
  const options = sharedOptions(flags);
  const reporter = new Reporter(io, options);
  try {
    const usage = await obtainUsage(io, options, reporter.verbose, { maxAgeMs: flags.maxAge });
    const now = io.now();
    if (reporter.json) {
      reporter.printJson([usageRow(usage.snapshot, now)]);
      return 0;
    }
    for (const note of implausibleFigures(usage.snapshot, now)) reporter.verbose(note);
    let text = renderUsageText(usage.snapshot, { now, colour: reporter.colour });
    // docs/behaviour.md §26.3: a figure from the cache says so, and how old it is.
    if (usage.fromCache) {
      const age = Math.max(0, Math.floor((now.getTime() - usage.fetchedAt.getTime()) / 1000));
      text += `\nFrom the cache, fetched ${formatDuration(age)} ago`;
    }
    reporter.printText(text);
    return 0;
  } catch (error) {
    return reporter.fail(error, (failure) => usageErrorRow(failure, options.sourceLabel));
  }
}
