import { describe, expect, it } from 'vitest';
import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { makeToken, writeConfig } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';
import {
  fakeFor,
  makeTokenAccounts,
  type TestTokenAccount,
  writeTokenAccountsConfig,
} from '../helpers/token-accounts.js';

const scene = useScene();

const serve = (accounts: FakeAccount[]) => scene.serve(accounts);

const cli = (args: string[], env: Record<string, string | undefined> = {}) => scene.run(args, { env });

/** Which token account's cookie reached usage-summary, in arrival order. */
function summaryCookies(server: FakeCursor): string[] {
  return server.requests.filter((r) => r.path === '/api/usage-summary').map((r) => r.headers.cookie ?? '');
}

interface Row {
  provider: string;
  account?: string;
  source: string;
  usage?: { accountEmail?: string; identity: Record<string, unknown> };
  error?: { code: number; message: string; kind: string };
}

async function threeAccounts(): Promise<TestTokenAccount[]> {
  const accounts = await makeTokenAccounts(['work', 'broken', 'personal']);
  writeTokenAccountsConfig(scene.home, accounts);
  // "broken" is rejected by cursor.com (401 on usage-summary): the other two still print.
  await serve([
    fakeFor(accounts[0]!),
    fakeFor(accounts[1]!, { usageSummary: { status: 401, json: {} } }),
    fakeFor(accounts[2]!),
  ]);
  return accounts;
}

describe('--all-accounts: one row per token account, one failing among three', () => {
  it('JSON: three rows in config order, each with its account; the failing one is an error row; exit 1', async () => {
    await threeAccounts();
    const result = await cli(['usage', '--all-accounts', '--json']);

    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout) as Row[];
    expect(rows.map((row) => row.account)).toEqual(['work', 'broken', 'personal']);
    expect(rows[0]!.usage?.accountEmail).toBe('work@example.com');
    expect(rows[2]!.usage?.accountEmail).toBe('personal@example.com');
    expect(rows[1]).toEqual({
      provider: 'cursor',
      account: 'broken',
      source: 'auto',
      error: {
        code: 1,
        message:
          'Not logged in to Cursor: cursor.com rejected the manual cookie header (config file, token account "broken") (HTTP 401).',
        kind: 'provider',
      },
    });
    // A token account's identity has no cursor.com user id.
    expect(rows[0]!.usage?.identity).not.toHaveProperty('accountID');
    expect(result.stderr).toBe('');
  });

  it('text: one section per account that worked, `Error (cursor - <label>): …` on stderr for the other', async () => {
    await threeAccounts();
    const result = await cli(['usage', '--all-accounts', '--no-color']);

    expect(result.code).toBe(1);
    const sections = result.stdout.trimEnd().split('\n\n');
    expect(sections).toHaveLength(2);
    expect(sections[0]).toMatch(/^== Cursor \(web\) ==\n/);
    expect(sections[0]).toContain('Account: work@example.com');
    expect(sections[1]).toContain('Account: personal@example.com');
    expect(result.stderr).toMatch(
      /^Error \(cursor - broken\): Not logged in to Cursor: cursor\.com rejected/,
    );
    expect(result.stderr).toContain('Hint: ');
  });

  it('fetches at most 4 accounts at a time, and 4 at once when there are more', async () => {
    const accounts = await makeTokenAccounts(['a', 'b', 'c', 'd', 'e', 'f']);
    writeTokenAccountsConfig(scene.home, accounts);
    // Each usage-summary is held until as many are in flight as the limit allows (so reaching 4 does not
    // depend on timing), then kept a little longer so that a fifth one, were it sent, would overlap.
    let inFlight = 0;
    let most = 0;
    let done = 0;
    const held: Array<() => void> = [];
    const releaseWhenFull = () => {
      if (inFlight >= Math.min(4, accounts.length - done)) for (const release of held.splice(0)) release();
    };
    const heldSummary = (account: TestTokenAccount): FakeAccount => {
      const base = fakeFor(account);
      const answer = base.usageSummary as { json: unknown };
      return {
        ...base,
        usageSummary: async () => {
          inFlight++;
          most = Math.max(most, inFlight);
          await new Promise<void>((resolve) => {
            held.push(resolve);
            releaseWhenFull();
          });
          await new Promise((resolve) => setTimeout(resolve, 20));
          inFlight--;
          done++;
          releaseWhenFull();
          return answer;
        },
      };
    };
    await serve(accounts.map(heldSummary));

    const result = await cli(['usage', '--all-accounts', '--json']);

    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Row[]).map((row) => row.account)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(most).toBe(4);
  });

  it('--verbose names the account on each auth line when several run at once', async () => {
    await threeAccounts();
    const result = await cli(['usage', '--all-accounts', '--json', '--verbose']);
    expect(result.stderr).toContain(
      '[cursor - work] Using manual cookie header (config file, token account "work")',
    );
    expect(result.stderr).toContain('[cursor - personal] Using manual cookie header');
  });
});

