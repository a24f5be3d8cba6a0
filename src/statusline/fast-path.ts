/**
 * The statusline fast path: bin/codexbar.js loads this small bundle, not the CLI, when the command is
 * `statusline`. It answers from the account's snapshot (fresh, or stale plus one background refresh) without
 * loading commander, zod, the HTTP client or the table renderer. Whatever it cannot answer — a flag it does
 * not know, a bad value, no snapshot, an account it cannot vouch for — returns undefined, and the full CLI
 * takes the same argv from the start.
 */
import { fstatSync, writeSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { resolveBaseUrl } from '../api/base-url.js';
import { cleanCookieHeader, sessionTokenIdentityFromCookie } from '../auth/cookie.js';
import type { SourceMode } from '../auth/resolver.js';
import { sessionAccountKey } from '../cache/session-account.js';
import { readSnapshot, usageCacheDir } from '../cache/snapshot-read.js';
import type { OutputStream } from '../cli/io.js';
import { parseDurationMs } from '../lib/duration.js';
import type { LocalEnvironment, Platform } from '../local/environment.js';
import { zoneSafeProcessEnv } from '../local/zone-file.js';
import { DEFAULT_TEMPLATE, unknownTokens } from '../render/statusline.js';
import { authInputs, recordedAccount } from './account-record.js';
import { type RefreshRequest, type RefreshSpawner, startBackgroundRefresh } from './background-refresh.js';
import {
  MAX_AGE_RANGE,
  pendingEntry,
  renderStatusline,
  STATUSLINE_DEFAULT_MAX_AGE_MS,
  STATUSLINE_FORMATS,
  STATUSLINE_TIMEOUT_RANGE,
  type StatuslineFormat,
  type StatuslineSettings,
  statuslineEntry,
} from './output.js';

export interface FastIo {
  stdout: OutputStream;
  /** Why stdout could not be written, other than a closed pipe (a full disk): the run then exits 1. */
  writeFailure?: () => string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  platform: Platform;
  homeDir: string;
  now: () => Date;
  spawnRefresh?: RefreshSpawner;
}

interface FastFlags extends StatuslineSettings {
  maxAgeMs: number;
  noWait: boolean;
  mode: SourceMode;
  sourceArgs: string[];
}

/** The exit code, or undefined: "not here, run the full CLI". */
export async function fastStatusline(
  argv: readonly string[],
  io: FastIo = processFastIo(),
): Promise<number | undefined> {
  const flags = parseFlags(argv);
  if (flags === undefined) return undefined;
  const local: LocalEnvironment = {
    platform: io.platform,
    env: io.env,
    // A getter, passed on as one: the home is looked up only if HOME is unusable.
    get homeDir() {
      return io.homeDir;
    },
    now: io.now,
  };
  let baseUrl: string;
  try {
    baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  } catch {
    return undefined; // the full CLI explains the refusal
  }
  const usageDir = usageCacheDir(local);
  if (!isAbsolute(usageDir)) return undefined;
  const account = await currentAccount(local, flags.mode, usageDir);
  if (account === undefined) return undefined;
  const read = readSnapshot(usageDir, account);
  const now = io.now();
  // `--no-wait` before the account's first snapshot: the placeholder, and the refresh that fetches it. A
  // snapshot the run cannot use (another base URL) is the full CLI's to explain under --verbose.
  if (read.kind === 'missing' && flags.noWait) {
    if (!printed(io, renderStatusline([pendingEntry(io.env, undefined)], flags, false))) return 1;
    await refresh(io, { usageDir, account, now, sourceArgs: flags.sourceArgs });
    return 0;
  }
  if (read.kind !== 'ok' || read.cached.baseUrl !== baseUrl) return undefined;

  const { snapshot, fetchedAt } = read.cached;
  const ageMs = now.getTime() - fetchedAt.getTime();
  const stale = !(ageMs >= 0 && ageMs <= flags.maxAgeMs);
  const view = { snapshot, fetchedAt, now, stale };
  if (
    !printed(
      io,
      renderStatusline([statuslineEntry(flags, io.env, io.stdout.isTTY === true, view)], flags, false),
    )
  ) {
    return 1;
  }
  if (stale)
    await refresh(io, { usageDir, account, seenFetchedAt: fetchedAt, now, sourceArgs: flags.sourceArgs });
  return 0;
}

/** Writes the output; a write error other than a closed pipe is one line on stderr (the run exits 1). */
function printed(io: FastIo, output: string): boolean {
  io.stdout.write(output);
  const failure = io.writeFailure?.();
  if (failure === undefined) return true;
  writeQuietly(2, `Error: cannot write output: ${failure}\n`);
  return false;
}

/** The one background refresh; a prompt never fails for it. */
async function refresh(io: FastIo, request: RefreshRequest): Promise<void> {
  await startBackgroundRefresh(request, io.spawnRefresh).catch(() => undefined);
}

/**
 * The account the full CLI would resolve: a manual header from the environment names it directly (it beats
 * everything else); otherwise the account record vouches for it.
 */
async function currentAccount(local: LocalEnvironment, mode: SourceMode, usageDir: string) {
  const fromEnv = local.env.CODEXBAR_CURSOR_COOKIE;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const header = cleanCookieHeader(fromEnv);
    if (header === undefined) return undefined;
    return sessionAccountKey(
      { cookieHeader: header, jwt: sessionTokenIdentityFromCookie(header) },
      undefined,
    );
  }
  return recordedAccount(local, mode, authInputs(local, mode, usageDir));
}

