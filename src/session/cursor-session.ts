import { Api2Client } from '../api/api2/client.js';
import { resolveApi2BaseUrl, resolveBaseUrl } from '../api/base-url.js';
import { CursorClient } from '../api/client.js';
import { cookieHeaderProblem } from '../api/header-value.js';
import { type ProxySettings, proxySettings } from '../api/transport.js';
import type { Api2Access } from '../auth/api2-access.js';
import {
  type ManualHeaderOrigin,
  resolveBrowserImport,
  resolveCursorCredentialsConfig,
  resolveTokenRefresh,
} from '../auth/credentials.js';
import { buildLadder } from '../auth/ladder.js';
import { type Resolved, type SourceLoader, type SourceMode, withSession } from '../auth/resolver.js';
import type { Session, SourceResult } from '../auth/types.js';
import type { CliIo } from '../cli/io.js';
import type { SharedOptions } from '../cli/options.js';
import type { SelectedAccount } from '../config/accounts.js';
import { type LoadedConfig, loadConfig } from '../config/config.js';
import { ArgumentError, UnsupportedError } from '../errors.js';
import { redact } from '../lib/redact.js';
import type { LocalEnvironment } from '../local/environment.js';
import { displayPath } from '../local/paths.js';
import { safeText } from '../render/safe-text.js';

export type Purpose = 'usage' | 'cost';

/** What every run of a command shares: read once, before any account is fetched. */
export interface CursorPrep {
  authEnv: LocalEnvironment;
  config: LoadedConfig;
  baseUrl: string;
  /** api2's base URL (CODEXBAR_CURSOR_API2_BASE_URL), checked with cursor.com's before any request. */
  api2BaseUrl: string;
}

/**
 * The checks that end a run before anything is fetched: an unsupported `--source`, the config file and the
 * base URL.
 */
export async function prepareCursor(
  io: CliIo,
  options: SharedOptions,
  log: (line: string) => void = () => {},
): Promise<CursorPrep> {
  if (options.unsupportedSource) {
    throw new UnsupportedError(`Source '${options.unsupportedSource}' is not supported for cursor.`);
  }
  const authEnv: LocalEnvironment = io;
  const config = await loadConfig(authEnv);
  if (!config.exists && io.env.CODEXBAR_CONFIG?.trim()) {
    log(
      `[cursor] CODEXBAR_CONFIG names ${displayPath(config.path, authEnv)}, which does not exist; using the defaults`,
    );
  }
  const baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  const api2BaseUrl = resolveApi2BaseUrl(io.env.CODEXBAR_CURSOR_API2_BASE_URL);
  return { authEnv, config, baseUrl, api2BaseUrl };
}

/** Optional inputs of one run: a shared preparation, and the token account to run as. */
export interface CursorTarget {
  prep?: CursorPrep;
  account?: SelectedAccount;
  /**
   * A flag (`--account`, `--account-index`, `--all-accounts`, `__refresh --label`) named an account other
   * than the one a plain run resolves to: its session says nothing about that, so it is never recorded for
   * the statusline fast path (docs/invariants.md, "When a snapshot may be trusted").
   */
  offLadder?: boolean;
}

/**
 * Everything `usage` and `cost` share before they fetch: the config file, the base URL check, the
 * credential policy and the auth ladder. Errors here end the run before any request.
 */
export async function runWithCursorSession<T>(
  io: CliIo,
  options: SharedOptions,
  purpose: Purpose,
  log: (line: string) => void,
  perform: (client: CursorClient, session: Session, api2: Api2Client) => Promise<T>,
  target: CursorTarget = {},
): Promise<T> {
  return (await (await openCursorSession(io, options, purpose, log, target)).run(perform)).value;
}

/** A prepared session set-up: nothing has been read from the ladder or sent yet. */
export interface CursorSessionSetup {
  authEnv: LocalEnvironment;
  baseUrl: string;
  /** The token account's label when one supplies the session (part of the cache's account key). */
  accountLabel?: string;
  /** Where a manual header came from, when one is used (the ladder is then only that header). */
  manualOrigin?: ManualHeaderOrigin;
  /**
   * The first session the ladder yields locally, without a request, with the `--verbose` lines walking to it
   * would print. Sources are read once: `run` reuses what this read.
   */
  peek(): Promise<{ session: Session; lines: string[] } | undefined>;
  /** Walks the ladder and fetches with each session until one is not rejected. */
  run<T>(
    perform: (client: CursorClient, session: Session, api2: Api2Client) => Promise<T>,
  ): Promise<Resolved<T>>;
}

