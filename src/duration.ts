/**
 * Durations on the command line (docs/behaviour.md §26.1): whole seconds (`45`) or a whole number with a unit,
 * `45s`, `5m`, `1h` (case-insensitive, surrounding spaces ignored). Pure and dependency-free, so the
 * statusline fast path can use it without loading commander.
 */

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };
const DURATION = /^\s*(\d{1,9})\s*([smh]?)\s*$/i;

/** Seconds, or undefined when the text is not a duration. */
export function parseDurationSeconds(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * (UNIT_SECONDS[(match[2] ?? '').toLowerCase()] ?? 1);
}

/** `45s`, `5m`, `1h`, `1h 30m`: the shortest exact form, for messages and help. */
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
