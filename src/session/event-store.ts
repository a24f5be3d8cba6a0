import type { Session } from '../auth/types.js';
import { sessionAccountKey } from '../cache/session-account.js';
import { openEventStore, type StoreOwner } from '../cost/store/event-store.js';
import type { CostStoreUse } from '../cost/store/ranged-collect.js';
import { costStorePath, ensureStoreDir } from '../cost/store/store-files.js';
import type { LocalEnvironment } from '../local/environment.js';
import { displayPath } from '../local/paths.js';

/** Whose session a run got, besides the session itself (never a credential). */
interface SessionAccount {
  /** The token-account label, when a token account supplied the header. */
  label?: string;
}

export interface StoreChoice {
  /** `--no-cache`: neither read nor write the store. */
  noCache: boolean;
  /** `--refresh`: fetch everything, then replace what the store held. */
  refresh: boolean;
}

/** Which store a run opens: its key (never a credential), whose it is, and the tag of its `--verbose` lines. */
export interface StoreTarget {
  key: string;
  owner: StoreOwner;
  tag: string;
}

/**
 * Runs `collect` with the event store of `target` open, or without one when the run asked for none or the
 * store cannot be opened: a store is a saving, never a reason for a run to fail
 * (docs/invariants.md, "When a stored range may be trusted").
 */
export async function withEventStore<T>(
  env: LocalEnvironment,
  choice: StoreChoice,
  target: StoreTarget,
  log: (line: string) => void,
  collect: (store: CostStoreUse | undefined) => Promise<T>,
): Promise<T> {
  if (choice.noCache) return collect(undefined);
  const { key, owner, tag } = target;
  let use: CostStoreUse;
  try {
    const file = costStorePath(ensureStoreDir(env), key);
    const shown = displayPath(file, env);
    const store = await openEventStore({ file, key, owner, tag, note: log, shown });
    log(`${tag} Event store: ${shown}${choice.refresh ? ' (--refresh: fetching everything)' : ''}`);
    use = { store, refresh: choice.refresh, log };
  } catch (error) {
    log(`${tag} No event store this run: ${error instanceof Error ? error.message : String(error)}`);
    return collect(undefined);
  }
  try {
    return await collect(use);
  } finally {
    use.store.close();
  }
}

/**
 * `cost`: the account's event store, keyed by the session's cursor.com user and token-account label; none
 * when the session names no user.
 */
export function withCostStore<T>(
  env: LocalEnvironment,
  choice: StoreChoice,
  session: Session,
  account: SessionAccount,
  log: (line: string) => void,
  collect: (store: CostStoreUse | undefined) => Promise<T>,
): Promise<T> {
  if (choice.noCache) return collect(undefined);
  const key = sessionAccountKey(session, account.label);
  if (key === undefined) {
    log('[cursor-cost] No event store: the session does not name a cursor.com user');
    return collect(undefined);
  }
  return withEventStore(env, choice, { key, owner: 'account', tag: '[cursor-cost]' }, log, collect);
}
