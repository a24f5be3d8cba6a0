import { describe, expect, it } from 'vitest';
import { resolveCursorCredentialsConfig } from '../../src/auth/credentials.js';
import type { CursorConfig, LoadedConfig } from '../../src/config/config.js';

function config(cursor: CursorConfig): LoadedConfig {
  return { path: '/home/me/.config/codexbar/config.json', exists: true, cursor };
}

function accounts(activeIndex: number, tokens: string[]): CursorConfig['tokenAccounts'] {
  return {
    version: 1,
    activeIndex,
    accounts: tokens.map((token, index) => ({
      id: `id-${index}`,
      label: `acct${index}`,
      token,
      addedAt: 1735123456,
    })),
  };
}

describe('Cursor credential precedence', () => {
  const cases: Array<{
    rule: string;
    cursor: CursorConfig;
    cookieFlag?: string;
    cookieEnv?: string;
    expected: object;
  }> = [
    { rule: 'nothing configured is auto', cursor: {}, expected: { cookieSource: 'auto' } },
    {
      rule: "the config's cookieHeader is normalised: a leading Cookie: is stripped",
      cursor: { cookieHeader: 'Cookie: cfg=1' },
      expected: { cookieSource: 'manual', manualHeader: 'cfg=1', origin: 'config file' },
    },
    {
      rule: "the config's cookieHeader is normalised: a pasted curl fragment is reduced to the cookie",
      cursor: { cookieHeader: "curl URL -H 'Cookie: cfg=1'" },
      expected: { cookieSource: 'manual', manualHeader: 'cfg=1', origin: 'config file' },
    },
    {
      rule: 'a config cookieHeader that normalises to nothing does not select manual',
      cursor: { cookieHeader: 'Cookie:' },
      expected: { cookieSource: 'auto' },
    },
    {
      rule: '--cookie beats the environment and the config',
      cursor: { cookieSource: 'off', cookieHeader: 'cfg=1', tokenAccounts: accounts(0, ['acct=1']) },
      cookieFlag: "curl URL -H 'Cookie: flag=1'",
      cookieEnv: 'env=1',
      expected: { cookieSource: 'manual', manualHeader: 'flag=1', origin: '--cookie' },
    },
    {
      rule: 'CODEXBAR_CURSOR_COOKIE beats the config',
      cursor: { cookieSource: 'auto', tokenAccounts: accounts(0, ['acct=1']) },
      cookieEnv: ' Cookie: env=1 ',
      expected: { cookieSource: 'manual', manualHeader: 'env=1', origin: 'CODEXBAR_CURSOR_COOKIE' },
    },
    {
      rule: 'a blank CODEXBAR_CURSOR_COOKIE counts as unset',
      cursor: { cookieHeader: 'cfg=1' },
      cookieEnv: '  ',
      expected: { cookieSource: 'manual', manualHeader: 'cfg=1', origin: 'config file' },
    },
    {
      rule: 'an empty --cookie still selects manual (with no header, so the caller refuses it)',
      cursor: { cookieHeader: 'cfg=1' },
      cookieFlag: '  ',
      expected: { cookieSource: 'manual', origin: '--cookie' },
    },
    {
      rule: 'a token account forces manual with the account at activeIndex',
      cursor: { cookieSource: 'auto', tokenAccounts: accounts(1, ['a=0', ' "Cookie: a=1" ']) },
      expected: {
        cookieSource: 'manual',
        manualHeader: 'a=1',
        origin: 'token account',
        accountLabel: 'acct1',
      },
    },
    {
      rule: 'activeIndex past the end is clamped to the last account',
      cursor: { tokenAccounts: accounts(9, ['a=0', 'a=1']) },
      expected: {
        cookieSource: 'manual',
        manualHeader: 'a=1',
        origin: 'token account',
        accountLabel: 'acct1',
      },
    },
    {
      rule: 'a negative activeIndex is clamped to the first account',
      cursor: { tokenAccounts: accounts(-3, ['a=0', 'a=1']) },
      expected: {
        cookieSource: 'manual',
        manualHeader: 'a=0',
        origin: 'token account',
        accountLabel: 'acct0',
      },
    },
    {
      rule: 'an empty account list does not force manual',
      cursor: { tokenAccounts: accounts(0, []) },
      expected: { cookieSource: 'auto' },
    },
    {
      rule: 'the config cookieSource is used when set (off)',
      cursor: { cookieSource: 'off', cookieHeader: 'cfg=1' },
      expected: { cookieSource: 'off' },
    },
    {
      rule: 'an explicit auto ignores a saved cookieHeader',
      cursor: { cookieSource: 'auto', cookieHeader: 'cfg=1' },
      expected: { cookieSource: 'auto' },
    },
    {
      rule: 'manual with an empty header has no header',
      cursor: { cookieSource: 'manual' },
      expected: { cookieSource: 'manual', origin: 'config file' },
    },
    {
      rule: 'without cookieSource, a non-empty cookieHeader means manual',
      cursor: { cookieHeader: 'cfg=1' },
      expected: { cookieSource: 'manual', manualHeader: 'cfg=1', origin: 'config file' },
    },
  ];
  it.each(cases)('$rule', ({ cursor, cookieFlag, cookieEnv, expected }) => {
    expect(resolveCursorCredentialsConfig({ config: config(cursor), cookieFlag, cookieEnv })).toEqual(
      expected,
    );
  });
});
