/**
 * Dates are ISO-8601 date-times, parsed with fractional seconds and then without. Anything else (a date-only
 * string, a bare number, garbage) is no date at all.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

export function parseIsoDate(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  // Date.parse would roll Feb 30 over to March; a calendar date that does not exist is malformed.
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const millis = fraction ? `.${fraction.slice(1, 4).padEnd(3, '0')}` : '';
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${millis}${offset}`);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** ISO-8601 in UTC without milliseconds, the one form every date we print or encode takes. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
