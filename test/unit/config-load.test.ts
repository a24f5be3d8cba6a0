import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { ConfigError } from '../../src/errors.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { useScene } from '../helpers/scene.js';
import { useUnprivileged } from '../helpers/unprivileged.js';

const SECRET = 'WorkosCursorSessionToken=user_test%3A%3Asecret-cookie-value';
const scene = useScene();
const unprivileged = useUnprivileged();
let dir: string;
let file: string;

beforeEach(() => {
  dir = scene.home;
  file = path.join(dir, 'config.json');
});

function environment(): LocalEnvironment {
  return {
    platform: 'linux',
    env: { HOME: dir, CODEXBAR_CONFIG: file },
    homeDir: dir,
    now: () => new Date(),
  };
}

function write(content: unknown): void {
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

function cursorEntry(fields: Record<string, unknown>): unknown {
  return {
    version: 1,
    providers: [
      { id: 'codex', enabled: true },
      { id: 'cursor', ...fields },
    ],
  };
}

async function loadError(): Promise<ConfigError> {
  const error = await loadConfig(environment()).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('a missing file gives the defaults, not an error', async () => {
    expect(await loadConfig(environment())).toEqual({ path: file, exists: false, cursor: {}, proxy: {} });
  });

  it('reads the Cursor entry of the documented example, keeping unknown keys harmless', async () => {
    write({
      version: 1,
      providers: [
        {
          id: 'cursor',
          enabled: true,
          source: 'auto',
          cookieSource: 'manual',
          cookieHeader: SECRET,
          apiKey: null,
          quotaWarnings: { session: { thresholds: [80], enabled: true } },
          somethingNew: { nested: [1, 2] },
          tokenAccounts: {
            version: 1,
            activeIndex: 0,
            accounts: [
              { id: '6F1C-UUID', label: 'work', token: SECRET, addedAt: 1735123456, lastUsed: null },
            ],
          },
        },
      ],
      hooks: null,
      futureTopLevel: 'kept',
    });
    const loaded = await loadConfig(environment());
    expect(loaded.exists).toBe(true);
    expect(loaded.cursor).toMatchObject({
      enabled: true,
      source: 'auto',
      cookieSource: 'manual',
      cookieHeader: SECRET,
    });
    expect(loaded.cursor.tokenAccounts?.accounts[0]).toMatchObject({ label: 'work', token: SECRET });
  });

  it('the first cursor entry wins over duplicates', async () => {
    write({
      version: 1,
      providers: [
        { id: 'cursor', cookieSource: 'off' },
        { id: 'cursor', cookieSource: 'auto' },
      ],
    });
    expect((await loadConfig(environment())).cursor.cookieSource).toBe('off');
  });

  it.each([
    { rule: 'whitespace is trimmed', raw: `  ${SECRET}  `, expected: SECRET },
    { rule: 'one pair of matching quotes is stripped', raw: ` "${SECRET}" `, expected: SECRET },
    // Cookie-header normalisation happens when the header is chosen: see auth-credentials.test.ts.
    {
      rule: 'a pasted Cookie: line is kept for the credential resolver',
      raw: `'Cookie: ${SECRET}'`,
      expected: `Cookie: ${SECRET}`,
    },
    { rule: 'an empty value is absent', raw: ' "" ', expected: undefined },
    { rule: 'null is absent', raw: null, expected: undefined },
  ])('cookieHeader cleaning: $rule', async ({ raw, expected }) => {
    write(cursorEntry({ cookieHeader: raw }));
    expect((await loadConfig(environment())).cursor.cookieHeader).toBe(expected);
  });

  it.each([
    {
      rule: 'is read cleaned',
      raw: ' "key_config0123456789abcdef" ',
      expected: 'key_config0123456789abcdef',
    },
    { rule: 'empty is absent', raw: '  ', expected: undefined },
    { rule: 'null is absent', raw: null, expected: undefined },
  ])('apiKey (the Admin API key for team) $rule', async ({ raw, expected }) => {
    write(cursorEntry({ apiKey: raw }));
    expect((await loadConfig(environment())).cursor.apiKey).toBe(expected);
  });

  it('an apiKey that is not a string is refused without echoing it', async () => {
    write(cursorEntry({ apiKey: 987654321012345 }));
    const error = await loadError();
    expect(error.message).toContain('providers.1.apiKey: expected string, got number');
    expect(error.message).not.toContain('987654321012345');
  });
});

describe('loadConfig errors name the file and never echo a cookie', () => {
  it('malformed JSON names the file', async () => {
    write(`{"version": 1, "providers": [{"id": "cursor", "cookieHeader": ${SECRET}}]}`);
    const error = await loadError();
    expect(error.message).toMatch(/^Failed to decode CodexBar config at .*config\.json: invalid JSON/);
    expect(error.message).toContain(file);
    expect(error.message).not.toContain('secret');
    expect(error.message).not.toContain('Workos');
  });

  it.each([
    {
      rule: 'providers must be an array',
      content: { version: 1, providers: SECRET },
      expected: 'providers: expected array, got string',
    },
    {
      rule: 'providers is required',
      content: { version: 1 },
      expected: 'providers: missing (expected array)',
    },
    {
      rule: 'version is required',
      content: { providers: [] },
      expected: 'version: missing (expected number)',
    },
    {
      rule: 'each entry needs an id',
      content: { version: 1, providers: [{ enabled: true }] },
      expected: 'providers.0.id: missing (expected string)',
    },
    {
      rule: 'cookieSource must be auto, manual or off',
      content: cursorEntry({ cookieSource: SECRET }),
      expected: 'providers.1.cookieSource: expected one of auto|manual|off',
    },
    {
      rule: 'source must be a known mode',
      content: cursorEntry({ source: 'browser' }),
      expected: 'providers.1.source: expected one of auto|web|cli|rpc|oauth|api',
    },
    {
      rule: 'cookieHeader must be a string',
      content: cursorEntry({ cookieHeader: [SECRET] }),
      expected: 'providers.1.cookieHeader: expected string, got array',
    },
    {
      rule: 'a token account needs a token',
      content: cursorEntry({
        tokenAccounts: { version: 1, activeIndex: 0, accounts: [{ id: 'x', label: 'w', addedAt: 1 }] },
      }),
      expected: 'providers.1.tokenAccounts.accounts.0.token: missing (expected string)',
    },
    {
      rule: 'the file must hold an object',
      content: [SECRET],
      expected: 'top level: expected object, got array',
    },
  ])('$rule', async ({ content, expected }) => {
    write(content);
    const error = await loadError();
    expect(error.message).toContain(`Failed to decode CodexBar config at ${file}: `);
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain('secret');
  });

  it('an unreadable file is a ConfigError naming it (as root, who could read mode 000, the read runs as nobody)', async () => {
    write({ version: 1, providers: [] });
    fs.chmodSync(file, 0o000);
    unprivileged.handOver(scene.root);
    const error = await unprivileged.check('configError', [dir, file], { env: {}, cwd: scene.root });
    expect(error?.name).toBe('ConfigError');
    expect(error?.message).toBe(`Failed to read CodexBar config at ${file}: permission denied`);
  });

  it('a directory at the config path is a ConfigError naming it', async () => {
    fs.mkdirSync(file);
    const error = await loadError();
    expect(error.message).toBe(`Failed to read CodexBar config at ${file}: it is a directory`);
  });
});
