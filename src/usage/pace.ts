import { formatCountdownDuration } from './countdown.js';
import type { RateWindow } from './types.js';

/** CodexBar's reset-window pace, in Cursor's weekly wording. */

export type PaceStage =
  | 'onTrack'
  | 'slightlyAhead'
  | 'ahead'
  | 'farAhead'
  | 'slightlyBehind'
  | 'behind'
  | 'farBehind';

/** The JSON `pace.<window>` object; the numbers are whole. */
export interface PacePayload {
  stage: PaceStage;
  deltaPercent: number;
  expectedUsedPercent: number;
  willLastToReset: boolean;
  etaSeconds?: number;
  /** `8% in reserve | Expected 50% used | Lasts until reset`; the text line is `Pace: <summary>`. */
  summary: string;
}

/** Swift's `.rounded()`: half away from zero, unlike `Math.round` (-8.5 → -9). */
export function roundHalfAwayFromZero(value: number): number {
  // `+ 0` normalises −0, so a tiny negative delta is a plain 0 in JSON.
  return Math.sign(value) * Math.round(Math.abs(value)) + 0;
}

const MIN_EXPECTED_PERCENT = 3;

export function computePace(window: RateWindow, now: Date): PacePayload | undefined {
  if (window.windowMinutes === undefined || window.resetsAt === undefined) return undefined;
  const duration = window.windowMinutes * 60;
  const timeUntilReset = (window.resetsAt.getTime() - now.getTime()) / 1000;
  if (!(duration > 0) || timeUntilReset <= 0 || timeUntilReset > duration) return undefined;
  if (100 - window.usedPercent <= 0) return undefined;
  const elapsed = duration - timeUntilReset;
  const actual = Math.min(100, Math.max(0, window.usedPercent));
  if (elapsed === 0 && actual > 0) return undefined;

  const expected = (elapsed / duration) * 100;
  if (expected < MIN_EXPECTED_PERCENT) return undefined;
  const delta = actual - expected;
  const stage = stageFor(delta);

  let willLastToReset = false;
  let eta: number | undefined;
  if (actual >= 100) {
    eta = 0;
  } else if (actual === 0) {
    willLastToReset = true;
  } else {
    const candidate = (100 - actual) / (actual / elapsed);
    if (candidate >= timeUntilReset) willLastToReset = true;
    else eta = candidate;
  }

  const payload: PacePayload = {
    stage,
    deltaPercent: roundHalfAwayFromZero(delta),
    expectedUsedPercent: roundHalfAwayFromZero(expected),
    willLastToReset,
    summary: summaryText(stage, delta, expected, willLastToReset, eta),
  };
  if (eta !== undefined) payload.etaSeconds = roundHalfAwayFromZero(eta);
  return payload;
}

function stageFor(delta: number): PaceStage {
  const size = Math.abs(delta);
  const ahead = delta >= 0;
  if (size <= 2) return 'onTrack';
  if (size <= 6) return ahead ? 'slightlyAhead' : 'slightlyBehind';
  if (size <= 12) return ahead ? 'ahead' : 'behind';
  return ahead ? 'farAhead' : 'farBehind';
}

function summaryText(
  stage: PaceStage,
  delta: number,
  expected: number,
  willLastToReset: boolean,
  eta: number | undefined,
): string {
  const size = roundHalfAwayFromZero(Math.abs(delta));
  let left: string;
  if (stage === 'onTrack') left = 'On pace';
  else if (delta >= 0) left = `${size}% in deficit`;
  else left = `${size}% in reserve`;
  const parts = [left, `Expected ${roundHalfAwayFromZero(expected)}% used`];
  if (willLastToReset) parts.push('Lasts until reset');
  else if (eta !== undefined) {
    const duration = formatCountdownDuration(eta);
    parts.push(duration === undefined ? 'Runs out now' : `Runs out in ${duration}`);
  }
  return parts.join(' | ');
}
