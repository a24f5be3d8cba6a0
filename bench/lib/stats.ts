/**
 * Sampling helpers for noisy machines: medians after a warm-up, and paired runs (A and B alternated) so
 * that load drifting during the benchmark hits both sides alike and their difference stays meaningful.
 */
import { median, ms } from './measure.js';

export interface Samples {
  median: number;
  samples: number[];
}

function samplesOf(values: number[]): Samples {
  return { median: median(values), samples: values };
}

/** Interquartile range: the spread of the middle half, robust to a few stalled runs. */
function iqr(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const pos = (sorted.length - 1) * q;
    const low = sorted[Math.floor(pos)] ?? 0;
    const high = sorted[Math.ceil(pos)] ?? low;
    return low + (high - low) * (pos - Math.floor(pos));
  };
  return at(0.75) - at(0.25);
}

export function spread(values: readonly number[]): string {
  return `min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))}`;
}

/** Median of `runs` samples after one warm-up. */
export async function medianRuns(runs: number, sample: () => Promise<number>): Promise<Samples> {
  await sample();
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await sample());
  return samplesOf(values);
}

export interface Paired {
  a: Samples;
  b: Samples;
  /** b − a per pair. */
  difference: Samples & { iqr: number };
}

/** `runs` pairs (a then b) after one warm-up of each. */
export async function pairedRuns(
  runs: number,
  a: () => Promise<number>,
  b: () => Promise<number>,
): Promise<Paired> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(await a());
    bs.push(await b());
  }
  const differences = bs.map((value, i) => value - (as[i] ?? 0));
  return {
    a: samplesOf(as),
    b: samplesOf(bs),
    difference: { ...samplesOf(differences), iqr: iqr(differences) },
  };
}
