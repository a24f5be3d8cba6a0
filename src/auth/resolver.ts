import { ApiError, NoSessionError, NotLoggedInError } from '../errors.js';
import { registerSecret } from '../lib/redact.js';
import type { Platform } from '../local/environment.js';
import type { AuthSourceId, Session, SourceResult } from './types.js';

/** One rung of the ladder: loads lazily, so a source is only read when the ones before it failed. */
export interface SourceLoader {
  id: AuthSourceId;
  /** Short name for messages, e.g. `cached cookie`. */
  name: string;
  load: () => Promise<SourceResult>;
  /**
   * Loading sends a request (the API-key exchange): a local look at the ladder, which must send nothing,
   * stops before it.
   */
  remote?: boolean;
  /**
   * Present only with the opt-in (`--refresh-token`, `"allowTokenRefresh": true`; docs/api2.md, "Token
   * refresh (opt-in)"): a session from the source's refresh token, asked for once when its access token has
   * expired or was rejected. It throws "not logged in" when Cursor refuses.
   */
  refresh?: () => Promise<SourceResult>;
}

/** `auto` (either door), `web` (cookies, cursor.com only) or `rpc` (Bearer tokens, api2 only). */
export type SourceMode = 'auto' | 'web' | 'rpc';

/** The sources whose session carries an access token api2 accepts (docs/api2.md). */
const BEARER_SOURCES: readonly AuthSourceId[] = ['app', 'agent', 'apikey'];

/**
 * The automatic order per platform; browser import sits between the cached and stored cookies on macOS and
 * comes last elsewhere. `web` keeps only the cookie ladder, `rpc` only the sources with a Bearer token.
 */
export function sourceOrder(platform: Platform, mode: SourceMode): AuthSourceId[] {
  const auto: AuthSourceId[] =
    platform === 'darwin'
      ? ['manual', 'app', 'cached', 'browser', 'stored', 'agent', 'apikey']
      : ['manual', 'cached', 'stored', 'app', 'agent', 'browser', 'apikey'];
  if (mode === 'web') return auto.filter((id) => !BEARER_SOURCES.includes(id));
  if (mode === 'rpc') return ['manual', ...auto.filter((id) => BEARER_SOURCES.includes(id))];
  return auto;
}

export interface ResolveOptions {
  ladder: readonly SourceLoader[];
  /** Verbose sink for `[cursor] …` lines; never receives a credential. */
  log?: (line: string) => void;
  /** Appended to the "nothing found" error so the user knows how to fix it. */
  noSessionHint: string;
  /** What the run reads (`usage`), for the error when api2 refuses an exchanged API-key token. */
  purpose?: string;
}

export interface Resolved<T> {
  value: T;
  session: Session;
}

/**
 * Walks the ladder and runs `perform` with the first usable session.
 * docs/invariants.md, "Only a rejection switches credentials": only "not logged in" moves on to the next
 * source; a manual header or a pinned cached entry is final, and every other error (timeouts, 5xx, parse
 * errors) ends the run without trying another account.
 */
