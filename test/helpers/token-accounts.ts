import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from './accounts.js';
import { makeToken, type TestToken, writeConfig } from './home.js';

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

/** The config file entry CodexBar writes for these accounts (docs/behaviour.md §6.2). */
function tokenAccountsEntry(accounts: readonly TestTokenAccount[], activeIndex = 0): unknown {
  return {
    version: 1,
    activeIndex,
    accounts: accounts.map((account, index) => ({
      id: `00000000-0000-4000-8000-00000000000${index}`,
      label: account.label,
      token: account.cookieHeader,
      addedAt: 1_735_123_456 + index,
      lastUsed: null,
    })),
  };
}

/** Writes `~/.config/codexbar/config.json` holding the accounts; returns its path. */
export function writeTokenAccountsConfig(
  home: string,
  accounts: readonly TestTokenAccount[],
  options: { activeIndex?: number; cursor?: Record<string, unknown> } = {},
): string {
  return writeConfig(home, {
    version: 1,
    providers: [
      { id: 'cursor', ...options.cursor, tokenAccounts: tokenAccountsEntry(accounts, options.activeIndex) },
    ],
  });
}

/** A fake Pro account answering for this token account, with its own email. */
export function fakeFor(account: TestTokenAccount, overrides: Partial<FakeAccount> = {}): FakeAccount {
  return proAccount([account.token.cookieValue], `${account.label}@example.com`, overrides);
}
