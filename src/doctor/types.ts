/** What `codexbar doctor` finds. Nothing here ever holds a credential. */

/** A thing that is wrong, and what to do about it. */
export interface Problem {
  problem: string;
  fix: string;
}

/** One credential source, in ladder order. */
export interface SourceFinding {
  id: string;
  name: string;
  /**
   * `used`: the session codexbar would use, accepted by cursor.com; `rejected`: cursor.com said "not logged
   * in"; `failed`: the check itself failed (network, timeout, server error); `found`: a session is there but was
   * not needed; `skipped`: nothing usable, with the reason.
   */
  state: 'used' | 'rejected' | 'failed' | 'found' | 'skipped';
  detail: string;
  /** Browsers and profiles passed over, one line each. */
  notes: string[];
}

export interface AccountFinding {
  label: string;
  active: boolean;
  state: 'accepted' | 'rejected' | 'failed' | 'empty';
  detail?: string;
}

/**
 * Whether one door answers with the session `usage` would use: `web` asks cursor.com's usage-summary with the
 * cookie, `rpc` asks api2's GetCurrentPeriodUsage with the access token (docs/api2.md).
 */
export interface DoorFinding {
  door: 'web' | 'rpc';
  state: 'answers' | 'rejected' | 'failed' | 'unchecked';
  detail: string;
}

export interface AuthReport {
  /** What decides the sources: `token account`, `CODEXBAR_CURSOR_COOKIE`, `config file`, or the automatic ladder. */
  mode: 'manual' | 'auto' | 'off';
  sources: SourceFinding[];
  accounts: AccountFinding[];
  /** Each door, checked with the first session that can open it. */
  doors?: DoorFinding[];
  problems: Problem[];
}

export interface EnvironmentReport {
  /** `endOfLife`: the date the running Node line stopped getting fixes, once it has. */
  node: { version: string; platform: string; arch: string; supported: boolean; endOfLife?: string };
  /** The SQLite engine in use; `reason` and `fix` say why better-sqlite3 is not (src/local/sqlite.ts). */
  sqlite: {
    engine: 'better-sqlite3' | 'node:sqlite' | 'none';
    version?: string;
    reason?: string;
    fix?: string;
  };
  config: {
    path: string;
    exists: boolean;
    issues: Array<{ severity: string; code: string; message: string }>;
  };
  cache: { path: string; state: string; ok: boolean };
  proxy: { variables: string[]; proxies: string[]; noProxy?: string };
  network: { url: string; reachable: boolean; detail: string };
  problems: Problem[];
}
