/**
 * Number formatting shared by the text renderers: C-style `%.Nf`, en-US currency, CodexBar's token
 * abbreviations and en-US digit grouping.
 */

/** docs/invariants.md, "No unknown price as zero": shown in place of a value nobody knows, never `$0.00`. */
export const UNKNOWN = '—';

/**
 * C's `printf("%.<digits>f")`: rounds the exact binary value, ties to even (42.5 → "42"), unlike JS
 * `toFixed` which rounds ties up.
 */
export function formatFixed(value: number, digits: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  // toFixed(100) is the exact decimal expansion of any double ≥ 2^-48, so the tie test below is exact.
  const [whole = '0', fraction = ''] = Math.abs(value).toFixed(100).split('.');
  const scaled = BigInt(whole + fraction);
  const divisor = 10n ** BigInt(100 - digits);
  let quotient = scaled / divisor;
  const remainder = scaled % divisor;
  const half = divisor / 2n;
  if (remainder > half || (remainder === half && quotient % 2n === 1n)) quotient += 1n;
  const text = quotient.toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return value < 0 && quotient !== 0n ? `-${body}` : body;
}

// Foundation's NumberFormatter rounds currency half-to-even; Intl's default would round ties up. Both
// formatters are made on first use: building one loads ICU's locale data, about 20 ms that a `--json` run
// never needs (bench/README.md, Start-up).
let currencyFormat: Intl.NumberFormat | undefined;
let groupedFormat: Intl.NumberFormat | undefined;

/** en-US currency, `$1,234.56`; `—` when unknown. */
export function formatUSD(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return UNKNOWN;
  currencyFormat ??= new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    roundingMode: 'halfEven',
  });
  return currencyFormat.format(value);
}

/** en-US digit grouping, `1,234,567`; `—` when unknown. */
export function formatCount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return UNKNOWN;
  groupedFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return groupedFormat.format(value);
}

const TOKEN_UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/**
 * ≥1B `B`, ≥1M `M`, ≥1K `K`; a scaled value ≥10 has no decimals, below 10 one
 * decimal with a trailing `.0` dropped (`1.2M`, `9K`, `41M`); below 1000 the raw integer.
 */
export function formatTokens(value: number): string {
  const magnitude = Math.abs(value);
  for (const [unit, suffix] of TOKEN_UNITS) {
    if (magnitude < unit) continue;
    const scaled = value / unit;
    const text = Math.abs(scaled) >= 10 ? formatFixed(scaled, 0) : formatFixed(scaled, 1).replace(/\.0$/, '');
    return `${text}${suffix}`;
  }
  return formatFixed(value, 0);
}
