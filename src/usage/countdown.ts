/**
 * The reset countdown: `in 15d 9h`, `in 3h 5m`, `in 1d`, `in 12m`, or `now`.
 * Minutes are dropped once days are shown.
 */
export function formatCountdownDuration(seconds: number): string | undefined {
  if (!(seconds >= 1)) return undefined;
  const totalMinutes = Math.max(1, Math.ceil(seconds / 60));
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor(totalMinutes / 60) % 24;
  const minutes = totalMinutes % 60;
  if (days > 0) {
    if (hours > 0) return `${days}d ${hours}h`;
    if (minutes > 0) return `${days}d ${minutes}m`;
    return `${days}d`;
  }
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  return `${minutes}m`;
}

/** `in 15d 9h`, or `now` when less than a second remains. */
export function formatCountdown(seconds: number): string {
  const duration = formatCountdownDuration(seconds);
  return duration === undefined ? 'now' : `in ${duration}`;
}
