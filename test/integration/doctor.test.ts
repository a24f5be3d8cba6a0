import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import type { CliResult } from '../helpers/cli.js';
import { makeToken, writeAgentToken, writeAppToken, writeConfig } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';
import {
  fakeFor,
  makeTokenAccounts,
  type TestTokenAccount,
  writeTokenAccountsConfig,
} from '../helpers/token-accounts.js';

const scene = useScene();

const serve = (accounts: FakeAccount[]) => scene.serve(accounts);

const PROXY_PASSWORD = 'planted-proxy-password-7';

const doctor = (args: string[], env: Record<string, string | undefined> = {}) => scene.run(args, { env });

/** docs/invariants.md, "Never a credential shown": nothing secret in any output. */
function expectNoSecrets(result: CliResult, secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

interface Scene {
  accounts: TestTokenAccount[];
  secrets: string[];
}

/** Two token accounts (one rejected), a usable app token, an expired cursor-agent login, a proxy with a password. */
async function busyMachine(): Promise<Scene> {
  const accounts = await makeTokenAccounts(['work', 'stale']);
  writeTokenAccountsConfig(scene.home, accounts);
  const app = await makeToken('app_user', { email: 'app@example.com' });
  writeAppToken(scene.home, app.jwt);
  const agent = await makeToken('agent_user', { exp: Math.floor(Date.now() / 1000) - 600 });
  writeAgentToken(scene.home, agent.jwt);
  await serve([fakeFor(accounts[0]!), proAccount([app.cookieValue])]);
  const secrets = [
    ...accounts.flatMap((account) => [account.token.cookieValue, account.token.jwt]),
    app.jwt,
    app.cookieValue,
    agent.jwt,
    PROXY_PASSWORD,
  ];
  return { accounts, secrets };
}

const proxyEnv = {
  HTTPS_PROXY: `http://alice:${PROXY_PASSWORD}@proxy.example.com:3128`,
  // The scene.fake is on loopback: it must not go through the (unreachable) proxy.
  NO_PROXY: '127.0.0.1,localhost',
};

describe('codexbar doctor', () => {
  it('text: every source found, skipped or used and why; token accounts; each problem with its fix; no secret', async () => {
    const { secrets } = await busyMachine();
    const result = await doctor(['doctor', '--no-color'], proxyEnv);

    expect(result.code).toBe(1);
    expectNoSecrets(result, secrets);
    const out = result.stdout;
    expect(out).toMatch(/^Node\.js {6}v\d+\.\d+\.\d+ on /m);
    expect(out).toContain('Config       ~/.config/codexbar/config.json: OK');
    expect(out).toContain('Cache        ~/.cache/codexbar: not created yet');
    expect(out).toContain(
      'Proxy        HTTPS_PROXY: http://proxy.example.com:3128 (credentials hidden); NO_PROXY: 127.0.0.1,localhost',
    );
    expect(out).toMatch(/Network {6}http:\/\/127\.0\.0\.1:\d+: reachable \(HTTP 404\)/);
    expect(out).toContain('Credentials, in the order codexbar tries them on Linux:');
    expect(out).toMatch(
      /manual cookie header +used +manual cookie header \(config file, token account "work"\): accepted by cursor\.com/,
    );
    expect(out).toMatch(
      /cached cookie +skipped +no cached cookie at ~\/\.local\/share\/CodexBar\/cursor-cookie\.json/,
    );
    expect(out).toMatch(
      /Cursor app token +found +Cursor app token \(~\/\.config\/Cursor\/User\/globalStorage\/state\.vscdb\) \(not used: a manual header is final\)/,
    );
    expect(out).toMatch(/cursor-agent token +skipped +.*expired/);
    expect(out).toMatch(/browser cookie +skipped/);
    expect(out).toContain('Firefox: not installed');
    expect(out).toMatch(/Token accounts:\n {2}work {3}accepted, active\n {2}stale {2}rejected \(HTTP 401\)/);
    expect(out).toContain(
      'Problems (1):\n  1. cursor.com rejected token account "stale" (HTTP 401).\n     Fix: codexbar login --label \'stale\'',
    );
  });

  it("JSON: CodexBar's diagnose object plus codexbar's checks, keys sorted, exit 0 even with problems", async () => {
    const { secrets } = await busyMachine();
    for (const args of [
      ['doctor', '--json'],
      ['diagnose', '--format', 'json', '--pretty', '--redact'],
    ]) {
      const result = await doctor(args, proxyEnv);
      expect(result.code).toBe(0);
      expectNoSecrets(result, secrets);
      const report = JSON.parse(result.stdout);
      expect(Object.keys(report)).toEqual([...Object.keys(report)].sort());
      expect(report).toMatchObject({
        schemaVersion: '1.0',
        platform: 'Linux',
        appVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
        provider: 'cursor',
        displayName: 'Cursor',
        source: 'web',
        sourceMode: 'auto',
        auth: { configured: true, modes: ['manual', 'app'] },
        fetchAttempts: [{ kind: 'web', wasAvailable: true }],
        settings: { sourceMode: 'auto' },
        proxy: {
          variables: ['HTTPS_PROXY', 'NO_PROXY'],
          proxies: ['HTTPS_PROXY: http://proxy.example.com:3128 (credentials hidden)'],
        },
        tokenAccounts: [
          { label: 'work', active: true, state: 'accepted', detail: 'accepted by cursor.com' },
          { label: 'stale', active: false, state: 'rejected', detail: 'HTTP 401' },
        ],
      });
      expect(report.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(report.problems).toHaveLength(1);
      expect(report).not.toHaveProperty('error');
    }
  });

  it('with no session anywhere: the auth error category and the login fix', async () => {
    await serve([]);
    const text = await doctor(['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('No Cursor session was found on this machine.');
    expect(text.stdout).toContain('Fix: Run `codexbar login`');
    const json = JSON.parse((await doctor(['doctor', '--json'])).stdout);
    expect(json.source).toBe('failed');
    expect(json.error).toEqual({
      category: 'auth',
      safeDescription: 'Authentication or setup issue - check provider credentials',
    });
  });

  it('a rejected session found on the machine is named, and the next source is checked as usage would', async () => {
    const stale = await makeToken('stale_app');
    const agent = await makeToken('agent_ok', { email: 'agent@example.com' });
    writeAppToken(scene.home, stale.jwt);
    writeAgentToken(scene.home, agent.jwt);
    await serve([
      proAccount([stale.cookieValue], 'x', { usageSummary: { status: 401, json: {} } }),
      proAccount([agent.cookieValue]),
    ]);
    const result = await doctor(['doctor', '--no-color']);
    expect(result.stdout).toMatch(/Cursor app token +rejected +Cursor app token .*: HTTP 401/);
    expect(result.stdout).toMatch(/cursor-agent token +used +cursor-agent token .*: accepted by cursor\.com/);
    expect(result.stdout).toContain('cursor.com rejected the Cursor app token');
  });

  it('an unreachable base URL, an insecure cache directory and a broken config are problems with fixes', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const cache = path.join(scene.home, '.cache', 'codexbar');
    fs.mkdirSync(cache, { recursive: true, mode: 0o755 });
    fs.chmodSync(cache, 0o755);
    writeConfig(scene.home, '{"version": 1, "providers": [');

    const result = await scene.run(['doctor', '--no-color'], {
      env: { CODEXBAR_CURSOR_BASE_URL: `http://127.0.0.1:${port}` },
    });

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Network      http://127.0.0.1:${port}: unreachable (ECONNREFUSED)`);
    expect(result.stdout).toContain(
      'The cache directory ~/.cache/codexbar is open to others (mode 755).\n     Fix: chmod 700 ~/.cache/codexbar',
    );
    expect(result.stdout).toMatch(
      /The config file ~\/\.config\/codexbar\/config\.json has an error: Failed to decode/,
    );
    expect(result.stdout).toContain('not checked: the config file cannot be read');
    const json = JSON.parse(
      (
        await scene.run(['doctor', '--json'], {
          env: { CODEXBAR_CURSOR_BASE_URL: `http://127.0.0.1:${port}` },
        })
      ).stdout,
    );
    expect(json.error.category).toBe('configuration');
  });

  it('all well: "No problems found." and exit 0', async () => {
    const [account] = await makeTokenAccounts(['solo']);
    writeTokenAccountsConfig(scene.home, [account!]);
    await serve([fakeFor(account!)]);
    const result = await doctor(['doctor', '--no-color']);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('No problems found.');
    expect(result.code).toBe(0);
  });

  it('an unknown --provider is refused; --format text is the human report', async () => {
    await serve([]);
    const refused = await doctor(['doctor', '--provider', 'codex']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: "Error: unknown provider 'codex' (supported: cursor)\n",
    });
    expect((await doctor(['diagnose', '--format', 'text'])).stdout).toMatch(/^codexbar doctor\n/);
  });
});