/** The credential policy and the ladder for one run, before anything is read from the ladder or sent. */
export async function openCursorSession(
  io: CliIo,
  options: SharedOptions,
  purpose: Purpose,
  log: (line: string) => void,
  target: CursorTarget = {},
): Promise<CursorSessionSetup> {
  const { authEnv, config, baseUrl, api2BaseUrl } = target.prep ?? (await prepareCursor(io, options, log));
  const credentials = resolveCursorCredentialsConfig({
    config,
    cookieFlag: options.cookieFlag,
    cookieEnv: io.env.CODEXBAR_CURSOR_COOKIE,
    account: target.account,
  });
  const configShown = displayPath(config.path, authEnv);
  if (credentials.cookieSource === 'off') {
    throw new UnsupportedError(
      purpose === 'cost'
        ? 'Cursor cost is unavailable because the Cursor cookie source is set to Off.'
        : 'Cursor is unavailable because the Cursor cookie source is set to Off.',
      `Set "cookieSource" to "auto" in ${configShown} to use it again.`,
    );
  }
  if (credentials.cookieSource === 'manual' && credentials.manualHeader === undefined) {
    // An empty manual header fails closed instead of falling back to another account.
    throw new UnsupportedError(
      purpose === 'cost'
        ? 'Cursor cost requires a non-empty Manual cookie header.'
        : 'Cursor usage requires a non-empty Manual cookie header.',
      credentials.accountLabel !== undefined
        ? `Token account "${credentials.accountLabel}" has an empty token: replace it with \`codexbar login --label '${credentials.accountLabel}'\`.`
        : `Paste a Cookie header copied from cursor.com as "cookieHeader" in ${configShown}, or set "cookieSource" to "auto".`,
    );
  }

  const refused = credentials.manualHeader && cookieHeaderProblem(credentials.manualHeader);
  if (refused) {
    // A manual header is final, so a value that cannot be sent is the user's to fix.
    throw new ArgumentError(
      `The manual Cookie header (${credentials.origin ?? 'config file'}) cannot be sent: ${refused}.`,
      'Copy the Cookie header again from a signed-in cursor.com tab, as one line.',
    );
  }

  const proxy = proxySettings(io.env);
  const ladder = readOnce(
    buildLadder(
      authEnv,
      options.sourceMode,
      credentials,
      resolveBrowserImport({
        config,
        browserFlag: options.browserFlag,
        allowKeychainPromptFlag: options.allowKeychainPrompt,
      }),
      {
        access: api2Access(io, options, api2BaseUrl, proxy),
        allowTokenRefresh: resolveTokenRefresh({ config, refreshTokenFlag: options.refreshToken }),
        ...(purpose === 'cost' && { cursorComOnly: 'cost' }),
      },
    ),
  );
  return {
    authEnv,
    baseUrl,
    accountLabel: credentials.accountLabel,
    manualOrigin: credentials.origin,
    peek: () => firstLocalSession(ladder),
    async run(perform) {
      const client = new CursorClient({ baseUrl, proxy, timer: io.timing.requestTimer });
      // No socket is opened until a method is called: a web-only run costs nothing here.
      const api2 = new Api2Client({ baseUrl: api2BaseUrl, proxy, timer: io.timing.requestTimer });
      try {
        return await withSession(
          { ladder, log, noSessionHint: noSessionHint(options.sourceMode, configShown), purpose },
          (session) => perform(client, session, api2),
        );
      } finally {
        await Promise.all([client.close(), api2.close()]);
      }
    },
  };
}

/**
 * What the ladder's own api2 requests (the opt-in refresh, the API-key exchange) use: this run's base URL,
 * proxy and timer. Their one warning (a rotated refresh token) is shown on stderr even without `--verbose`,
 * once a run, and never with `--json-only`.
 */
function api2Access(io: CliIo, options: SharedOptions, baseUrl: string, proxy: ProxySettings): Api2Access {
  const warned = new Set<string>();
  return {
    baseUrl,
    proxy,
    timer: io.timing.requestTimer,
    timeoutMs: io.timing.requestTimeoutMs,
    warn: (line) => {
      if (warned.has(line) || options.jsonOnly) return;
      warned.add(line);
      io.stderr.write(`Warning: ${safeText(redact(line))}\n`);
    },
  };
}

/** Each source is read at most once, however often the ladder is walked; so is its refresh. */
function readOnce(ladder: SourceLoader[]): SourceLoader[] {
  return ladder.map((source) => {
    let result: Promise<SourceResult> | undefined;
    let refreshed: Promise<SourceResult> | undefined;
    const once: SourceLoader = { ...source, load: () => (result ??= source.load()) };
    const { refresh } = source;
    if (refresh !== undefined) once.refresh = () => (refreshed ??= refresh());
    return once;
  });
}

async function firstLocalSession(
  ladder: readonly SourceLoader[],
): Promise<{ session: Session; lines: string[] } | undefined> {
  const lines: string[] = [];
  for (const source of ladder) {
    // A rung that would send a request (the API-key exchange, a refresh) cannot be looked at locally.
    if (source.remote) return undefined;
    const result = await source.load();
    if (result.kind === 'skip' && result.cause === 'expired' && source.refresh) return undefined;
    for (const note of result.notes ?? []) lines.push(`[cursor] ${note}`);
    if (result.kind === 'session') {
      lines.push(`[cursor] Using ${result.session.description}`);
      return { session: result.session, lines };
    }
    lines.push(`[cursor] Skipped ${source.name}: ${result.reason}`);
  }
  return undefined;
}

function noSessionHint(mode: SourceMode, configShown: string): string {
  if (mode === 'rpc') {
    return '--source rpc needs an access token, which a cookie is not: sign in to the Cursor app, or run `cursor-agent login` on this machine, or set CURSOR_API_KEY to a Cursor user API key (crsr_…).';
  }
  const cookie = `paste a Cookie header copied from cursor.com as "cookieHeader" in ${configShown} (or pass --cookie / set CODEXBAR_CURSOR_COOKIE)`;
  if (mode === 'web')
    return `--source web uses cookies only: sign in to cursor.com in a browser, or ${cookie}.`;
  return `Sign in to cursor.com in a browser or to the Cursor app, or run \`cursor-agent login\` on this machine, or ${cookie}.`;
}
