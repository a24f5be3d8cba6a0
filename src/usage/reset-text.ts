/**
 * docs/behaviour.md §14.1: `"Resets " + format(d, "MMM d 'at' h:mma")` with en_US_POSIX in the local zone,
 * e.g. `Resets Feb 1 at 12:00AM`. Built from numeric parts so ICU's month abbreviations ("Sept") and
 * narrow spaces never leak in.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function formatResetDate(date: Date, timeZone: string): string {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const hour24 = parts.hour ?? 0;
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  const minute = String(parts.minute ?? 0).padStart(2, '0');
  const month = MONTHS[(parts.month ?? 1) - 1];
  return `${month} ${parts.day} at ${hour12}:${minute}${hour24 < 12 ? 'AM' : 'PM'}`;
}

export function resetText(date: Date, timeZone: string): string {
  return `Resets ${formatResetDate(date, timeZone)}`;
}
