/**
 * `/usage?account=…`, `?accountIndex=…`, `?allAccounts=1`,
 * with `usage`'s selection rules and sentences, one cache entry per selection and last-good rows per account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeResponse, HandlerFunction } from '../fake-cursor/server.js';
import { summaryWithPercent } from '../helpers/accounts.js';
import { type ServeHarness, startServeHarness, USAGE_SUMMARY, writeJson } from '../helpers/serve.js';
import {
  fakeFor,
  makeTokenAccounts,
  type TestTokenAccount,
  tokenAccountsConfig,
} from '../helpers/token-accounts.js';

let serve: ServeHarness | undefined;
afterEach(async () => {
  await serve?.close();
  serve = undefined;
});

interface Row {
  provider: string;
  account?: string;
  usage?: { accountEmail?: string };
  error?: { message: string };
}

/** work (45 % used), broken (cursor.com rejects it) and personal (92 % used), work active. */
async function threeAccounts(
  personalSummary: FakeResponse | HandlerFunction = summaryWithPercent(92) as FakeResponse,
): Promise<{ harness: ServeHarness; accounts: TestTokenAccount[] }> {
  const accounts = await makeTokenAccounts(['work', 'broken', 'personal']);
  serve = await startServeHarness({
    accounts: [
      fakeFor(accounts[0]!),
      fakeFor(accounts[1]!, { usageSummary: { status: 401, json: {} } }),
      fakeFor(accounts[2]!, { usageSummary: personalSummary }),
    ],
    config: tokenAccountsConfig(accounts),
  });
  return { harness: serve, accounts };
}

/** `codexbar usage …` in the server's own environment (same HOME, clock and fake), whatever its exit code. */
async function cliStdout(harness: ServeHarness, argv: string[]): Promise<string> {
  return (await harness.run(argv)).stdout;
}

const rowsOf = (body: unknown) => body as Row[];

describe('the selection, answered exactly as `usage --json` answers it', () => {
  it.each([
    ['?allAccounts=1', ['--all-accounts']],
    ['?all-accounts=true&provider=cursor', ['--all-accounts']],
    ['?account=%20PERSONAL', ['--account', 'personal']],
    ['?accountIndex=2', ['--account-index', '2']],
    ['?account-index=3', ['--account-index', '3']],
    ['?allAccounts=0', []],
    ['', []],
  ])('/usage%s is `usage %j --json`', async (query, flags) => {
    const { harness } = await threeAccounts();
    const response = await harness.get(`/usage${query}`);
    expect(response.status).toBe(200);
    expect(`${response.body}\n`).toBe(await cliStdout(harness, ['usage', ...flags, '--json']));
  });

  it('all accounts: one row per account in config order, each with `account`; the failing one an error row', async () => {
    const { harness } = await threeAccounts();
    const rows = rowsOf((await harness.get('/usage?allAccounts=1')).json());
    expect(rows.map((row) => row.account)).toEqual(['work', 'broken', 'personal']);
    expect(rows[0]!.usage?.accountEmail).toBe('work@example.com');
    expect(rows[1]!.error?.message).toMatch(/^Not logged in to Cursor: cursor\.com rejected/);
    expect(rows[2]!.usage?.accountEmail).toBe('personal@example.com');
  });

  it('the default answer carries the active account, as `usage --json` does', async () => {
    const { harness } = await threeAccounts();
    expect(rowsOf((await harness.get('/usage')).json()).map((row) => row.account)).toEqual(['work']);
  });
});

describe('a bad selection is 400 with `usage`’s sentence', () => {
  const conflict = '--all-accounts cannot be combined with --account or --account-index.';
  const badIndex = '--account-index must be a positive integer.';
  it.each([
    ['allAccounts=1&account=work', 3, conflict],
    ['accountIndex=1&all-accounts', 3, conflict],
    ['accountIndex=0', 3, badIndex],
    ['account-index=1.5', 3, badIndex],
    ['accountIndex=x', 3, badIndex],
    ['account=nope', 3, "No token account labeled 'nope' for cursor."],
    ['accountIndex=5', 3, 'Token account index 5 out of range for cursor (1-3).'],
    ['account=work', 0, 'No token accounts configured for cursor.'],
    ['allAccounts=1', 0, 'No token accounts configured for cursor.'],
    ['allAccounts=maybe', 3, "Unknown allAccounts 'maybe'; use 1 or 0."],
  ])('?%s with %i accounts', async (query, count, message) => {
    const { harness } = await threeAccounts();
    if (count === 0) writeJson(harness.configPath, { version: 1, providers: [{ id: 'cursor' }] });
    const response = await harness.get(`/usage?${query}`);
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({ error: message });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(harness.count(USAGE_SUMMARY)).toBe(0);
  });

  it('an unknown provider is still refused first, and /cost ignores the account parameters', async () => {
    const { harness } = await threeAccounts();
    expect((await harness.get('/usage?provider=claude&account=nope')).json()).toEqual({
      error: "Unknown provider 'claude'.",
    });
    expect((await harness.get('/cost?account=nope')).status).toBe(200);
  });
});

describe('cached per selected account', () => {
  it('one entry per selection: a label and an index naming the same account share it, others do not', async () => {
    const { harness } = await threeAccounts();
    const state = async (query: string) => (await harness.get(`/usage${query}`)).headers['x-codexbar-cache'];

    expect(await state('?account=personal')).toBe('miss');
    expect(await state('?account=personal')).toBe('hit');
    expect(await state('?account=work')).toBe('miss');
    expect(await state('?accountIndex=3')).toBe('hit');
    // The default answer is the active account's (work): the same entry.
    expect(await state('')).toBe('hit');
    expect(harness.count(USAGE_SUMMARY)).toBe(2);
    const rows = rowsOf((await harness.get('/usage?accountIndex=3')).json());
    expect(rows.map((row) => row.account)).toEqual(['personal']);
  });

  it('all accounts: a failing account’s row falls back to its own last good row; the others stay live', async () => {
    const good = summaryWithPercent(92) as FakeResponse;
    const { harness } = await threeAccounts((_request, attempt) =>
      attempt === 0 ? good : { status: 500, json: { error: 'down' } },
    );
    const first = rowsOf((await harness.get('/usage?allAccounts=1')).json());
    harness.clock.advance(600);

    const later = await harness.get('/usage?allAccounts=1');
    const rows = rowsOf(later.json());
    expect(later.headers['x-codexbar-cache']).toBe('fallback');
    expect(rows[2]).toEqual(first[2]);
    expect(rows[1]!.error?.message).toMatch(/^Not logged in/);
    expect(rows[0]!.account).toBe('work');
  });
});
