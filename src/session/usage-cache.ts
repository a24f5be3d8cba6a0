import path from 'node:path';
import { sessionAccountKey } from '../cache/session-account.js';
import { encodeSnapshot } from '../cache/snapshot-codec.js';
import type { SnapshotFile } from '../cache/snapshot-file.js';
import { readSnapshot, usageCacheDir } from '../cache/snapshot-read.js';
import { writeAccountRecord, writeSnapshot } from '../cache/snapshot-write.js';
import type { CliIo } from '../cli/io.js';
import type { SharedOptions } from '../cli/options.js';
import { TimeoutError } from '../errors.js';
import { resolveLocalTimeZone } from '../lib/time-zone.js';
import { displayPath } from '../local/paths.js';
import { type AuthInputs, authInputs } from '../statusline/account-record.js';
import { collectUsage } from '../usage/collect.js';
import type { UsageSnapshot } from '../usage/types.js';
import { type CursorSessionSetup, type CursorTarget, openCursorSession } from './cursor-session.js';

/**
 * Where a command's usage snapshot comes from (docs/invariants.md, "When a snapshot may be trusted"): the
 * account's cached snapshot when it is young enough, otherwise cursor.com, whose answer is then cached for
 * the account. The account is the one the ladder resolves locally, before any request.
 */

export interface UsagePolicy {
  /** A snapshot at most this old (milliseconds) is used without a request; 0 means always live. */
  maxAgeMs: number;
  /** statusline: an older snapshot is returned as well, marked stale (the caller refreshes it). */
  acceptStale?: boolean;
  /** One deadline for the whole live fetch, in milliseconds; it also caps every request's own timeout. */
  deadlineMs?: number;
  /** The zone the caller already resolved (and noted), so a run over several accounts notes it once. */
  timeZone?: string;
}

export interface ObtainedUsage {
  snapshot: UsageSnapshot;
  fetchedAt: Date;
  fromCache: boolean;
  /** From the cache and older than the maximum age. */
  stale: boolean;
  /** The account key; undefined when the session names no user, which is never cached. */
  account?: string;
  /** `<cache dir>/codexbar/usage`, when the cache can be used at all. */
  cacheDir?: string;
}

/**
 * `statusline --no-wait` before the account's first usable snapshot: nothing was fetched; the caller prints
 * its placeholder and starts the one background refresh, which fetches and saves the snapshot.
 */
export interface PendingUsage {
  pending: true;
  account: string;
  cacheDir: string;
  /** When the snapshot this run could not use (another base URL or time zone) was fetched, if there is one. */
  seenFetchedAt?: Date;
}

export function obtainUsage(
  io: CliIo,
  options: SharedOptions,
  log: (line: string) => void,
  policy: UsagePolicy,
  target: CursorTarget = {},
): Promise<ObtainedUsage> {
  return obtain(io, options, log, policy, target);
}

/** obtainUsage, except that an account with no usable snapshot is PendingUsage rather than fetched. */
export function obtainUsageOrPending(
  io: CliIo,
  options: SharedOptions,
  log: (line: string) => void,
  policy: UsagePolicy,
  target: CursorTarget = {},
): Promise<ObtainedUsage | PendingUsage> {
  return obtain(io, options, log, policy, target, (pending) => pending);
}

async function obtain<P = never>(
  io: CliIo,
  options: SharedOptions,
  log: (line: string) => void,
  policy: UsagePolicy,
  target: CursorTarget,
  noWait?: (pending: PendingUsage) => P,
): Promise<ObtainedUsage | P> {
  const timeZone = policy.timeZone ?? noteTimeZone(io, log);
  const setup = await openCursorSession(io, options, 'usage', log, target);
  const dir = usageCacheDir(setup.authEnv);
  // A cache dir that is not absolute on this machine (e.g. a Windows path seen on Linux) is never used.
  const cacheDir = path.isAbsolute(dir) ? dir : undefined;
  // Fingerprints first: a file that changes while the ladder reads it then fails the record's check.
  const inputs = cacheDir ? authInputs(setup.authEnv, options.sourceMode, cacheDir) : undefined;

  if (cacheDir && (policy.maxAgeMs > 0 || policy.acceptStale)) {
    const cached = await cachedUsage(setup, cacheDir, timeZone, policy, io.now(), log, noWait !== undefined);
    // `--source rpc` asks for api2's figures: a snapshot cursor.com gave is not that answer.
    const door = cached.usage?.snapshot.source ?? 'web';
    if (cached.usage && options.sourceMode === 'rpc' && door !== 'rpc') {
      log('[cache] The snapshot came from cursor.com, not api2; fetching');
    } else if (cached.usage) return { ...cached.usage, cacheDir };
    else if (noWait && cached.account !== undefined) {
      log('[cache] --no-wait: printing the placeholder; the background refresh fetches the figures');
      return noWait({
        pending: true,
        account: cached.account,
        cacheDir,
        seenFetchedAt: cached.seenFetchedAt,
      });
    } else if (noWait) {
      log(
        '[cache] --no-wait: the session names no cursor.com user id, so nothing can refresh it later; fetching',
      );
    }
  }

  const { snapshot, session } = await liveUsage(
    setup,
    io,
    timeZone,
    policy.deadlineMs,
    log,
    options.sourceMode,
  );
  const fetchedAt = io.now();
  const account = sessionAccountKey(session, setup.accountLabel);
  if (!cacheDir || !inputs) log(`[cache] Not cached: ${dir} is not an absolute path on this machine`);
  else if (account === undefined) log('[cache] Not cached: the session names no cursor.com user id');
  else {
    const file = encodeSnapshot(snapshot, { account, fetchedAt, baseUrl: setup.baseUrl, timeZone });
    saveSnapshot(setup, cacheDir, inputs, file, session, log, target.offLadder !== true);
  }
  return { snapshot, fetchedAt, fromCache: false, stale: false, account, cacheDir };
}

