import { describe, expect, it } from 'vitest';
import { moneyAtPrecision, usdFromCents } from '../../src/lib/money.js';

describe('money at its precision', () => {
  it.each([
    [0.30000000000000004, 0.3],
    [0.12299999999999998, 0.123],
    [121.50665400000001, 121.506654],
    [0.0006450000000000001, 0.000645],
    // Fifteen significant digits are kept, the sixteenth is rounded away.
    [123456.789012345, 123456.789012345],
    [123456.7890123456, 123456.789012346],
    [1e-12, 1e-12],
    [1.797e308, 1.797e308],
  ])('%d is %d', (value, expected) => {
    expect(moneyAtPrecision(value)).toBe(expected);
  });

  it('keeps what is not a finite figure, and writes no negative zero', () => {
    expect(moneyAtPrecision(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(moneyAtPrecision(Number.NaN)).toBeNaN();
    expect(Object.is(moneyAtPrecision(-0), 0)).toBe(true);
  });

  it('turns cents into dollars without the division showing', () => {
    expect(usdFromCents(0.0645)).toBe(0.000645);
    expect(usdFromCents(1234)).toBe(12.34);
    expect(usdFromCents(12.3)).toBe(0.123);
  });
});
