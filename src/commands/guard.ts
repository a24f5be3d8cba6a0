import { type Command, Option } from 'commander';
import type { CliIo } from '../cli/io.js';
import {
  addAccountOptions,
  maxAgeOption,
  providerOption,
  type SharedFlags,
  sharedOptions,
} from '../cli/options.js';
import { Reporter, writeTextError } from '../cli/output.js';
import { choiceOption, duration, numberInRange } from '../cli/parsers.js';
import { type AccountFlags, accountFlagsUsed, checkAccountFlags } from '../config/accounts.js';
import { ArgumentError } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { safeText } from '../render/safe-text.js';
import { type AccountOutcome, forEachAccount } from '../session/per-account.js';
import { obtainUsage } from '../session/usage-cache.js';
import { type UnavailableReason, unavailableReasonFor, verdictOf } from '../usage/budget.js';
import type { UsageSnapshot } from '../usage/types.js';

/**
 * `codexbar guard`: a quota gate for scripts and CI, CodexBar's exit codes rather than ours: 0 enough left, 1
 * below the minimum, 64 bad arguments, 69 unavailable (0 with --fail-open).
 */

/** `guard`'s exit codes, CodexBar's: sysexits' EX_USAGE and EX_UNAVAILABLE. */
const GUARD_EXIT = { ok: 0, blocked: 1, usage: 64, unavailable: 69 } as const;

/** An argument error under `guard` exits 64 instead of 1. */
class GuardArgumentError extends ArgumentError {
  override readonly exitCode = GUARD_EXIT.usage;
}

/** commander's refusals of `guard`'s arguments exit 64 too (src/cli.ts). */
export const argumentError = (message: string) => new GuardArgumentError(message);

const GUARD_EXAMPLES = `
Exit codes: 0 enough left, 1 below --min-remaining, 64 bad arguments, 69 unavailable (0 with --fail-open).
With --all-accounts: 1 if any account is below, else 69 if any is unavailable, else 0.

Examples:
  codexbar guard --min-remaining 20
  codexbar guard --window weekly --json --fail-open
  codexbar guard --all-accounts --min-remaining 5`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    addGuardOptions(program.command('guard').description('a quota gate for scripts and CI (exit 0/1/64/69)')),
  )
    .addHelpText('after', GUARD_EXAMPLES)
    .action(async (flags: GuardFlags) => setExitCode(await guardCommand(flags, io)));
}

function addGuardOptions(command: Command): Command {
  return command
    .addOption(providerOption().default('cursor'))
    .addOption(
      new Option('--min-remaining <percent>', 'the least percent left that passes, 0-100 (inclusive)')
        .argParser(numberInRange('--min-remaining', 0, 100))
        .default(10),
    )
    .addOption(
      choiceOption('--window <window>', 'session (Cursor: primary) or weekly (secondary)', [
        'session',
        'weekly',
      ]).default('session'),
    )
    .addOption(
      new Option('--timeout <duration>', 'how long to wait for cursor.com, 0-86400 s')
        .argParser(duration('--timeout', { min: 0, max: 86_400 }))
        .default(60_000, '60s'),
    )
    .addOption(maxAgeOption(0, 'use a cached snapshot at most this old (0: always live)'))
    .option('--fail-open', 'exit 0 instead of 69 when the quota is unavailable')
    .option('--json', 'one JSON object')
    .option('--pretty', 'pretty JSON (sorted keys)')
    .option('-v, --verbose', 'say where the figures came from, on stderr');
}

