/** How string values from the config file are cleaned before use. */

/** One pair of matching `"…"` or `'…'` around the whole value is removed. */
export function stripWrappingQuotes(value: string): string {
  if (value.length >= 2) {
    const first = value[0];
    if ((first === '"' || first === "'") && value.endsWith(first)) return value.slice(1, -1);
  }
  return value;
}

/** Trim, strip one pair of matching quotes, trim; empty means absent. */
export function cleanValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = stripWrappingQuotes(value.trim()).trim();
  return cleaned === '' ? undefined : cleaned;
}
