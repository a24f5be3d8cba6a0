/**
 * Durations on the command line: plain seconds (`45`, `1.5`) or a number with a unit, `45s`, `5m`, `1h`
 * (case-insensitive, surrounding spaces ignored). Pure and dependency-free, so the statusline fast path reads
 * `--max-age` and `--timeout` exactly as commander's parser does, without loading commander.
 */

const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$/i;

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[(match[2] ?? '').toLowerCase()]!;
}

/** `45s`, `5m`, `1h 30m`: whole seconds in the shortest exact form, for messages. */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const parts: string[] = [];
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0) parts.push(`${minutes}m`);
  if (rest > 0) parts.push(`${rest}s`);
  return parts.join(' ');
}
