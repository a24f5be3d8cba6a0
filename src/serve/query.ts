/**
 * Query parameters: `provider` for every data route, `detail` for the
 * snapshot, the token-account selection for `/usage`. Only the last value of a repeated parameter counts;
 * unknown parameters are ignored.
 */
import {
  ACCOUNT_INDEX_INVALID,
  type AccountFlags,
  checkAccountFlags,
  parseAccountIndex,
} from '../config/accounts.js';
import { messageFor } from '../errors.js';
import { badQuery, type ServeResponse } from './responses.js';

export type DetailLevel = 'full' | 'shell';

const CURSOR_ALIASES = new Set(['cursor', 'all', 'both']);

/** Every accepted value means Cursor, the one provider codexbar serves; the selection key is `cursor`. */
export function providerSelection(query: URLSearchParams): { provider: 'cursor' } | ServeResponse {
  const value = lastOf(query, 'provider');
  if (value === undefined || CURSOR_ALIASES.has(value.trim().toLowerCase())) return { provider: 'cursor' };
  return badQuery(`Unknown provider '${value}'.`);
}

export function detailLevel(query: URLSearchParams): { detail: DetailLevel } | ServeResponse {
  const value = lastOf(query, 'detail');
  if (value === undefined) return { detail: 'full' };
  const detail = value.trim().toLowerCase();
  if (detail === 'full' || detail === 'shell') return { detail };
  return badQuery(`Unknown detail '${value}'; use full or shell.`);
}

/**
 * `/usage`'s `account=<label>`, `accountIndex=<n>` (or `account-index`) and `allAccounts=1` (or
 * `all-accounts`), read as `usage`'s flags. A bad index or a conflict is 400 with the flag's sentence;
 * whether the account exists is decided once the config is loaded.
 */
export function accountSelection(query: URLSearchParams): { flags: AccountFlags } | ServeResponse {
  const flags: AccountFlags = {};
  const account = lastOf(query, 'account');
  if (account !== undefined) flags.account = account;
  const index = lastOf(query, 'accountIndex', 'account-index');
  if (index !== undefined) {
    flags.accountIndex = parseAccountIndex(index);
    if (flags.accountIndex === undefined) return badQuery(ACCOUNT_INDEX_INVALID);
  }
  const all = lastOf(query, 'allAccounts', 'all-accounts');
  if (all !== undefined) {
    const value = all.trim().toLowerCase();
    if (!ALL_ACCOUNTS_VALUES.has(value)) return badQuery(`Unknown allAccounts '${all}'; use 1 or 0.`);
    if (value === '1' || value === 'true' || value === '') flags.allAccounts = true;
  }
  try {
    checkAccountFlags(flags);
  } catch (error) {
    return badQuery(messageFor(error));
  }
  return { flags };
}

/** `allAccounts` is a switch: present with no value, `1` or `true` turn it on; `0` or `false` leave it off. */
const ALL_ACCOUNTS_VALUES = new Set(['', '1', 'true', '0', 'false']);

/** The last value of a parameter under any of its spellings (their values counted in the order given). */
function lastOf(query: URLSearchParams, ...names: string[]): string | undefined {
  let value: string | undefined;
  for (const [key, item] of query) if (names.includes(key)) value = item;
  return value;
}

export function isResponse(value: object): value is ServeResponse {
  return 'status' in value && 'body' in value;
}
