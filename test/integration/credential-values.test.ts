/**
 * docs/invariants.md, "Credentials only to their own server, over HTTPS": a token with surrounding whitespace
 * is the same token, and a Cookie header that is not printable ASCII or is longer than 8 KiB is never sent.
 * From a local source it makes that source malformed (skipped with a --verbose reason, the ladder goes on);
 * as a manual header it is an argument error naming the rule, before any request.
 */
import { describe, expect, it } from 'vitest';
import { emailOf, proAccount, summaryCookies, tokenAccounts } from '../helpers/accounts.js';
import { runBrowserImport } from '../helpers/browser-cli.js';
import { addFirefox } from '../helpers/browser-home.js';
import {
  makeToken,
  type TestToken,
  writeAgentToken,
  writeAppToken,
  writeCachedCookie,
  writeConfig,
  writeStoredSession,
} from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
/** The browser import makes its private copies in the scene's TMPDIR, and must leave it empty. */
const scene = useScene({ now: NOW, tmpdir: true });

/** Each test gives every source its own account, so the email printed says which source was used. */
const serve = (tokens: TestToken[]) => scene.serve(tokenAccounts(tokens));
const usage = (args: string[] = ['--json', '--verbose'], env: Record<string, string | undefined> = {}) =>
  scene.run(['usage', ...args], { env });

