/**
 * USD figures at the precision they have (docs/invariants.md, "Money at its precision"). Costs are summed
 * exactly in cents (src/cost/exact-sum.ts), but the cents themselves are binary approximations of decimal
 * figures (a list price times tokens over a million, cursor.com's fractional cents), and turning them into
 * dollars divides once more. The last binary digit then shows in JSON as noise: `0.27817899999999995` for
 * 0.278179. A double holds 15 significant decimal digits exactly; beyond them is only that noise, so every
 * USD figure is rounded to 15 significant digits where it is made, and every output (JSON, CSV, text,
 * serve, mcp, metrics) gets the same number.
 */

const SIGNIFICANT_DIGITS = 15;

/** `value` rounded to 15 significant digits; a non-finite value is returned as it is. */
export function moneyAtPrecision(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(SIGNIFICANT_DIGITS)) + 0 : value;
}

/** A sum of cents as USD, at its precision. */
export function usdFromCents(cents: number): number {
  return moneyAtPrecision(cents / 100);
}
