import { accountKey } from '../../src/cache/account-key.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount, summaryWithPercent } from './accounts.js';
import { makeToken, type TestToken, writeConfig } from './home.js';
import type { Scene } from './scene.js';

/** One token account of a test config: its label, the real token behind it and the fake account it maps to. */
export interface TestTokenAccount {
  label: string;
  token: TestToken;
  /** `WorkosCursorSessionToken=<userId>%3A%3A<jwt>`: what the config stores and the CLI sends. */
  cookieHeader: string;
}

export async function makeTokenAccounts(labels: readonly string[]): Promise<TestTokenAccount[]> {
  return Promise.all(
    labels.map(async (label, index) => {
      const token = await makeToken(`user_${index}_${label.replace(/\W/g, '')}`, {
        email: `${label}@example.com`,
      });
      return { label, token, cookieHeader: `WorkosCursorSessionToken=${token.cookieValue}` };
    }),
  );
}

/** The config file entry CodexBar writes for these accounts. */
function tokenAccountEntries(accounts: readonly TestTokenAccount[]): unknown[] {
  return accounts.map((account, index) => ({
    id: `00000000-0000-4000-8000-00000000000${index}`,
    label: account.label,
    token: account.cookieHeader,
    addedAt: 1_735_123_456 + index,
    lastUsed: null,
  }));
}

/** A config file whose Cursor entry holds these token-account entries, as they stand in the file. */
export function configWithAccountEntries(
  entries: readonly unknown[],
  options: { activeIndex?: number; cursor?: Record<string, unknown> } = {},
): unknown {
  return {
    version: 1,
    providers: [
      {
        id: 'cursor',
        ...options.cursor,
        tokenAccounts: { version: 1, activeIndex: options.activeIndex ?? 0, accounts: entries },
      },
    ],
  };
}

/** The config file holding the accounts in its Cursor entry. */
export function tokenAccountsConfig(
  accounts: readonly TestTokenAccount[],
  options: { activeIndex?: number; cursor?: Record<string, unknown> } = {},
): unknown {
  return configWithAccountEntries(tokenAccountEntries(accounts), options);
}

/** Writes `~/.config/codexbar/config.json` holding the accounts; returns its path. */
export function writeTokenAccountsConfig(
  home: string,
  accounts: readonly TestTokenAccount[],
  options: { activeIndex?: number; cursor?: Record<string, unknown> } = {},
): string {
  return writeConfig(home, tokenAccountsConfig(accounts, options));
}

/** A fake Pro account answering for this token account, with its own email. */
export function fakeFor(account: TestTokenAccount, overrides: Partial<FakeAccount> = {}): FakeAccount {
  return proAccount([account.token.cookieValue], `${account.label}@example.com`, overrides);
}

/**
 * Three token accounts in config order, `work` (45 % used),
 * `broken` (cursor.com rejects it: 401) and `personal` (92 % used), `work` active. Returns them.
 */
export async function serveWorkBrokenPersonal(scene: Scene): Promise<TestTokenAccount[]> {
  const accounts = await makeTokenAccounts(['work', 'broken', 'personal']);
  writeTokenAccountsConfig(scene.home, accounts);
  await scene.serve([
    fakeFor(accounts[0]!),
    fakeFor(accounts[1]!, { usageSummary: { status: 401, json: {} } }),
    fakeFor(accounts[2]!, { usageSummary: summaryWithPercent(92) }),
  ]);
  return accounts;
}

/**
 * The cache key of a test token account's snapshot
 * (docs/invariants.md, "Keyed by account, never by credential").
 */
export function tokenAccountKey(account: TestTokenAccount): string {
  return accountKey({ userId: account.token.userId, label: account.label });
}

const CONFLICT = '--all-accounts cannot be combined with --account or --account-index.';
const BAD_INDEX = '--account-index must be a positive integer.';

/** The account flags' argument errors, with the sentence each gives. */
export const ACCOUNT_FLAG_ERRORS: Array<[string[], string]> = [
  [['--all-accounts', '--account', 'work'], CONFLICT],
  [['--account-index', '2', '--all-accounts'], CONFLICT],
  [['--account-index', '0'], BAD_INDEX],
  [['--account-index', '-1'], BAD_INDEX],
  [['--account-index', 'x'], BAD_INDEX],
];

/**
 * The selections that fail once the config is read, with how many accounts the
 * config holds (0, or serveWorkBrokenPersonal's 3) and the sentence.
 */
export const ACCOUNT_SELECTION_ERRORS: Array<[string[], number, string]> = [
  [['--account', 'work'], 0, 'No token accounts configured for cursor.'],
  [['--all-accounts'], 0, 'No token accounts configured for cursor.'],
  [['--account', 'nope'], 3, "No token account labeled 'nope' for cursor."],
  [['--account-index', '4'], 3, 'Token account index 4 out of range for cursor (1-3).'],
];