/**
 * Only the flags the fast path fully understands, with commander's rule that the last value wins. The account
 * flags (`--account`, `--account-index`, `--all-accounts`) are not among them: answering for a named account
 * would mean loading and validating the config file as the full CLI does, so they go to the full CLI.
 */
function parseFlags(argv: readonly string[]): FastFlags | undefined {
  if (argv[0] !== 'statusline') return undefined;
  const flags: FastFlags = {
    template: DEFAULT_TEMPLATE,
    json: false,
    pretty: false,
    strict: false,
    maxAgeMs: STATUSLINE_DEFAULT_MAX_AGE_MS,
    noWait: false,
    mode: 'auto',
    sourceArgs: [],
  };
  let source = 'auto';
  let web = false;
  let format: StatuslineFormat | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const takesValue = [
      '--template',
      '--max-age',
      '--timeout',
      '--provider',
      '--source',
      '--format',
    ].includes(name);
    let value: string | undefined;
    if (takesValue) {
      value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
      if (value === undefined) return undefined;
    } else if (equals !== -1) return undefined;
    switch (name) {
      case '--json':
        flags.json = true;
        break;
      case '--pretty':
        flags.pretty = true;
        break;
      case '--strict':
        flags.strict = true;
        break;
      case '--no-wait':
        flags.noWait = true;
        break;
      case '--color':
        flags.colorFlag = true;
        break;
      case '--no-color':
        flags.colorFlag = false;
        break;
      case '--web':
        web = true;
        break;
      case '--template':
        if (unknownTokens(value!).length > 0) return undefined;
        flags.template = value!;
        break;
      case '--max-age': {
        const ms = durationIn(value!, MAX_AGE_RANGE);
        if (ms === undefined) return undefined;
        flags.maxAgeMs = ms;
        break;
      }
      case '--timeout':
        if (durationIn(value!, STATUSLINE_TIMEOUT_RANGE) === undefined) return undefined;
        break;
      case '--provider':
        if (!['cursor', 'all', 'both'].includes(value!.trim().toLowerCase())) return undefined;
        break;
      case '--source':
        source = value!.trim().toLowerCase();
        if (!['auto', 'cli', 'web'].includes(source)) return undefined;
        break;
      case '--format': {
        const chosen = value!.trim().toLowerCase();
        if (!(STATUSLINE_FORMATS as readonly string[]).includes(chosen)) return undefined;
        format = chosen as StatuslineFormat;
        break;
      }
      default:
        return undefined;
    }
  }
  // --json with another --format is the full CLI's argument error.
  if (flags.json && format !== undefined && format !== 'json') return undefined;
  if (format === 'json') flags.json = true;
  else if (format !== undefined && format !== 'line') flags.bar = format;
  if (web) source = 'web';
  flags.mode = source === 'web' ? 'web' : 'auto';
  flags.sourceArgs = ['--source', source];
  return flags;
}

/** The value in milliseconds, when commander's duration() would accept it within `range` (seconds). */
function durationIn(value: string, range: { min: number; max: number }): number | undefined {
  const ms = parseDurationMs(value);
  return ms !== undefined && ms >= range.min * 1000 && ms <= range.max * 1000 ? ms : undefined;
}

function processFastIo(): FastIo {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  let failure: string | undefined;
  return {
    stdout: stdoutWriter((code) => {
      failure = code;
    }),
    writeFailure: () => failure,
    env: zoneSafeProcessEnv(),
    platform,
    // Only consulted when HOME is unusable: node:os is loaded only then.
    get homeDir() {
      return process.getBuiltinModule('node:os').homedir();
    },
    now: () => new Date(),
  };
}

/**
 * Standard output without `process.stdout`, whose stream (and the net, tty and stream modules behind it)
 * costs a prompt more than the rest of the fast path. The line is written whole and synchronously; a closed
 * pipe (EPIPE, `codexbar statusline | head -c0`) ends the output quietly, any other error is reported to
 * `failed`. A character device counts as a terminal, as a TTY is one (the only other one that could be
 * stdout, /dev/null, shows nothing).
 */
function stdoutWriter(failed: (code: string) => void): OutputStream {
  return {
    isTTY: isCharacterDevice(1),
    write(text: string) {
      try {
        writeAll(1, text);
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        if (code !== 'EPIPE') failed(code ?? message);
      }
    },
  };
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}

function writeQuietly(fd: number, text: string): void {
  try {
    writeAll(fd, text);
  } catch {}
}

function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
