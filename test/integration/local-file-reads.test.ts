/**
 * docs/invariants.md, "Regular files only, never a blocking read": every local file goes through one reader
 * that opens without blocking, reads only a regular file, stops at 1 MiB and drops a byte-order mark;
 * state.vscdb and its -wal are opened the same way by the page reader. A named pipe, a device or a huge file
 * in any of the six places is "unreadable" at once, and the ladder goes on where it may. Real FIFOs, a real
 * sparse file, a real symlink to /dev/zero, in a temporary HOME.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emailOf, tokenAccounts } from '../helpers/accounts.js';
import { spawnCli } from '../helpers/cli.js';
import { makeFifo, startFifoRescue } from '../helpers/fifo.js';
import {
  makeToken,
  type TestToken,
  writeAgentToken,
  writeAppToken,
  writeCachedCookie,
  writeStoredSession,
} from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const scene = useScene({ now: NOW });
let stopRescue: (() => void) | undefined;

afterEach(() => {
  stopRescue?.();
  stopRescue = undefined;
});

const places = {
  config: () => path.join(scene.home, '.config', 'codexbar', 'config.json'),
  cached: () => path.join(scene.home, '.local', 'share', 'CodexBar', 'cursor-cookie.json'),
  stored: () => path.join(scene.home, '.local', 'share', 'CodexBar', 'cursor-session.json'),
  agent: () => path.join(scene.home, '.config', 'cursor', 'auth.json'),
  appDb: () => path.join(scene.home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'),
};

/** FIFOs at `files`, watched: a run that blocks on one is let go after 2 s and the test fails. */
function fifos(...files: string[]): () => Promise<string[]> {
  for (const file of files) makeFifo(file);
  const rescue = startFifoRescue(files, path.join(scene.home, 'rescued-fifos'));
  stopRescue = rescue.stop;
  return rescue.rescued;
}

/** Each test gives every source its own account, so the email printed says which source was used. */
const serve = (tokens: TestToken[]) => scene.serve(tokenAccounts(tokens));
const usage = (args: string[] = ['--json', '--verbose'], env: Record<string, string | undefined> = {}) =>
  scene.run(['usage', ...args], { env });

describe('a FIFO in any of the six places never hangs the run', () => {
  it('the config file: exit 1 naming the file, before any request', async () => {
    const rescued = fifos(places.config());
    await serve([]);
    const result = await usage(['--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Error: Failed to read CodexBar config at ${places.config()}: not a regular file`,
    );
    expect(scene.fake!.requests).toEqual([]);
    expect(await rescued()).toEqual([]);
  });

  it('the file CODEXBAR_CONFIG names: the same config error', async () => {
    const file = path.join(scene.home, 'elsewhere', 'codexbar.json');
    const rescued = fifos(file);
    await serve([]);
    const result = await usage(['--json'], { CODEXBAR_CONFIG: file });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0].error.message).toBe(
      `Failed to read CodexBar config at ${file}: not a regular file`,
    );
    expect(await rescued()).toEqual([]);
  });

  it('the cached cookie: skipped as unreadable, the stored session is used', async () => {
    const stored = await makeToken('stored_user');
    const rescued = fifos(places.cached());
    writeStoredSession(scene.home, stored.cookieValue);
    await serve([stored]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('stored_user@example.com');
    expect(result.stderr).toMatch(/Skipped cached cookie: .*cursor-cookie\.json.*not a regular file/);
    expect(await rescued()).toEqual([]);
  });

  it('the stored session: skipped as unreadable, the Cursor app token is used', async () => {
    const app = await makeToken('app_user');
    const rescued = fifos(places.stored());
    writeAppToken(scene.home, app.jwt);
    await serve([app]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('app_user@example.com');
    expect(result.stderr).toMatch(/Skipped stored session: .*cursor-session\.json.*not a regular file/);
    expect(await rescued()).toEqual([]);
  });

  it('state.vscdb: the app token is skipped as unreadable, the cursor-agent token is used', async () => {
    const agent = await makeToken('agent_user');
    const rescued = fifos(places.appDb());
    writeAgentToken(scene.home, agent.jwt);
    await serve([agent]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('agent_user@example.com');
    expect(result.stderr).toMatch(/Skipped Cursor app token: .*the database is not a regular file/);
    expect(await rescued()).toEqual([]);
  });

  it('state.vscdb-wal beside a good database: the app token is skipped, the cursor-agent token is used', async () => {
    const app = await makeToken('app_user');
    const agent = await makeToken('agent_user');
    const dbPath = writeAppToken(scene.home, app.jwt);
    const rescued = fifos(`${dbPath}-wal`);
    writeAgentToken(scene.home, agent.jwt);
    await serve([app, agent]);
    const before = fs.readFileSync(dbPath);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('agent_user@example.com');
    expect(result.stderr).toMatch(/Skipped Cursor app token: .*the -wal is not a regular file/);
    expect(await rescued()).toEqual([]);
    // Nothing was created next to Cursor's database (a -shm, a journal).
    expect(fs.readdirSync(path.dirname(dbPath)).sort()).toEqual(['state.vscdb', 'state.vscdb-wal']);
    expect(fs.readFileSync(dbPath).equals(before)).toBe(true);
  });

  it("cursor-agent's auth.json, the last local source: no session, the reason names the file", async () => {
    const rescued = fifos(places.agent());
    await serve([]);
    const result = await usage(['--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^Error: No Cursor session found\. Looked at: .*cursor-agent token \(.*auth\.json.*not a regular file/m,
    );
    expect(scene.fake!.requests).toEqual([]);
    expect(await rescued()).toEqual([]);
  });
});

describe('a FIFO at the config lock: every command that writes the config fails at once, naming it', () => {
  const lock = () => `${places.config()}.lock`;
  const refusal =
    `Error: Cannot write the config file ~/.config/codexbar/config.json: its lock file is unusable (not a regular file).\n` +
    'Hint: Remove ~/.config/codexbar/config.json.lock (codexbar only ever puts a small file there), then run the command again.\n';

  it.each([
    ['config disable', ['config', 'disable', '--provider', 'cursor']],
    ['config enable', ['config', 'enable', '--provider', 'cursor']],
    ['logout --all', ['logout', '--all']],
  ])('%s', async (_name, args) => {
    fs.mkdirSync(path.dirname(places.config()), { recursive: true });
    fs.writeFileSync(places.config(), JSON.stringify({ version: 1, providers: [{ id: 'cursor' }] }));
    const rescued = fifos(lock());
    const result = await scene.run(args);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: refusal });
    expect(await rescued()).toEqual([]);
    expect(fs.lstatSync(lock()).isFIFO()).toBe(true);
  });

  it('login, after the sign-in was verified', async () => {
    const token = await makeToken('user_lock', { email: 'lock@example.com' });
    await serve([token]);
    const rescued = fifos(lock());
    const result = await scene.run(['login', '--stdin'], {
      stdin: `Cookie: WorkosCursorSessionToken=${token.cookieValue}\n`,
    });
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: refusal });
    expect(await rescued()).toEqual([]);
  });
});

