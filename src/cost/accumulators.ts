/**
 * Running sums that fail closed (docs/invariants.md, "No unknown price as zero"): a token sum that overflows
 * becomes unknown for good; a cost sum turns invalid for good on a bad value and otherwise counts known
 * values only; a metered sum is lost for good when one event lacks a usable chargedCents.
 *
 * Money is summed in cents, as Cursor reports it, and turned into USD once, when read: dividing each value
 * first would let a sum whose cents overflow (two charges of 1.797e308) pass as a finite number of dollars.
 */
import { usdFromCents } from '../lib/money.js';
import { ExactSum } from './exact-sum.js';
import type { RequestCounts } from './types.js';

/** Overflow bound for token sums: beyond it a JS number no longer counts exactly. */
export const TOKEN_SUM_LIMIT = Number.MAX_SAFE_INTEGER;

export function checkedAdd(sum: number | null, value: number | null): number | null {
  if (sum === null || value === null) return null;
  const next = sum + value;
  return next > TOKEN_SUM_LIMIT || next < -TOKEN_SUM_LIMIT ? null : next;
}

export function checkedSum(values: readonly (number | null)[]): number | null {
  let sum: number | null = 0;
  for (const value of values) sum = checkedAdd(sum, value);
  return sum;
}

/**
 * Known costs add up (exactly, so the order events arrive in never changes a
 * digit); an invalid one or an overflow poisons the sum; "no cents at all" stays unknown.
 */
class CostSum {
  private readonly cents = new ExactSum();
  private known = false;
  private invalid = false;

  addCents(cents: number): void {
    if (this.invalid) return;
    this.cents.add(cents);
    this.known = true;
    if (!this.cents.finite) this.invalid = true;
  }

  poison(): void {
    this.invalid = true;
  }

  /** Takes in another sum's values, as if they had been added here. */
  absorb(other: CostSum): void {
    if (other.known) this.known = true;
    if (other.invalid) this.invalid = true;
    if (this.invalid) return;
    this.cents.addAll(other.cents);
    if (!this.cents.finite) this.invalid = true;
  }

  /** A bad reported value or an overflow (not a missing price) made the sum unknown. */
  get poisoned(): boolean {
    return this.invalid;
  }

  get usd(): number | null {
    return this.invalid || !this.known ? null : usdFromCents(this.cents.value);
  }
}

/**
 * docs/invariants.md, "No partial total": Σ chargedCents / 100 (exact, as CostSum), or null once any event
 * lacks it, has a negative one, or the sum of cents overflows.
 */
export class MeteredSum {
  private readonly cents = new ExactSum();
  private lost = false;
  private events = 0;

  add(chargedCents: number | undefined): void {
    this.events++;
    if (this.lost) return;
    if (chargedCents === undefined || chargedCents < 0) {
      this.lost = true;
      return;
    }
    this.cents.add(chargedCents);
    if (!this.cents.finite) this.lost = true;
  }

  /** Takes in another sum's events, as if they had been added here. */
  absorb(other: MeteredSum): void {
    this.events += other.events;
    if (other.lost) this.lost = true;
    if (this.lost) return;
    this.cents.addAll(other.cents);
    if (!this.cents.finite) this.lost = true;
  }

  get usd(): number | null {
    return this.lost || this.events === 0 ? null : usdFromCents(this.cents.value);
  }
}

/**
 * Per (day, model) or per model: the token and cost sums plus our metered and request-count figures.
 */
export class ModelAccumulator {
  inputTokens: number | null = 0;
  outputTokens: number | null = 0;
  cacheReadTokens: number | null = 0;
  cacheCreationTokens: number | null = 0;
  requestCount = 0;
  readonly cost = new CostSum();
  readonly metered = new MeteredSum();
  readonly requestCounts: RequestCounts = { reported: 0, estimated: 0, unpriced: 0 };

  constructor(readonly modelName: string) {}

  /**
   * Takes in another accumulator's events, as if they had been added here: the token sums never take a
   * negative count, so a sum of sums overflows exactly when the sum would.
   */
  absorb(other: ModelAccumulator): void {
    this.inputTokens = checkedAdd(this.inputTokens, other.inputTokens);
    this.outputTokens = checkedAdd(this.outputTokens, other.outputTokens);
    this.cacheReadTokens = checkedAdd(this.cacheReadTokens, other.cacheReadTokens);
    this.cacheCreationTokens = checkedAdd(this.cacheCreationTokens, other.cacheCreationTokens);
    this.requestCount += other.requestCount;
    this.requestCounts.reported += other.requestCounts.reported;
    this.requestCounts.estimated += other.requestCounts.estimated;
    this.requestCounts.unpriced += other.requestCounts.unpriced;
    this.cost.absorb(other.cost);
    this.metered.absorb(other.metered);
  }

  get totalTokens(): number | null {
    return checkedSum([this.inputTokens, this.outputTokens, this.cacheReadTokens, this.cacheCreationTokens]);
  }
}

/** The accumulator of `model` in `models`, made when missing. */
export function modelIn(models: Map<string, ModelAccumulator>, model: string): ModelAccumulator {
  let acc = models.get(model);
  if (acc === undefined) {
    acc = new ModelAccumulator(model);
    models.set(model, acc);
  }
  return acc;
}