describe('choosing one token account', () => {
  async function twoAccounts(activeIndex = 0): Promise<TestTokenAccount[]> {
    const accounts = await makeTokenAccounts(['work', 'personal']);
    writeTokenAccountsConfig(scene.home, accounts, { activeIndex });
    await serve(accounts.map((account) => fakeFor(account)));
    return accounts;
  }

  it('by default the account at activeIndex is used, and its row carries the label', async () => {
    const accounts = await twoAccounts(1);
    const result = await cli(['usage', '--json']);
    expect(result.code).toBe(0);
    expect(summaryCookies(scene.fake!)).toEqual([accounts[1]!.cookieHeader]);
    expect((JSON.parse(result.stdout) as Row[])[0]!.account).toBe('personal');
  });

  it('an activeIndex past the end is clamped to the last account', async () => {
    const accounts = await twoAccounts(7);
    await cli(['usage', '--json']);
    expect(summaryCookies(scene.fake!)).toEqual([accounts[1]!.cookieHeader]);
  });

  it('--account matches the label trimmed and in any case', async () => {
    const accounts = await twoAccounts();
    const result = await cli(['usage', '--json', '--account', '  PERSONAL ']);
    expect(result.code).toBe(0);
    expect(summaryCookies(scene.fake!)).toEqual([accounts[1]!.cookieHeader]);
  });

  it('--account-index is 1-based', async () => {
    const accounts = await twoAccounts();
    await cli(['usage', '--json', '--account-index', '2']);
    expect(summaryCookies(scene.fake!)).toEqual([accounts[1]!.cookieHeader]);
  });

  it('--account wins over --account-index, as in CodexBar', async () => {
    const accounts = await twoAccounts();
    await cli(['usage', '--json', '--account', 'work', '--account-index', '2']);
    expect(summaryCookies(scene.fake!)).toEqual([accounts[0]!.cookieHeader]);
  });

  it('CODEXBAR_CURSOR_COOKIE beats the active account; an account flag beats the variable', async () => {
    const accounts = await twoAccounts();
    const other = await makeToken('env_user');
    scene.fake!.requests.length = 0;
    await scene.fake!.close();
    await serve([...accounts.map((account) => fakeFor(account)), proAccount([other.cookieValue])]);
    const envCookie = `WorkosCursorSessionToken=${other.cookieValue}`;

    const plain = await cli(['usage', '--json'], { CODEXBAR_CURSOR_COOKIE: envCookie });
    expect((JSON.parse(plain.stdout) as Row[])[0]).not.toHaveProperty('account');
    const chosen = await cli(['usage', '--json', '--account', 'personal'], {
      CODEXBAR_CURSOR_COOKIE: envCookie,
    });
    expect((JSON.parse(chosen.stdout) as Row[])[0]!.account).toBe('personal');
    expect(summaryCookies(scene.fake!)).toEqual([envCookie, accounts[1]!.cookieHeader]);
  });

  it('without an email from cursor.com, the label stands in for it (text and JSON)', async () => {
    const token = await makeToken('no_email_user');
    const account = { label: 'ci-bot', token, cookieHeader: `WorkosCursorSessionToken=${token.cookieValue}` };
    writeTokenAccountsConfig(scene.home, [account]);
    await serve([proAccount([token.cookieValue], 'x', { me: { json: {} } })]);

    const json = await cli(['usage', '--json']);
    const row = (JSON.parse(json.stdout) as Row[])[0]!;
    expect(row.usage?.accountEmail).toBe('ci-bot');
    expect(row.usage?.identity).toEqual({
      providerID: 'cursor',
      accountEmail: 'ci-bot',
      loginMethod: 'Cursor Pro',
    });
    const text = await cli(['usage', '--no-color']);
    expect(text.stdout).toContain('Account: ci-bot');
  });
});

