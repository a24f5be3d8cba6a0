/** Shared shapes for credential sources and the resolver. */

export type AuthSourceId = 'manual' | 'cached' | 'stored' | 'app' | 'agent' | 'browser' | 'apikey';

/** Identity decoded from a Cursor access token. */
export interface JwtIdentity {
  /** The last non-empty `|` segment of `sub`, case kept: the cookie's user id. */
  userId: string;
  /** Raw `sub` claim. */
  subject: string;
  email?: string;
  expiresAt: Date;
}

/** A credential ready to be sent to cursor.com. Never print `cookieHeader`. */
export interface Session {
  source: AuthSourceId;
  /** What `--verbose` prints, e.g. `Cursor app token (~/.config/Cursor/User/globalStorage/state.vscdb)`. */
  description: string;
  cookieHeader: string;
  /**
   * The access token api2's Connect RPCs take as `Authorization: Bearer` (docs/api2.md): present for the
   * Cursor app's and cursor-agent's tokens (and the API-key source's exchanged token), never for a cookie.
   * Never print it; it is registered as a secret with the cookie header.
   */
  accessToken?: string;
  /** The session opens only api2's door (the API-key source): cursor.com is never asked with it. */
  rpcOnly?: boolean;
  /** Present when the session was derived from a JWT (app or agent token, or a parsable cookie). */
  jwt?: JwtIdentity;
  /**
   * No fallback after this one is rejected: a manual header, or a pinned (`stopFallback`) cached entry
   * (docs/invariants.md, "Only a rejection switches credentials").
   */
  final?: boolean;
  /**
   * A browser session: the fingerprints of every file the browser walk consulted to reach it, each taken
   * before it was read. Absent when a profile before it was passed over for a reason no file shows. The
   * statusline fast path vouches for the session only while they all match (src/statusline/account-record.ts).
   */
  cookieFiles?: Record<string, string>;
  /** A browser session: when its cookie expires in the browser's store (none: when the browser closes). */
  cookieExpiresAt?: Date;
}

/**
 * Why a source gave no session, for callers that branch on it (e.g. an expired token rather than a missing
 * one). `no-desktop-session`: a browser's cookies need the keyring, which no D-Bus session bus reaches here.
 */
export type SkipCause =
  | 'absent'
  | 'unreadable'
  | 'malformed'
  | 'expired'
  | 'not-applicable'
  | 'no-desktop-session';

/**
 * One source's answer: a session, or why it was skipped (for `--verbose`). Only `session.cookieHeader` holds
 * a credential. `notes` are `--verbose` lines printed before it (e.g. each browser profile passed over); `next`
 * resumes a source that has more than one candidate (browser profiles) after this session is rejected.
 */
export type SourceResult =
  | {
      kind: 'session';
      session: Session;
      notes?: readonly string[];
      next?: () => Promise<SourceResult>;
    }
  | { kind: 'skip'; reason: string; cause?: SkipCause; hint?: string; notes?: readonly string[] };

/** A source's skip: why, for callers that branch on it, and a hint only when there is one. */
export function skipped(cause: SkipCause, reason: string, hint?: string): SourceResult {
  return hint ? { kind: 'skip', cause, reason, hint } : { kind: 'skip', cause, reason };
}
