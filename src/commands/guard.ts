import {
  ConfigError,
  hintFor,
  messageFor,
  NoSessionError,
  NotLoggedInError,
  TimeoutError,
  UnsupportedError,
} from '../errors.js';
import { encodeJson } from '../render/json.js';
import { GUARD_EXIT } from './guard-exit.js';
import type { CliIo } from './io.js';
import { type SharedFlags, sharedOptions } from './options.js';
import { obtainUsage } from './usage-source.js';

/**
 * `codexbar guard` (docs/behaviour.md §26.8): a quota gate for scripts and CI, CodexBar's exit codes rather
 * than ours: 0 enough left, 1 below the minimum, 64 bad arguments, 69 unavailable (0 with --fail-open).
 */

export interface GuardFlags {
  provider: SharedFlags['provider'];
  minRemaining: number;
  window: 'session' | 'weekly';
  /** Milliseconds. */
  timeout: number;
  /** Milliseconds; 0 (the default) means always live. */
  maxAge: number;
  failOpen?: boolean;
  json?: boolean;
  pretty?: boolean;
  verbose?: boolean;
}

type UnavailableReason = 'account-resolution' | 'fetch-failed' | 'timeout' | 'window-unavailable';

interface GuardResult {
  provider: 'cursor';
  window: GuardFlags['window'];
  remainingPercent?: number;
  minimumRemainingPercent: number;
  decision: 'ok' | 'blocked' | 'unknown';
  exitCode: number;
  unavailableReason?: UnavailableReason;
}

export async function guardCommand(flags: GuardFlags, io: CliIo): Promise<number> {
  const options = sharedOptions({
    provider: flags.provider,
    json: flags.json,
    verbose: flags.verbose,
    color: false,
  });
  const log = (line: string) => {
    if (options.verbose) io.stderr.write(`${line}\n`);
  };
  let result: GuardResult;
  let failure: unknown;
  try {
    const { snapshot } = await obtainUsage(io, options, log, {
      maxAgeMs: flags.maxAge,
      deadlineMs: flags.timeout,
    });
    // docs/behaviour.md §26.8: for Cursor the session window is the primary one, weekly the secondary.
    const window = flags.window === 'session' ? snapshot.primary : snapshot.secondary;
    result = window
      ? decide(flags, Math.min(100, Math.max(0, 100 - window.usedPercent)))
      : unavailable(flags, 'window-unavailable');
  } catch (error) {
    failure = error;
    result = unavailable(flags, reasonFor(error));
  }
  print(io, flags, result, failure);
  return result.exitCode;
}

function decide(flags: GuardFlags, remaining: number): GuardResult {
  // Inclusive: exactly the minimum left is still enough.
  const ok = remaining >= flags.minRemaining;
  return {
    ...base(flags),
    remainingPercent: remaining,
    decision: ok ? 'ok' : 'blocked',
    exitCode: ok ? GUARD_EXIT.ok : GUARD_EXIT.blocked,
  };
}

function unavailable(flags: GuardFlags, reason: UnavailableReason): GuardResult {
  return {
    ...base(flags),
    decision: 'unknown',
    exitCode: flags.failOpen ? GUARD_EXIT.ok : GUARD_EXIT.unavailable,
    unavailableReason: reason,
  };
}

function base(flags: GuardFlags): Pick<GuardResult, 'provider' | 'window' | 'minimumRemainingPercent'> {
  return { provider: 'cursor', window: flags.window, minimumRemainingPercent: flags.minRemaining };
}

function reasonFor(error: unknown): UnavailableReason {
  if (error instanceof TimeoutError) return 'timeout';
  const noAccount =
    error instanceof NoSessionError ||
    error instanceof NotLoggedInError ||
    error instanceof ConfigError ||
    error instanceof UnsupportedError;
  return noAccount ? 'account-resolution' : 'fetch-failed';
}

function print(io: CliIo, flags: GuardFlags, result: GuardResult, failure: unknown): void {
  if (flags.json) {
    io.stdout.write(`${encodeJson(result, { pretty: flags.pretty === true })}\n`);
    return;
  }
  const what = `Cursor ${flags.window} window`;
  const minimum = `minimum ${flags.minRemaining}%`;
  if (result.decision !== 'unknown') {
    const left = `${formatPercent(result.remainingPercent ?? 0)}% left`;
    io.stdout.write(`${result.decision}: ${what} has ${left} (${minimum})\n`);
    return;
  }
  const passed = flags.failOpen ? '; --fail-open lets it pass' : '';
  io.stdout.write(`unknown: ${what} is unavailable (${result.unavailableReason})${passed}\n`);
  if (failure !== undefined) {
    io.stderr.write(`Error: ${messageFor(failure)}\n`);
    const hint = hintFor(failure);
    if (hint) io.stderr.write(`Hint: ${hint}\n`);
  }
}

function formatPercent(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
