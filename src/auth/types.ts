/** Shared shapes for credential sources and the resolver (contract.md §3, codexbar-core.md §1). */

export type Platform = 'linux' | 'darwin' | 'win32';

/** What the auth layer may look at. Injected so tests can pretend to be any OS. */
export interface AuthEnvironment {
  platform: Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The account's home directory (os.homedir()), used when HOME is unusable. */
  homeDir: string;
  now: () => Date;
}

export type AuthSourceId = 'manual' | 'cached' | 'stored' | 'app' | 'agent' | 'browser';

/** Identity decoded from a Cursor access token (codexbar-core.md §1.5). */
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
  /** Present when the session was derived from a JWT (app or agent token, or a parsable cookie). */
  jwt?: JwtIdentity;
  /**
   * No fallback after this one is rejected: a manual header, or a pinned (`stopFallback`) cached entry
   * (codexbar-core.md §1.7, §1.9).
   */
  final?: boolean;
}

/**
 * Why a source gave no session, for callers that branch on it (e.g. codexbar-core.md §1.9 step 2b on macOS:
 * an expired token still in the app database wins over a persisted copy).
 */
export type SkipCause = 'absent' | 'unreadable' | 'malformed' | 'expired' | 'not-applicable';

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
