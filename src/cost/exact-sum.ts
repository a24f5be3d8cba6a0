/**
 * An exact floating-point sum, rounded once when read (Shewchuk's partials, as Python's `math.fsum`).
 *
 * docs/invariants.md, "A report is a function of its events": a plain running sum depends on the order its
 * values arrive in (0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last binary digit). Events reach the
 * aggregator in page order on a cold run and range by range from the event store on a warm one, so every
 * money sum is exact: the same events give the same bytes whatever their order.
 */
export class ExactSum {
  /**
   * Non-overlapping partials in increasing magnitude, `count` of them; their exact sum is the exact sum of
   * the inputs. Sums of cents need two or three; a typed array keeps adding free of allocation.
   */
  private partials = new Float64Array(4);
  private count = 0;
  private overflowed = false;

  add(value: number): void {
    let partials = this.partials;
    let x = value;
    let kept = 0;
    for (let i = 0; i < this.count; i++) {
      let y = partials[i]!;
      if (Math.abs(x) < Math.abs(y)) {
        const swap = x;
        x = y;
        y = swap;
      }
      const high = x + y;
      const low = y - (high - x);
      if (low !== 0) partials[kept++] = low;
      x = high;
    }
    if (x !== 0) {
      if (kept === partials.length) {
        const grown = new Float64Array(partials.length * 2);
        grown.set(partials);
        this.partials = partials = grown;
      }
      partials[kept++] = x;
    }
    this.count = kept;
    if (!Number.isFinite(x)) this.overflowed = true;
  }

  /** Adds every value `other` was given: exactly, as if they had been added here one by one. */
  addAll(other: ExactSum): void {
    for (let i = 0; i < other.count; i++) this.add(other.partials[i]!);
    if (other.overflowed) this.overflowed = true;
  }

  /** True once a value or a partial sum left the finite range: the sum is unusable. */
  get finite(): boolean {
    return !this.overflowed;
  }

  /** The exact sum rounded to the nearest double (ties to even); +0 when nothing or only zeros were added. */
  get value(): number {
    const partials = this.partials;
    let n = this.count;
    if (n === 0) return 0;
    let high = partials[--n]!;
    let low = 0;
    while (n > 0) {
      const x = high;
      const y = partials[--n]!;
      high = x + y;
      low = y - (high - x);
      if (low !== 0) break;
    }
    // Round half to even across the partials still below: a tie in `high + low` is decided by their sign.
    if (n > 0 && ((low < 0 && partials[n - 1]! < 0) || (low > 0 && partials[n - 1]! > 0))) {
      const y = low * 2;
      const x = high + y;
      if (y === x - high) high = x;
    }
    return high + 0;
  }
}

/** The exact sum of `values`, rounded once. */
export function exactSum(values: Iterable<number>): number {
  const sum = new ExactSum();
  for (const value of values) sum.add(value);
  return sum.value;
}
