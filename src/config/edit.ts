import type { ConfigObject } from './write.js';

/**
 * Changes to the config object that `login`, `logout` and `config enable|disable` make. They change only the
 * keys they own, in place, and keep every other key, provider and account as it is. The object has passed the
 * config schema.
 */

type Entry = Record<string, unknown>;

interface StoredAccount extends Entry {
  id: string;
  label: string;
  token: string;
  addedAt: number;
}

interface TokenAccounts extends Entry {
  version: number;
  activeIndex: number;
  accounts: StoredAccount[];
}

/** A new file: what CodexBar itself would accept (version 1, a providers array). */
export function newConfig(): ConfigObject {
  return { version: 1, providers: [] };
}

/** The first entry with `fresh`'s id (later duplicates are ignored, as on reading), else `fresh`, appended. */
function providerEntry(config: ConfigObject, fresh: Entry): Entry {
  const providers = config.providers as Entry[];
  const found = providers.find((entry) => entry.id === fresh.id);
  if (found) return found;
  providers.push(fresh);
  return fresh;
}

export function setProviderEnabled(config: ConfigObject, id: string, enabled: boolean): void {
  providerEntry(config, { id }).enabled = enabled;
}

export interface NewAccount {
  label: string;
  /** The normalised Cookie header. */
  token: string;
  /** Epoch seconds. */
  addedAt: number;
  /** A fresh UUID for a new account. */
  id: string;
}

export interface UpsertResult {
  /** The label as stored. */
  label: string;
  /** An account with this label (trimmed, any case) existed and got the new token. */
  replaced: boolean;
  /** The account is the active one now. */
  active: boolean;
}

/**
 * Stores a token account in the Cursor entry (created, enabled, when missing): an account with the same label
 * gets the new token and keeps its id; otherwise the account is appended. `activate` makes it the active one;
 * otherwise the active account stays the active account.
 */
export function upsertTokenAccount(
  config: ConfigObject,
  account: NewAccount,
  activate: boolean,
): UpsertResult {
  const entry = providerEntry(config, { id: 'cursor', enabled: true });
  entry.tokenAccounts ??= { version: 1, activeIndex: 0, accounts: [] };
  const accounts = entry.tokenAccounts as TokenAccounts;
  const wanted = account.label.trim().toLowerCase();
  let index = accounts.accounts.findIndex((stored) => stored.label.trim().toLowerCase() === wanted);
  const replaced = index !== -1;
  if (replaced) {
    accounts.accounts[index]!.token = account.token;
  } else {
    accounts.accounts.push({ ...account });
    index = accounts.accounts.length - 1;
  }
  if (activate) accounts.activeIndex = index;
  return { label: accounts.accounts[index]!.label, replaced, active: clampedActive(accounts) === index };
}

export type RemoveTarget = { kind: 'label'; label: string } | { kind: 'active' } | { kind: 'all' };

export interface RemoveResult {
  removed: string[];
  /** The label of the account that is active afterwards. */
  active?: string;
  remaining: number;
}

/**
 * Removes token accounts from the Cursor entry. The active account stays active when it is kept; when it is
 * removed, the one now at its position (or the last) becomes active. Returns no `removed` when nothing matched.
 */
export function removeTokenAccounts(config: ConfigObject, target: RemoveTarget): RemoveResult {
  const entry = (config.providers as Entry[]).find((provider) => provider.id === 'cursor');
  const data = entry?.tokenAccounts as TokenAccounts | null | undefined;
  if (!data || data.accounts.length === 0) return { removed: [], remaining: 0 };
  const activeBefore = clampedActive(data);
  const activeAccount = data.accounts[activeBefore];
  let doomed: number[];
  if (target.kind === 'all') doomed = data.accounts.map((_, index) => index);
  else if (target.kind === 'active') doomed = [activeBefore];
  else {
    const wanted = target.label.trim().toLowerCase();
    const index = data.accounts.findIndex((stored) => stored.label.trim().toLowerCase() === wanted);
    doomed = index === -1 ? [] : [index];
  }
  if (doomed.length === 0) return { removed: [], remaining: data.accounts.length };
  const removed = doomed.map((index) => data.accounts[index]!.label);
  data.accounts = data.accounts.filter((_, index) => !doomed.includes(index));
  const keptActive = activeAccount ? data.accounts.indexOf(activeAccount) : -1;
  data.activeIndex =
    keptActive !== -1 ? keptActive : Math.max(0, Math.min(activeBefore, data.accounts.length - 1));
  const active = data.accounts[data.activeIndex]?.label;
  return { removed, remaining: data.accounts.length, ...(active === undefined ? {} : { active }) };
}

function clampedActive(data: TokenAccounts): number {
  return Math.min(Math.max(data.activeIndex, 0), Math.max(data.accounts.length - 1, 0));
}