describe('a huge or endless config file fails at once naming the file', () => {
  it('a 200 MB (sparse) config is refused by its size, unread', async () => {
    const file = places.config();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"providers":[]}');
    fs.truncateSync(file, 200 * 1024 * 1024);
    await serve([]);
    const result = await usage(['--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: Failed to read CodexBar config at ${file}: larger than 1 MiB`);
  });

  it('a symlink to /dev/zero is not a regular file', async () => {
    const file = places.config();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.symlinkSync('/dev/zero', file);
    await serve([]);
    const result = await usage(['--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({
      provider: 'cli',
      error: { message: `Failed to read CodexBar config at ${file}: not a regular file` },
    });
  });

  it('a cached cookie larger than 1 MiB is skipped, the next source is used', async () => {
    const stored = await makeToken('stored_user');
    writeCachedCookie(scene.home, `WorkosCursorSessionToken=${'a'.repeat(1024 * 1024)}`);
    writeStoredSession(scene.home, stored.cookieValue);
    await serve([stored]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('stored_user@example.com');
    expect(result.stderr).toMatch(/Skipped cached cookie: .*larger than 1 MiB/);
  });
});

describe('a UTF-8 byte-order mark is accepted in every JSON file', () => {
  const BOM = '\uFEFF';
  const prefixBom = (file: string) => fs.writeFileSync(file, BOM + fs.readFileSync(file, 'utf8'));

  it('config.json with a BOM: its manual cookie header is used', async () => {
    const token = await makeToken('config_user');
    const file = places.config();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const config = {
      version: 1,
      providers: [
        {
          id: 'cursor',
          cookieSource: 'manual',
          cookieHeader: `WorkosCursorSessionToken=${token.cookieValue}`,
        },
      ],
    };
    fs.writeFileSync(file, BOM + JSON.stringify(config));
    await serve([token]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('config_user@example.com');
  });

  it("cursor-agent's auth.json with a BOM: its token is used", async () => {
    const agent = await makeToken('agent_user');
    prefixBom(writeAgentToken(scene.home, agent.jwt));
    await serve([agent]);
    const result = await usage();
    expect(result.code, result.stderr).toBe(0);
    expect(emailOf(result.stdout)).toBe('agent_user@example.com');
  });

  it('the cached cookie and the stored session with a BOM: each is used', async () => {
    const cached = await makeToken('cached_user');
    writeCachedCookie(scene.home, `WorkosCursorSessionToken=${cached.cookieValue}`);
    prefixBom(places.cached());
    await serve([cached]);
    const first = await usage();
    expect(first.code, first.stderr).toBe(0);
    expect(emailOf(first.stdout)).toBe('cached_user@example.com');

    fs.rmSync(places.cached());
    const stored = await makeToken('stored_user');
    writeStoredSession(scene.home, stored.cookieValue);
    prefixBom(places.stored());
    await serve([stored]);
    const second = await usage();
    expect(second.code, second.stderr).toBe(0);
    expect(emailOf(second.stdout)).toBe('stored_user@example.com');
  });
});

describe('CODEXBAR_CONFIG naming a missing file', () => {
  it('--verbose says so and the defaults are used', async () => {
    const agent = await makeToken('agent_user');
    writeAgentToken(scene.home, agent.jwt);
    await serve([agent]);
    const result = await usage(['--json', '--verbose'], { CODEXBAR_CONFIG: '~/nowhere/config.json' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '[cursor] CODEXBAR_CONFIG names ~/nowhere/config.json, which does not exist; using the defaults',
    );
  });
});

describe('a config lock whose content could not be written (a full disk)', () => {
  it('is removed again, so the next command does not wait for "another process"', async () => {
    fs.mkdirSync(path.dirname(places.config()), { recursive: true });
    fs.writeFileSync(places.config(), JSON.stringify({ version: 1, providers: [{ id: 'cursor' }] }));
    const full = await spawnCli(['config', 'disable', '--provider', 'cursor'], {
      home: scene.home,
      writesFail: true,
    });
    expect(full.code).toBe(1);
    expect(full.stderr).toContain('Cannot write the config file ~/.config/codexbar/config.json: EFBIG');
    expect(fs.existsSync(`${places.config()}.lock`)).toBe(false);
    const next = await scene.run(['config', 'disable', '--provider', 'cursor']);
    expect(next).toMatchObject({ code: 0, stderr: '' });
  });
});
