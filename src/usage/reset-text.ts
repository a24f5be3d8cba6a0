/**
 * `"Resets " + format(d, "MMM d 'at' h:mma")` with en_US_POSIX in the local zone,
 * e.g. `Resets Feb 1 at 12:00AM`. Built from numeric parts so ICU's month abbreviations ("Sept") and
 * narrow spaces never leak in.
 */
import { wallClock } from '../lib/time-zone.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function formatResetDate(date: Date, timeZone: string): string {
  const clock = wallClock(date.getTime(), timeZone);
  const hour12 = clock.hour % 12 === 0 ? 12 : clock.hour % 12;
  const minute = String(clock.minute).padStart(2, '0');
  return `${MONTHS[clock.month - 1]} ${clock.day} at ${hour12}:${minute}${clock.hour < 12 ? 'AM' : 'PM'}`;
}

export function resetText(date: Date, timeZone: string): string {
  return `Resets ${formatResetDate(date, timeZone)}`;
}