export interface GuardFlags extends AccountFlags {
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

interface GuardResult {
  provider: 'cursor';
  /** The token account's label, when a flag named the account. */
  account?: string;
  window: GuardFlags['window'];
  remainingPercent?: number;
  minimumRemainingPercent: number;
  decision: 'ok' | 'blocked' | 'unknown';
  exitCode: number;
  unavailableReason?: UnavailableReason;
}

/** One account's verdict, and the failure behind an `unknown` one. */
interface Gate {
  result: GuardResult;
  failure?: unknown;
}

async function guardCommand(flags: GuardFlags, io: CliIo): Promise<number> {
  const options = sharedOptions({
    provider: flags.provider,
    json: flags.json,
    verbose: flags.verbose,
    color: false,
  });
  // --verbose lines go through the one printer: redacted, control characters made visible (docs/invariants.md,
  // "Control characters never reach a terminal"); a token account's label is in most of them.
  const log = new Reporter(io, options).verbose;
  try {
    checkAccountFlags(flags);
  } catch (error) {
    // Conflicting account flags are bad arguments, 64 under guard.
    throw error instanceof ArgumentError ? new GuardArgumentError(error.message, error.hint) : error;
  }
  const named = accountFlagsUsed(flags);
  let outcomes: AccountOutcome<UsageSnapshot>[];
  try {
    outcomes = await forEachAccount(io, options, flags, log, async (target, accountLog) => {
      const policy = { maxAgeMs: flags.maxAge, deadlineMs: flags.timeout };
      return (await obtainUsage(io, options, accountLog, policy, target)).snapshot;
    });
  } catch (error) {
    // The ordinary ladder's failure, or an account that cannot be selected: unavailable.
    outcomes = [{ ok: false, error }];
  }
  const gates = outcomes.map((outcome): Gate => {
    const account = named ? outcome.account?.label : undefined;
    if (!outcome.ok) {
      const reason = unavailableReasonFor(outcome.error);
      return { result: unavailable(flags, reason, account), failure: outcome.error };
    }
    const verdict = verdictOf(outcome.value, flags.window, flags.minRemaining);
    return {
      result:
        verdict.remainingPercent !== undefined
          ? decide(flags, verdict.remainingPercent, verdict.decision === 'ok', account)
          : unavailable(flags, 'window-unavailable', account),
    };
  });
  print(io, flags, gates);
  return combinedExit(gates.map((gate) => gate.result));
}

/** 1 if any account is blocked, else 69 if any is unavailable (0 with --fail-open). */
function combinedExit(results: readonly GuardResult[]): number {
  if (results.some((result) => result.decision === 'blocked')) return GUARD_EXIT.blocked;
  return results.find((result) => result.exitCode !== GUARD_EXIT.ok)?.exitCode ?? GUARD_EXIT.ok;
}

function decide(flags: GuardFlags, remaining: number, ok: boolean, account: string | undefined): GuardResult {
  return {
    ...base(flags, account),
    remainingPercent: remaining,
    decision: ok ? 'ok' : 'blocked',
    exitCode: ok ? GUARD_EXIT.ok : GUARD_EXIT.blocked,
  };
}

function unavailable(flags: GuardFlags, reason: UnavailableReason, account: string | undefined): GuardResult {
  return {
    ...base(flags, account),
    decision: 'unknown',
    exitCode: flags.failOpen ? GUARD_EXIT.ok : GUARD_EXIT.unavailable,
    unavailableReason: reason,
  };
}

function base(
  flags: GuardFlags,
  account: string | undefined,
): Pick<GuardResult, 'provider' | 'account' | 'window' | 'minimumRemainingPercent'> {
  return { provider: 'cursor', account, window: flags.window, minimumRemainingPercent: flags.minRemaining };
}

/**
 * JSON: one object, or with --all-accounts an array of them. Text: one line per account on stdout, prefixed
 * with its label when a flag named it; a failure's message (and hint) on stderr.
 */
function print(io: CliIo, flags: GuardFlags, gates: readonly Gate[]): void {
  if (flags.json) {
    const results = gates.map((gate) => gate.result);
    const value = flags.allAccounts ? results : results[0];
    io.stdout.write(`${encodeJson(value, { pretty: flags.pretty === true })}\n`);
    return;
  }
  for (const { result, failure } of gates) {
    const name = result.account === undefined ? '' : `${safeText(result.account)}: `;
    io.stdout.write(`${name}${verdictLine(flags, result)}\n`);
    if (failure !== undefined) writeTextError(io, failure, result.account);
  }
}

function verdictLine(flags: GuardFlags, result: GuardResult): string {
  const what = `Cursor ${flags.window} window`;
  if (result.decision !== 'unknown') {
    const left = `${formatPercent(result.remainingPercent ?? 0)}% left`;
    return `${result.decision}: ${what} has ${left} (minimum ${flags.minRemaining}%)`;
  }
  const passed = flags.failOpen ? '; --fail-open lets it pass' : '';
  return `unknown: ${what} is unavailable (${result.unavailableReason})${passed}`;
}

function formatPercent(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
