import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { type CliResult, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { makeToken, writeConfig } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';
import { fakeFor, makeTokenAccounts, writeTokenAccountsConfig } from '../helpers/token-accounts.js';

const scene = useScene();

const serve = (accounts: FakeAccount[]) => scene.serve(accounts);

const configFile = () => path.join(scene.home, '.config', 'codexbar', 'config.json');
const readConfig = () => JSON.parse(fs.readFileSync(configFile(), 'utf8'));

const login = (stdin: string | undefined, args: string[] = [], env: Record<string, string> = {}) =>
  scene.run(['login', ...(stdin === undefined ? [] : ['--stdin']), ...args], {
    env,
    now: new Date('2026-07-20T15:00:00Z'),
    frozen: true,
    stdin,
  });

/**
 * docs/invariants.md, "Never a credential shown": the session must appear in no output, whatever the
 * outcome.
 */
function expectNotPrinted(result: CliResult, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe('codexbar login --stdin', () => {
  it('verifies the pasted header live, stores it as the active token account, and says who signed in', async () => {
    const token = await makeToken('user_login', { email: 'dev@example.com' });
    const server = await serve([proAccount([token.cookieValue])]);
    const header = `Cookie: theme=dark; WorkosCursorSessionToken=${token.cookieValue}`;

    const result = await login(`${header}\n`);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Signed in to Cursor as dev@example.com (Cursor Pro).\n' +
        'Saved token account "dev@example.com" in ~/.config/codexbar/config.json; it is the active account.\n',
    );
    expectNotPrinted(result, token.cookieValue, token.jwt);
    const stored = readConfig();
    expect(stored.providers).toHaveLength(1);
    expect(stored.providers[0]).toMatchObject({ id: 'cursor', enabled: true });
    expect(stored.providers[0].tokenAccounts).toMatchObject({
      version: 1,
      activeIndex: 0,
      accounts: [
        {
          label: 'dev@example.com',
          token: `theme=dark; WorkosCursorSessionToken=${token.cookieValue}`,
          addedAt: Date.parse('2026-07-20T15:00:00Z') / 1000,
        },
      ],
    });
    expect(stored.providers[0].tokenAccounts.accounts[0].id).toMatch(
      /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-/,
    );
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(server.requests.map((r) => r.path).sort()).toEqual(['/api/auth/me', '/api/usage-summary']);

    // The stored account is what `usage` uses from now on.
    const usage = await scene.run(['usage', '--json'], { env: { CODEXBAR_CURSOR_BASE_URL: server.url } });
    expect(JSON.parse(usage.stdout)[0]).toMatchObject({
      account: 'dev@example.com',
      usage: { accountEmail: 'dev@example.com' },
    });
  });

  it('accepts a "Copy as cURL" command over several lines, a bare cookie value and a bare access token', async () => {
    const token = await makeToken('user_forms', { email: 'forms@example.com' });
    await serve([proAccount([token.cookieValue], 'forms@example.com')]);
    const inputs = [
      `curl 'https://cursor.com/api/usage-summary' \\\n  -H 'accept: */*' \\\n  -H 'cookie: WorkosCursorSessionToken=${token.cookieValue}; other=1' \\\n  --compressed\n`,
      token.cookieValue,
      `user_forms::${token.jwt}`,
      token.jwt,
    ];
    for (const [index, input] of inputs.entries()) {
      const result = await login(input, ['--label', `form-${index}`, '--json']);
      expect(result.code, result.stderr).toBe(0);
      expectNotPrinted(result, token.cookieValue, token.jwt);
    }
    const tokens = readConfig().providers[0].tokenAccounts.accounts.map(
      (account: { token: string }) => account.token,
    );
    expect(tokens).toEqual([
      `WorkosCursorSessionToken=${token.cookieValue}; other=1`,
      `WorkosCursorSessionToken=${token.cookieValue}`,
      `WorkosCursorSessionToken=${token.cookieValue}`,
      `WorkosCursorSessionToken=${token.cookieValue}`,
    ]);
  });

  it('a session cursor.com rejects is not saved: exit 1 with the reason', async () => {
    const token = await makeToken('user_rejected');
    await serve([proAccount(['someone-else'])]);
    writeConfig(scene.home, { version: 1, providers: [{ id: 'codex', enabled: true }] });
    const before = fs.readFileSync(configFile(), 'utf8');

    const result = await login(`WorkosCursorSessionToken=${token.cookieValue}`);

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^Error: cursor\.com rejected this session \(HTTP 401\): it is not signed in, or it has expired\. Nothing was saved\.\nHint: /,
    );
    expectNotPrinted(result, token.cookieValue, token.jwt);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('a server error is not a rejection: it is reported as such, nothing saved, and a timeout exits 4', async () => {
    const token = await makeToken('user_flaky');
    await serve([
      proAccount([token.cookieValue], 'x@example.com', { usageSummary: { status: 503, json: {} } }),
    ]);
    const failed = await login(token.cookieValue);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Cursor API error: HTTP 503 (GET /api/usage-summary)');
    expect(fs.existsSync(configFile())).toBe(false);

    await scene.fake!.close();
    await serve([
      proAccount([token.cookieValue], 'x@example.com', { usageSummary: { json: {}, delayMs: 2000 } }),
    ]);
    const slow = await scene.run(['login', '--stdin'], {
      stdin: token.cookieValue,
      timing: { requestTimeoutMs: 50 },
    });
    expect(slow.code).toBe(4);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('--label names the account; the same label again replaces its token and keeps its id; --no-activate', async () => {
    const [work, personal] = await makeTokenAccounts(['work', 'personal']);
    const fresh = await makeToken('user_0_work', { email: 'work@example.com' });
    await serve([fakeFor(work!), fakeFor(personal!), proAccount([fresh.cookieValue], 'work@example.com')]);

    expect((await login(work!.cookieHeader, ['--label', 'work'])).code).toBe(0);
    const kept = await login(personal!.cookieHeader, ['--label', 'personal', '--no-activate']);
    expect(kept.stdout).toContain(`it is not the active account (use --account 'personal').`);
    const firstId = readConfig().providers[0].tokenAccounts.accounts[0].id;

    const replaced = await login(`WorkosCursorSessionToken=${fresh.cookieValue}`, [
      '--label',
      ' WORK ',
      '--json',
    ]);
    expect(JSON.parse(replaced.stdout)).toEqual({
      account: 'work',
      email: 'work@example.com',
      plan: 'Cursor Pro',
      active: true,
      replaced: true,
      configPath: configFile(),
    });
    const data = readConfig().providers[0].tokenAccounts;
    expect(data.activeIndex).toBe(0);
    expect(data.accounts.map((a: { label: string }) => a.label)).toEqual(['work', 'personal']);
    expect(data.accounts[0]).toMatchObject({
      id: firstId,
      token: `WorkosCursorSessionToken=${fresh.cookieValue}`,
    });
  });

  it('keeps every other provider, key and account of a CodexBar config', async () => {
    const [existing, added] = await makeTokenAccounts(['existing', 'added']);
    writeTokenAccountsConfig(scene.home, [existing!], {
      cursor: { cookieSource: 'auto', futureKey: { a: [1] } },
    });
    const config = readConfig();
    config.providers.unshift({ id: 'codex', enabled: true, apiKey: 'k' });
    config.hooks = null;
    fs.writeFileSync(configFile(), JSON.stringify(config));
    await serve([fakeFor(added!)]);

    expect((await login(added!.cookieHeader, ['--label', 'added'])).code).toBe(0);

    const after = readConfig();
    const expected = structuredClone(config);
    expected.providers[1].tokenAccounts.activeIndex = 1;
    expected.providers[1].tokenAccounts.accounts.push(after.providers[1].tokenAccounts.accounts[1]);
    expect(after).toEqual(expected);
  });

  it('without --stdin and without a terminal it refuses, and never takes the secret as an argument', async () => {
    await serve([]);
    const noTty = await scene.run(['login']);
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toMatch(
      /^Error: codexbar login reads the cookie from the terminal, and stdin is not a terminal\./,
    );
    const asArgument = await scene.run(['login', 'WorkosCursorSessionToken=abc']);
    expect(asArgument.code).toBe(1);
    expect(asArgument.stderr).toMatch(/too many arguments/);
    const cookieFlag = await scene.run(['login', '--cookie', 'WorkosCursorSessionToken=abc']);
    expect(cookieFlag.stderr).toMatch(/unknown option '--cookie'/);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a config file that cannot take the account is refused before anything is read or sent', async () => {
    await serve([]);
    writeConfig(scene.home, '{"version": 2, "providers": []}');
    const result = await login('WorkosCursorSessionToken=never-read');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Error: Refusing to write the config file ~\/\.config\/codexbar\/config\.json: its version is 2, not 1\./,
    );
    expect(scene.fake!.requests).toEqual([]);
  });

  it('input that cannot be a header is refused without being quoted', async () => {
    await serve([]);
    const empty = await login('   \n');
    expect(empty.stderr).toMatch(/^Error: Nothing to sign in with: the input was empty\./);
    const binary = await login('WorkosCursorSessionToken=abc\u0000def-secret-part');
    expect(binary.stderr).toMatch(/^Error: The pasted text is not a Cookie header/);
    expect(binary.stderr).not.toContain('secret-part');
    expect(scene.fake!.requests).toEqual([]);
  });

  it('with no email from cursor.com and no --label, nothing is saved and --label is suggested', async () => {
    await serve([proAccount(['anon%3A%3Anot-a-jwt'], 'x', { me: { json: {} } })]);
    const result = await login('WorkosCursorSessionToken=anon%3A%3Anot-a-jwt');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Hint: Run codexbar login again with --label <name>. Nothing was saved.');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('says so when CODEXBAR_CURSOR_COOKIE would still win over the new account', async () => {
    const [account] = await makeTokenAccounts(['solo']);
    await serve([fakeFor(account!)]);
    const result = await login(account!.cookieHeader, [], { CODEXBAR_CURSOR_COOKIE: 'x=1' });
    expect(result.stderr).toContain('Note: CODEXBAR_CURSOR_COOKIE is set and beats the active token account');
  });
});

describe('concurrent logins never lose an account', () => {
  it('eight logins at once in one process: all eight accounts are stored', async () => {
    const accounts = await makeTokenAccounts(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    await serve(accounts.map((account) => fakeFor(account)));
    const results = await Promise.all(
      accounts.map((account) => login(account.cookieHeader, ['--label', account.label])),
    );
    expect(results.map((r) => r.code)).toEqual(accounts.map(() => 0));
    const labels = readConfig().providers[0].tokenAccounts.accounts.map((a: { label: string }) => a.label);
    expect([...labels].sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(fs.readdirSync(path.dirname(configFile()))).toEqual(['config.json']);
  });

  it('two codexbar processes at once: both accounts are stored', async () => {
    const accounts = await makeTokenAccounts(['p1', 'p2']);
    const server = await serve(accounts.map((account) => fakeFor(account)));
    seedCompileCache(scene.home);
    const codes = await Promise.all(
      accounts.map(
        (account) =>
          new Promise<number | null>((resolve, reject) => {
            const child = spawn(
              process.execPath,
              [path.join(repoRoot, 'bin', 'codexbar.js'), 'login', '--stdin', '--label', account.label],
              {
                env: { PATH: process.env.PATH ?? '', HOME: scene.home, CODEXBAR_CURSOR_BASE_URL: server.url },
                stdio: ['pipe', 'ignore', 'ignore'],
              },
            );
            child.on('error', reject);
            child.on('close', resolve);
            child.stdin.end(account.cookieHeader);
          }),
      ),
    );
    expect(codes).toEqual([0, 0]);
    const labels = readConfig().providers[0].tokenAccounts.accounts.map((a: { label: string }) => a.label);
    expect([...labels].sort()).toEqual(['p1', 'p2']);
  });
});

describe('codexbar logout', () => {
  async function three(activeIndex: number) {
    const accounts = await makeTokenAccounts(['work', 'personal', 'ci']);
    writeTokenAccountsConfig(scene.home, accounts, { activeIndex });
  }
  const labels = () =>
    readConfig().providers[0].tokenAccounts.accounts.map((a: { label: string }) => a.label);
  const logout = (args: string[]) => scene.run(['logout', ...args]);

  it('removes the active account by default; the one at its place becomes active', async () => {
    await three(1);
    const result = await logout([]);
    expect(result).toEqual({
      code: 0,
      stdout: 'Removed token account "personal" from ~/.config/codexbar/config.json.\nActive account: ci.\n',
      stderr: '',
    });
    expect(labels()).toEqual(['work', 'ci']);
    expect(readConfig().providers[0].tokenAccounts.activeIndex).toBe(1);
  });

  it('--account removes that one (any case) and the active account stays active', async () => {
    await three(2);
    const result = await logout(['--account', 'WORK', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({
      removed: ['work'],
      remaining: 2,
      active: 'ci',
      configPath: configFile(),
    });
    expect(labels()).toEqual(['personal', 'ci']);
    expect(readConfig().providers[0].tokenAccounts.activeIndex).toBe(1);
  });

  it('--all removes every account', async () => {
    await three(0);
    const result = await logout(['--all']);
    expect(result.stdout).toBe(
      'Removed token accounts "work", "personal", "ci" from ~/.config/codexbar/config.json.\n' +
        'No token accounts left: codexbar uses the other credential sources again.\n',
    );
    expect(labels()).toEqual([]);
  });

  it('errors: no accounts, an unknown label, --all with --account; the file is untouched', async () => {
    expect((await logout([])).stderr).toBe('Error: No token accounts configured for cursor.\n');
    await three(0);
    const before = fs.readFileSync(configFile(), 'utf8');
    expect((await logout(['--account', 'nope'])).stderr).toBe(
      "Error: No token account labeled 'nope' for cursor.\n",
    );
    expect((await logout(['--all', '--account', 'work'])).stderr).toBe(
      'Error: --all cannot be combined with --account.\n',
    );
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });
});

/**
 * The Python interpreter itself, found once, for test/helpers/pty-run.py. A version manager's shim (pyenv's
 * `shims` directory, first on PATH here) runs a dozen processes on every start: ~0.3 s of this worker's time
 * blocked in `spawnSync` on an idle machine, over a second on a loaded one. So a `python3` or `python` on PATH
 * outside a `shims` directory is asked first, the shims only when none answers.
 */
function findPython(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const files = ['python3', 'python'].flatMap((name) => dirs.map((dir) => path.join(dir, name)));
  const isShim = (file: string) => path.basename(path.dirname(file)) === 'shims';
  for (const file of [...files.filter((file) => !isShim(file)), ...files.filter(isShim)]) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      continue;
    }
    const found = spawnSync(file, ['-c', 'import pty, sys; print(sys.executable)'], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  return undefined;
}

describe('codexbar login at a terminal: a hidden prompt', () => {
  const python = findPython();

  /** The BUILT CLI in a real pseudo-terminal, typed into by test/helpers/pty-run.py. */
  function inTerminal(
    args: string[],
    steps: Array<{ expect: string; send: string }>,
    env: Record<string, string>,
  ) {
    seedCompileCache(scene.home);
    const spec = {
      argv: [process.execPath, path.join(repoRoot, 'bin', 'codexbar.js'), ...args],
      env: { PATH: process.env.PATH ?? '', HOME: scene.home, TERM: 'xterm', ...env },
      cwd: scene.home,
      steps,
    };
    // Asynchronous: the scene.fake cursor.com answers from this very process.
    return new Promise<{ code: number | null; output: string; stuck?: string }>((resolve, reject) => {
      const child = spawn(python!, [
        path.join(repoRoot, 'test', 'helpers', 'pty-run.py'),
        JSON.stringify(spec),
      ]);
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      child.on('error', reject);
      child.on('close', () => resolve(JSON.parse(stdout)));
    });
  }

  it.skipIf(python === undefined)('the pasted cookie is read without echo, verified and saved', async () => {
    const token = await makeToken('user_tty', { email: 'tty@example.com' });
    const server = await serve([proAccount([token.cookieValue], 'tty@example.com')]);
    // Typed with a mistake fixed by Backspace, and an arrow key that must not end up in the cookie.
    const typed = `WorkosCursorSessionToken=${token.cookieValue}X\u007f\u001b[D\r`;

    const run = await inTerminal(['login'], [{ expect: 'then press Enter:', send: typed }], {
      CODEXBAR_CURSOR_BASE_URL: server.url,
    });

    expect(run.stuck).toBeUndefined();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Signed in to Cursor as tty@example.com (Cursor Pro).');
    // No echo: neither the cookie nor any part of the token reached the terminal.
    expect(run.output).not.toContain(token.cookieValue);
    expect(run.output).not.toContain(token.jwt.slice(0, 20));
    expect(readConfig().providers[0].tokenAccounts.accounts[0].token).toBe(
      `WorkosCursorSessionToken=${token.cookieValue}`,
    );
  });

  it.skipIf(python === undefined)('Ctrl-C at the prompt cancels: exit 130, nothing saved', async () => {
    await serve([]);
    const run = await inTerminal(
      ['login'],
      [{ expect: 'then press Enter:', send: 'WorkosCursorSessionToken=abc\u0003' }],
      {
        CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
      },
    );
    expect(run.code).toBe(130);
    expect(run.output).toContain('Error: Cancelled; nothing was saved.');
    expect(run.output).not.toContain('WorkosCursorSessionToken=abc');
    expect(fs.existsSync(configFile())).toBe(false);
  });
});