export async function withSession<T>(
  options: ResolveOptions,
  perform: (session: Session) => Promise<T>,
): Promise<Resolved<T>> {
  const log = options.log ?? (() => {});
  const looked: string[] = [];
  const hints: string[] = [];
  let rejected: NotLoggedInError | undefined;
  let desktopless = false;

  for (const source of options.ladder) {
    const name = source.name.charAt(0).toUpperCase() + source.name.slice(1);
    // A source's refresh is asked for at most once a run: for an expired token, or after one rejection.
    let refresh = source.refresh;
    /** The source's next answer; a refusal of the key exchange or the refresh is a rejection. */
    const attempt = async (get: () => Promise<SourceResult>): Promise<SourceResult | undefined> => {
      try {
        return await get();
      } catch (error) {
        if (!(error instanceof NotLoggedInError)) throw error;
        rejected = error;
        log(
          `[cursor] ${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}; trying the next source`,
        );
        looked.push(`${source.name} (${error.message})`);
        if (error.hint) hints.push(error.hint);
        return undefined;
      }
    };
    /** The source's one refresh, said in the verbose log with why it was needed. */
    const refreshOnce = (get: () => Promise<SourceResult>, why: string) => {
      refresh = undefined;
      log(`[cursor] ${name}${why}; refreshing it for this run (token refresh is opted in)`);
      return attempt(get);
    };
    let result: SourceResult | undefined = await attempt(source.load);
    if (result?.kind === 'skip' && result.cause === 'expired' && refresh !== undefined) {
      for (const note of result.notes ?? []) log(`[cursor] ${note}`);
      result = await refreshOnce(refresh, `: ${result.reason}`);
    }
    while (result !== undefined) {
      for (const note of result.notes ?? []) log(`[cursor] ${note}`);
      if (result.kind === 'skip') {
        log(`[cursor] Skipped ${source.name}: ${result.reason}`);
        looked.push(`${source.name} (${result.reason})`);
        if (result.hint) hints.push(result.hint);
        if (result.cause === 'no-desktop-session') desktopless = true;
        break;
      }
      const { session } = result;
      const next: (() => Promise<SourceResult>) | undefined = result.next;
      // docs/invariants.md, "Never a credential shown": known before its first request, so nothing a server
      // echoes back can print it.
      registerSecret(session.cookieHeader);
      if (session.accessToken !== undefined) registerSecret(session.accessToken);
      log(`[cursor] Using ${session.description}`);
      try {
        return { value: await perform(session), session };
      } catch (error) {
        if (session.source === 'apikey') throw apiKeyRefused(error, options.purpose ?? 'usage');
        if (!(error instanceof NotLoggedInError)) throw error;
        if (session.final) {
          throw new NotLoggedInError(
            error.endpoint,
            error.status,
            `Not logged in to Cursor: cursor.com rejected the ${session.description} (HTTP ${error.status}).`,
            'Copy a fresh Cookie header from a signed-in cursor.com tab; a manual header never falls back to other sources.',
          );
        }
        rejected = error;
        const door = error.endpoint.includes('/aiserver.') ? 'api2' : 'cursor.com';
        looked.push(`${source.name} (rejected by ${door} with HTTP ${error.status})`);
        if (refresh !== undefined) {
          result = await refreshOnce(refresh, ` was rejected (HTTP ${error.status})`);
          continue;
        }
        const then = next ? `trying the next ${source.name}` : 'trying the next source';
        log(`[cursor] ${name} was rejected (HTTP ${error.status}); ${then}`);
        result = next ? await next() : undefined;
      }
    }
  }

  const hint = [...hints, options.noSessionHint].join(' ');
  if (rejected) {
    throw new NotLoggedInError(
      rejected.endpoint,
      rejected.status,
      `Not logged in to Cursor: every session was rejected. Tried: ${looked.join('; ')}.`,
      hint,
    );
  }
  throw new NoSessionError(`No Cursor session found. Looked at: ${looked.join('; ')}.`, hint, desktopless);
}

/**
 * docs/api2.md, "API-key sign-in (CI)": whether api2's dashboard methods accept a token exchanged for a user
 * API key is unverified, so a refusal says exactly that and sends the user to the other ways to sign in.
 */
function apiKeyRefused(error: unknown, purpose: string): unknown {
  const refused = error instanceof NotLoggedInError || (error instanceof ApiError && error.status === 403);
  if (!refused) return error;
  return new NotLoggedInError(
    error.endpoint,
    error.status ?? 401,
    `api2 did not accept the access token exchanged for CURSOR_API_KEY for ${purpose} (HTTP ${error.status ?? 401}); that this works is unverified. Sign in another way: sign in to the Cursor app or run \`cursor-agent login\` on this machine, or set CODEXBAR_CURSOR_COOKIE to a Cookie header copied from a signed-in cursor.com tab.`,
  );
}