/** The local time zone for reset texts; `--verbose` says when TZ was not usable. */
export function noteTimeZone(io: CliIo, log: (line: string) => void): string {
  const zone = resolveLocalTimeZone(io.env);
  if (zone.note) log(`[cursor] ${zone.note}`);
  return zone.zone;
}

async function cachedUsage(
  setup: CursorSessionSetup,
  cacheDir: string,
  timeZone: string,
  policy: UsagePolicy,
  now: Date,
  log: (line: string) => void,
  noWait: boolean,
): Promise<CacheLookup> {
  // Under --no-wait a miss is not fetched: obtain says what happens instead.
  const fetching = noWait ? '' : '; fetching';
  const local = await setup.peek();
  const account = local && sessionAccountKey(local.session, setup.accountLabel);
  if (account === undefined) return {};
  const read = readSnapshot(cacheDir, account);
  if (read.kind === 'missing') {
    log(`[cache] No usable snapshot for this account (${read.reason})${fetching}`);
    return { account };
  }
  const { cached } = read;
  // Figures from another server, or reset texts written for another zone, are not this run's answer.
  if (cached.baseUrl !== setup.baseUrl || cached.timeZone !== timeZone) {
    log(`[cache] The snapshot was fetched from another base URL or time zone${fetching}`);
    return { account, seenFetchedAt: cached.fetchedAt };
  }
  const ageMs = now.getTime() - cached.fetchedAt.getTime();
  // A snapshot from the future (a clock set back) is as good as stale.
  const fresh = ageMs >= 0 && ageMs <= policy.maxAgeMs;
  const age = `${Math.max(0, Math.floor(ageMs / 1000))}s`;
  if (!fresh && !policy.acceptStale) {
    log(
      ageMs < 0
        ? `[cache] The snapshot is dated ${Math.ceil(-ageMs / 1000)}s ahead of this clock; fetching`
        : `[cache] The snapshot is ${age} old, older than --max-age ${policy.maxAgeMs / 1000}s; fetching`,
    );
    return { account, seenFetchedAt: cached.fetchedAt };
  }
  for (const line of local?.lines ?? []) log(line);
  log(
    `[cache] Using the snapshot fetched ${cached.fetchedAt.toISOString()} (${age} old${fresh ? '' : ', stale'})`,
  );
  const usage = {
    snapshot: cached.snapshot,
    fetchedAt: cached.fetchedAt,
    fromCache: true,
    stale: !fresh,
    account,
  };
  return { account, usage };
}

/** The cache's answer: the usage it holds, or why not, with the account when the ladder named one locally. */
interface CacheLookup {
  usage?: Omit<ObtainedUsage, 'cacheDir'>;
  account?: string;
  seenFetchedAt?: Date;
}

async function liveUsage(
  setup: CursorSessionSetup,
  io: CliIo,
  timeZone: string,
  deadlineMs: number | undefined,
  log: (line: string) => void,
  sourceMode: SharedOptions['sourceMode'],
) {
  // The deadline's signal comes from io.timing, so a test passes one instead of waiting; its abort
  // becomes a TimeoutError that names the budget.
  const deadline = new AbortController();
  const passed = deadlineMs === undefined ? undefined : io.timing.deadline(deadlineMs);
  const onPassed = () => deadline.abort(new TimeoutError('cursor.com', deadlineMs ?? 0));
  if (passed?.aborted) onPassed();
  else passed?.addEventListener('abort', onPassed, { once: true });
  const cap = (ms: number) => (deadlineMs === undefined ? ms : Math.min(ms, deadlineMs));
  try {
    const { value, session } = await setup.run((client, session, api2) =>
      collectUsage({
        client,
        session,
        api2,
        sourceMode,
        now: io.now(),
        timeZone,
        log,
        signal: deadline.signal,
        timeouts: {
          requestMs: cap(io.timing.requestTimeoutMs),
          optionalMs: cap(io.timing.optionalTimeoutMs),
          teamDeadlineMs: cap(io.timing.teamDeadlineMs),
        },
      }),
    );
    return { snapshot: value, session };
  } finally {
    passed?.removeEventListener('abort', onPassed);
  }
}

/** Best effort: a cache that cannot be written never fails the run; `--verbose` says why. */
function saveSnapshot(
  setup: CursorSessionSetup,
  cacheDir: string,
  inputs: AuthInputs,
  file: SnapshotFile,
  session: Parameters<typeof writeAccountRecord>[1],
  log: (line: string) => void,
  ladderAccount: boolean,
): void {
  try {
    // A header from --cookie or the environment is not a file the fast path can vouch for; an account named
    // by a flag is not the one a plain run resolves to.
    const fromArgvOrEnv =
      setup.manualOrigin === '--cookie' || setup.manualOrigin === 'CODEXBAR_CURSOR_COOKIE';
    writeSnapshot(cacheDir, file);
    if (!fromArgvOrEnv && ladderAccount) writeAccountRecord(inputs, session, file.account);
    log(`[cache] Saved the snapshot in ${displayPath(cacheDir, setup.authEnv)}`);
  } catch (error) {
    log(`[cache] Not cached: ${error instanceof Error ? error.message : String(error)}`);
  }
}
