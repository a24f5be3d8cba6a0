import { describe, expect, it } from 'vitest';
import { formatCount, formatFixed, formatTokens, formatUSD } from '../../src/render/format.js';

describe("formatFixed is C's %.Nf", () => {
  it.each([
    [42.5, 0, '42'],
    [43.5, 0, '44'],
    [0.5, 0, '0'],
    [1.5, 0, '2'],
    [42.50000001, 0, '43'],
    [58, 0, '58'],
    [99.99, 0, '100'],
    [1.25, 1, '1.2'],
    [1.35, 1, '1.4'], // 1.35 is stored as 1.350000000000000088…, above the tie
    [2.675, 2, '2.67'], // stored just below 2.675
  ])('%s with %i decimals prints %s (ties to even on the exact binary value)', (value, digits, expected) => {
    expect(formatFixed(value, digits)).toBe(expected);
  });
});

describe('formatTokens abbreviations', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1K'],
    [9000, '9K'],
    [10_400, '10K'],
    [1_200_000, '1.2M'],
    [1_250_000, '1.2M'],
    [41_000_000, '41M'],
    [2_500_000_000, '2.5B'],
    [12_000_000_000, '12B'],
  ])('%i tokens print as %s', (value, expected) => {
    expect(formatTokens(value)).toBe(expected);
  });
});

describe('formatUSD and formatCount (en-US)', () => {
  it.each([
    [1234.56, '$1,234.56'],
    [0, '$0.00'],
    [20, '$20.00'],
    [null, '—'],
  ])('%s dollars print as %s', (value, expected) => {
    expect(formatUSD(value)).toBe(expected);
  });

  it('groups digits and shows an em dash for unknown counts', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('—');
  });
});