describe('account selection errors, exactly as CodexBar words them', () => {
  const cases: Array<{ name: string; args: string[]; accounts: number; message: string; kind: string }> = [
    {
      name: '--all-accounts with --account',
      args: ['--all-accounts', '--account', 'work'],
      accounts: 2,
      message: '--all-accounts cannot be combined with --account or --account-index.',
      kind: 'args',
    },
    {
      name: '--all-accounts with --account-index',
      args: ['--account-index', '1', '--all-accounts'],
      accounts: 2,
      message: '--all-accounts cannot be combined with --account or --account-index.',
      kind: 'args',
    },
    {
      name: '--account-index 0',
      args: ['--account-index', '0'],
      accounts: 2,
      message: '--account-index must be a positive integer.',
      kind: 'args',
    },
    {
      name: '--account-index 1.5',
      args: ['--account-index', '1.5'],
      accounts: 2,
      message: '--account-index must be a positive integer.',
      kind: 'args',
    },
    {
      name: '--account with no accounts configured',
      args: ['--account', 'work'],
      accounts: 0,
      message: 'No token accounts configured for cursor.',
      kind: 'provider',
    },
    {
      name: '--all-accounts with no accounts configured',
      args: ['--all-accounts'],
      accounts: 0,
      message: 'No token accounts configured for cursor.',
      kind: 'provider',
    },
    {
      name: 'an unknown label',
      args: ['--account', 'nope'],
      accounts: 2,
      message: "No token account labeled 'nope' for cursor.",
      kind: 'provider',
    },
    {
      name: 'an index past the end',
      args: ['--account-index', '5'],
      accounts: 2,
      message: 'Token account index 5 out of range for cursor (1-2).',
      kind: 'provider',
    },
    {
      name: '--cookie with an account flag',
      args: ['--cookie', 'WorkosCursorSessionToken=x', '--account', 'work'],
      accounts: 2,
      message: '--cookie cannot be combined with --account, --account-index or --all-accounts.',
      kind: 'args',
    },
  ];

  for (const { name, args, accounts: count, message, kind } of cases) {
    it(`${name}: text and JSON, exit 1, no request sent`, async () => {
      const accounts = await makeTokenAccounts(['work', 'personal'].slice(0, count));
      if (count > 0) writeTokenAccountsConfig(scene.home, accounts);
      else writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor' }] });
      const server = await serve(accounts.map((account) => fakeFor(account)));

      for (const command of ['usage', 'cost']) {
        const text = await cli([command, ...args]);
        expect(text.code).toBe(1);
        expect(text.stdout).toBe('');
        expect(text.stderr.split('\n')[0]).toBe(`Error: ${message}`);

        const json = await cli([command, ...args, '--json']);
        expect(json.code).toBe(1);
        const row = JSON.parse(json.stdout)[0];
        if (command === 'usage') {
          expect(row).toEqual(
            kind === 'args'
              ? { provider: 'cli', source: 'cli', error: { code: 1, message, kind } }
              : { provider: 'cursor', source: 'auto', error: { code: 1, message, kind } },
          );
        } else {
          expect(row.error.message).toBe(message);
        }
      }
      expect(server.requests).toEqual([]);
    });
  }

  it('a provider-row selection error reports --source as given', async () => {
    writeConfig(scene.home, { version: 1, providers: [] });
    await serve([]);
    const result = await cli(['usage', '--account', 'x', '--source', 'web', '--json']);
    expect(JSON.parse(result.stdout)[0].source).toBe('web');
  });
});

describe('cost --all-accounts and --account', () => {
  const NOW = new Date('2026-07-20T15:00:00Z');
  const oneEvent = (cents: number) => ({
    events: [
      {
        timestamp: String(Date.parse('2026-07-20T12:00:00Z')),
        model: 'gpt-5',
        kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
        tokenUsage: { inputTokens: 1000, outputTokens: 100, totalCents: cents },
      },
    ],
  });

  async function costAccounts(): Promise<void> {
    const accounts = await makeTokenAccounts(['work', 'broken', 'personal']);
    writeTokenAccountsConfig(scene.home, accounts);
    await serve([
      { cookies: [accounts[0]!.token.cookieValue], events: oneEvent(125) },
      { cookies: [accounts[1]!.token.cookieValue], events: { status: 500, json: {} } },
      { cookies: [accounts[2]!.token.cookieValue], events: oneEvent(300) },
    ]);
  }

  const cost = (args: string[]) => scene.run(['cost', '--days', '1', ...args], { now: NOW, frozen: true });

  it('JSON: one cost row per account with `account`; the failing one is an error row; exit 1', async () => {
    await costAccounts();
    const result = await cost(['--all-accounts', '--json']);
    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout);
    expect(rows.map((row: { account: string }) => row.account)).toEqual(['work', 'broken', 'personal']);
    expect(rows[0].apiRateCostUSD).toBe(1.25);
    expect(rows[2].apiRateCostUSD).toBe(3);
    expect(rows[1].error.message).toMatch(/HTTP 500/);
    expect(rows[1].daily).toEqual([]);
  });

  it('text: each report names its account under the header; the failure is labelled on stderr', async () => {
    await costAccounts();
    const result = await cost(['--all-accounts', '--no-color']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Cursor Cost \(API-rate estimate\)\nAccount: work\nToday: \$1\.25/);
    expect(result.stdout).toContain('Cursor Cost (API-rate estimate)\nAccount: personal\nToday: $3.00');
    expect(result.stderr).toMatch(/^Error \(cursor - broken\): Cursor API error: HTTP 500/);
  });

  it('--account picks one account for cost', async () => {
    await costAccounts();
    const result = await cost(['--account', 'personal', '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account: 'personal', apiRateCostUSD: 3 });
  });
});
