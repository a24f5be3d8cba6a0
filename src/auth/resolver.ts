import { NoSessionError, NotLoggedInError } from '../errors.js';
import { registerSecret } from '../lib/redact.js';
import type { Platform } from '../local/environment.js';
import type { AuthSourceId, Session, SourceResult } from './types.js';

/** One rung of the ladder: loads lazily, so a source is only read when the ones before it failed. */
export interface SourceLoader {
  id: AuthSourceId;
  /** Short name for messages, e.g. `cached cookie`. */
  name: string;
  load: () => Promise<SourceResult>;
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
      ? ['manual', 'app', 'cached', 'browser', 'stored', 'agent']
      : ['manual', 'cached', 'stored', 'app', 'agent', 'browser'];
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

  for (const source of options.ladder) {
    let result: SourceResult | undefined = await source.load();
    while (result !== undefined) {
      for (const note of result.notes ?? []) log(`[cursor] ${note}`);
      if (result.kind === 'skip') {
        log(`[cursor] Skipped ${source.name}: ${result.reason}`);
        looked.push(`${source.name} (${result.reason})`);
        if (result.hint) hints.push(result.hint);
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
        const then = next ? `trying the next ${source.name}` : 'trying the next source';
        const name = source.name.charAt(0).toUpperCase() + source.name.slice(1);
        log(`[cursor] ${name} was rejected (HTTP ${error.status}); ${then}`);
        looked.push(`${source.name} (rejected by cursor.com with HTTP ${error.status})`);
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
  throw new NoSessionError(`No Cursor session found. Looked at: ${looked.join('; ')}.`, hint);
}
