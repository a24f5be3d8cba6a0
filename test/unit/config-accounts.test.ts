import { describe, expect, it } from 'vitest';
import { checkAccountFlags, parseAccountIndex, selectAccounts } from '../../src/config/accounts.js';
import type { CursorConfig } from '../../src/config/config.js';
import { AccountSelectionError, ArgumentError } from '../../src/errors.js';

const cursor = (labels: string[], activeIndex = 0): CursorConfig => ({
  tokenAccounts: {
    version: 1,
    activeIndex,
    accounts: labels.map((label, index) => ({
      id: `id-${index}`,
      label,
      token: `token-${index}`,
      addedAt: 1,
    })),
  },
});

const labels = (config: CursorConfig, flags: Parameters<typeof selectAccounts>[1], manualOverride = false) =>
  selectAccounts(config, flags, { manualOverride }).map((account) => account.label);

describe('selectAccounts', () => {
  it('no accounts and no flags: nothing selected, the ordinary ladder runs', () => {
    expect(labels({}, {})).toEqual([]);
  });

  it('the active account by default, clamped; a manual header override selects nothing', () => {
    expect(labels(cursor(['a', 'b'], 1), {})).toEqual(['b']);
    expect(labels(cursor(['a', 'b'], -3), {})).toEqual(['a']);
    expect(labels(cursor(['a', 'b'], 1), {}, true)).toEqual([]);
    expect(labels(cursor(['a', 'b'], 1), { account: 'a' }, true)).toEqual(['a']);
  });

  it('keeps index, id and token of the chosen account', () => {
    expect(selectAccounts(cursor(['a', 'b']), { accountIndex: 2 })).toEqual([
      { index: 1, id: 'id-1', label: 'b', token: 'token-1' },
    ]);
  });

  it('a blank --account falls back to the active account, as CodexBar does', () => {
    expect(labels(cursor(['a', 'b'], 1), { account: '   ' })).toEqual(['b']);
  });

  it('labels are compared trimmed on both sides and case-insensitively', () => {
    expect(labels(cursor(['  Work ', 'home']), { account: 'WORK' })).toEqual(['  Work ']);
  });

  it('--all-accounts with --account or --account-index is an argument error; each alone is not', () => {
    expect(() => checkAccountFlags({ allAccounts: true, accountIndex: 1 })).toThrow(ArgumentError);
    expect(() => checkAccountFlags({ allAccounts: true, account: '' })).toThrow(ArgumentError);
    for (const flags of [{ allAccounts: true }, { account: 'a', accountIndex: 2 }, {}]) {
      expect(() => checkAccountFlags(flags)).not.toThrow();
    }
  });

  it('selection failures are AccountSelectionError (provider rows)', () => {
    expect(() => selectAccounts({}, { allAccounts: true })).toThrow(AccountSelectionError);
    expect(() => selectAccounts(cursor(['a']), { accountIndex: 2 })).toThrow(
      'Token account index 2 out of range for cursor (1-1).',
    );
  });
});

describe('parseAccountIndex', () => {
  it.each([
    ['1', 1],
    [' 12 ', 12],
    ['+3', 3],
    ['0', undefined],
    ['-1', undefined],
    ['1.0', undefined],
    ['x', undefined],
    ['', undefined],
    ['99999999999999999999', undefined],
  ])('%j → %j', (value, expected) => {
    expect(parseAccountIndex(value)).toBe(expected);
  });
});
