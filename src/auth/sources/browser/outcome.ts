/**
 * Why a browser, profile or cookie was passed over. Reasons name files, browsers and commands, never a cookie
 * value, key or password (docs/invariants.md, "Never a credential shown").
 */
export type SkipKind =
  | 'not-installed'
  | 'no-profile'
  | 'over-limit'
  | 'unreadable'
  | 'corrupt'
  | 'locked'
  | 'no-cookie'
  | 'expired'
  | 'missing-local-state'
  | 'key-unavailable'
  | 'no-desktop-session'
  | 'consent-needed'
  | 'app-bound'
  | 'undecryptable';

export interface BrowserSkip {
  kind: SkipKind;
  reason: string;
  /** What the user can do about it; shown once with the "no session" error. */
  hint?: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; skip: BrowserSkip };

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function skip(kind: SkipKind, reason: string, hint?: string): { ok: false; skip: BrowserSkip } {
  return { ok: false, skip: hint === undefined ? { kind, reason } : { kind, reason, hint } };
}
