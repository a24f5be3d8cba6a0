// Number, money, percent and time formats of the dashboard. They follow the CLI's: whole percents and
// dollars rounded half to even, and the reset countdown of src/usage/countdown.ts.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', roundingMode: 'halfEven' });
export const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, roundingMode: 'halfEven' });
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export const money = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? usd.format(value) : 'unknown';
export const count = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? whole.format(value) : 'unknown';

export function percentLeft(usedPercent) {
  const remaining = Math.min(100, Math.max(0, 100 - usedPercent));
  const text = remaining > 0 && remaining < 1 ? '<1% left' : `${whole.format(remaining)}% left`;
  return { remaining, text };
}

export function tone(remaining) {
  if (remaining < 10) return 'bad';
  if (remaining < 25) return 'warn';
  return 'ok';
}

/** `in 15d 9h`, `in 3h 5m`, `in 12m`, or `now`; minutes go once days show. */
export function countdown(resetsAt) {
  const seconds = (Date.parse(resetsAt) - Date.now()) / 1000;
  if (!(seconds >= 1)) return 'Resets now';
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  let text;
  if (d > 0) text = h > 0 ? `${d}d ${h}h` : m > 0 ? `${d}d ${m}m` : `${d}d`;
  else if (h > 0) text = m > 0 ? `${h}h ${m}m` : `${h}h`;
  else text = `${m}m`;
  return `Resets in ${text}`;
}

export function ago(iso) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 36 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

export const timeOf = (iso) => clock.format(new Date(iso));