describe('a token with a trailing newline is the same token', () => {
  it('the Cursor app token', async () => {
    const app = await makeToken('app_user');
    writeAppToken(scene.home, `${app.jwt}\n`);
    const server = await serve([app]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('app_user@example.com');
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${app.cookieValue}`]);
  });

  it("cursor-agent's token (CRLF and spaces around it)", async () => {
    const agent = await makeToken('agent_user');
    writeAgentToken(scene.home, `  ${agent.jwt}\r\n`);
    const server = await serve([agent]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('agent_user@example.com');
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${agent.cookieValue}`]);
  });

  it('a stored-session cookie value', async () => {
    const stored = await makeToken('stored_user');
    writeStoredSession(scene.home, `${stored.cookieValue}\n`);
    const server = await serve([stored]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${stored.cookieValue}`]);
  });
});

describe('a cookie that cannot be sent makes its source malformed; the next source is used', () => {
  const unsendable: Array<[string, (value: string) => string, RegExp]> = [
    [
      'a CRLF inside',
      (value) => `${value}\r\nX-Forged: 1`,
      /it holds a line break, and only printable ASCII may be sent/,
    ],
    ['a non-ASCII character', (value) => `${value}é`, /it holds a non-ASCII character/],
    ['a control character', (value) => `${value}\u0007`, /it holds a control character/],
    ['100 KB', (value) => `${value}${'a'.repeat(100 * 1024)}`, /it is longer than 8 KiB \(\d+ characters\)/],
  ];

  it.each(unsendable)(
    'the cached cookie with %s: skipped, the stored session is used',
    async (_, spoil, reason) => {
      const cached = await makeToken('cached_user');
      const stored = await makeToken('stored_user');
      writeCachedCookie(scene.home, `WorkosCursorSessionToken=${spoil(cached.cookieValue)}`);
      writeStoredSession(scene.home, stored.cookieValue);
      const server = await serve([cached, stored]);
      const result = await usage();
      expect(result.code, result.stderr).toBe(0);
      expect(emailOf(result.stdout)).toBe('stored_user@example.com');
      expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${stored.cookieValue}`]);
      const skipped = result.stderr
        .split('\n')
        .find((line) => line.startsWith('[cursor] Skipped cached cookie'));
      expect(skipped).toMatch(reason);
      // The reason names the rule, never the value.
      expect(result.stderr).not.toContain(cached.cookieValue);
    },
  );

  it('a stored session with a CRLF inside its value: skipped, the Cursor app token is used', async () => {
    const stored = await makeToken('stored_user');
    const app = await makeToken('app_user');
    writeStoredSession(scene.home, `${stored.cookieValue}\r\nX-Forged: 1`);
    writeAppToken(scene.home, app.jwt);
    const server = await serve([stored, app]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${app.cookieValue}`]);
    expect(result.stderr).toMatch(/\[cursor\] Skipped stored session: .*it holds a line break/);
  });
});

describe('a manual header that cannot be sent is an argument error naming the rule', () => {
  const cases: Array<[string, string, string]> = [
    [
      'a CRLF',
      'WorkosCursorSessionToken=user_a%3A%3Avalue\r\nX-Forged: 1',
      'it holds a line break, and only printable ASCII may be sent.',
    ],
    [
      'a non-ASCII character',
      'WorkosCursorSessionToken=user_a%3A%3Avalué',
      'it holds a non-ASCII character, and only printable ASCII may be sent.',
    ],
    [
      '100 KB',
      `WorkosCursorSessionToken=${'a'.repeat(100 * 1024)}`,
      'it is longer than 8 KiB (102425 characters).',
    ],
  ];

  it.each(cases)('--cookie with %s: exit 1, no request', async (_, header, rule) => {
    const server = await serve([]);
    const result = await usage(['--cookie', header]);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `Error: The manual Cookie header (--cookie) cannot be sent: ${rule}`,
    );
    expect(server.requests).toEqual([]);
  });

  it('CODEXBAR_CURSOR_COOKIE with a CRLF: a JSON args row, no request', async () => {
    const server = await serve([]);
    const result = await usage(['--json'], {
      CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=user_a%3A%3Avalue\r\nX-Forged: 1',
    });
    expect(result.code).toBe(1);
    const [row] = JSON.parse(result.stdout);
    expect(row.provider).toBe('cli');
    expect(row.error.message).toMatch(/line break, and only printable ASCII may be sent/);
    expect(row.error.message).not.toContain('value');
    expect(server.requests).toEqual([]);
  });

  it("the config file's manual header with a non-ASCII character: exit 1, no request", async () => {
    writeConfig(scene.home, {
      version: 1,
      providers: [{ id: 'cursor', cookieSource: 'manual', cookieHeader: 'WorkosCursorSessionToken=valué' }],
    });
    const server = await serve([]);
    const result = await usage(['--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toMatch(/non-ASCII character/);
    expect(server.requests).toEqual([]);
  });
});

describe('a browser cookie that cannot be sent is skipped; the next profile is used', () => {
  it.each([
    [
      'a CRLF',
      (value: string) => `${value}\r\nX-Forged: 1`,
      /its cursor\.com cookie is not a valid header value/,
    ],
    ['100 KB', (value: string) => `${value}${'a'.repeat(100 * 1024)}`, /longer than 8 KiB/],
  ])("Firefox: %s in the first profile's cookie, a good one in the second", async (_, spoil, reason) => {
    const spoiled = await makeToken('spoiled_user');
    const good = await makeToken('firefox_user');
    addFirefox(scene.home, 'linux', [
      { name: 'default-release', folder: 'a.default-release', session: spoil(spoiled.cookieValue) },
      { name: 'work', folder: 'b.work', session: good.cookieValue },
    ]);
    const server = await scene.serve([
      proAccount([spoiled.cookieValue]),
      proAccount([good.cookieValue], 'firefox@example.com'),
    ]);
    const result = await runBrowserImport(scene, ['usage', '--json', '--verbose'], {
      platform: 'linux',
      path: process.env.PATH ?? '',
      secrets: [spoiled.jwt, good.jwt],
    });
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('firefox@example.com');
    expect(summaryCookies(server)).toEqual([`WorkosCursorSessionToken=${good.cookieValue}`]);
    const skipped = result.stderr
      .split('\n')
      .find((line) => line.includes('Skipped Firefox profile "default-release"'));
    expect(skipped).toMatch(reason);
  });
});
