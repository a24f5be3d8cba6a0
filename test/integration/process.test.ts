/**
 * The built `bin/codexbar.js` in its own process, for what only a process shows: the `--version` fast
 * path (the one place that answers it), real exit codes, a reader that stops early (EPIPE) and signals.
 * Everything else runs in-process (test/helpers/cli.ts runCli). Needs `npm run build` (npm test builds).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKED_NOW, WORKED_SUMMARY } from '../../fixtures/worked-example.js';
import { generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { workedAccount } from '../helpers/accounts.js';
import { builtCliExists, repoRoot, type SpawnOptions, spawnCli, startCli } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { useScene } from '../helpers/scene.js';

const SESSION = 'process-session-cookie';
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }
).version;

const scene = useScene();
beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: run `npm run build` before these tests');
});

function account(overrides: Partial<FakeAccount> = {}): FakeAccount {
  return workedAccount(SESSION, overrides);
}

/** Spawn options against a fresh fake cursor.com serving `served`. */
async function against(served: FakeAccount, extra: Partial<SpawnOptions> = {}): Promise<SpawnOptions> {
  const fake = await scene.serve([served]);
  return {
    home: scene.home,
    now: WORKED_NOW,
    env: {
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}`,
    },
    ...extra,
  };
}

const NO_STACK = /^\s+at /m;

describe('--version is answered by the bin before the bundle loads', () => {
  it.each([[['--version']], [['-V']], [['cost', '--version']]])('codexbar %j', async (args) => {
    const result = await spawnCli(args, { home: scene.home });
    expect(result).toEqual({ code: 0, signal: null, stdout: `codexbar ${VERSION}\n`, stderr: '' });
  });
});

describe('exit codes of a real run', () => {
  it('a run that succeeds exits 0 with its JSON row on stdout', async () => {
    const result = await spawnCli(['usage', '--json'], await against(account()));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject([{ provider: 'cursor', source: 'web' }]);
  });

  it('a run that fails exits 1 with the error on stderr and no stack trace', async () => {
    // A final error (a 5xx is retried, and a built CLI's retry waits are real).
    const failing = account({ usageSummary: { status: 404, json: {} } });
    const result = await spawnCli(['usage'], await against(failing));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Cursor API error: HTTP 404/);
    expect(result.stderr).not.toMatch(NO_STACK);
  });
});

describe('the native SQLite addon', () => {
  // On Node 24, better-sqlite3 12 aborted the process (SIGABRT, nothing printed) when a statement was
  // collected outside JavaScript; test:node runs this file on Node 22 and 24 (src/local/sqlite.ts).
  it('a cold and a warm cost run through the event store both exit 0 with the same JSON', async () => {
    const cookie = 'user_process%3A%3Aprocess-session';
    const events = generateEvents({
      count: 1500,
      start: new Date(WORKED_NOW.getTime() - 20 * 86_400_000),
      end: WORKED_NOW,
      seed: 24,
    });
    const served = await against(account({ cookies: [cookie], events: { events } }));
    // A clock that stands still: the two runs' JSON (updatedAt, the window's end) must match byte for byte.
    const options = {
      ...served,
      frozen: true,
      env: { ...served.env, CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${cookie}` },
    };
    const cold = await spawnCli(['cost', '--days', '30', '--json'], options);
    const warm = await spawnCli(['cost', '--days', '30', '--json'], options);
    expect(cold).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(warm).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(warm.stdout).toBe(cold.stdout);
    expect(fs.readdirSync(path.join(scene.home, '.cache', 'codexbar', 'cost'))).toContainEqual(
      expect.stringMatching(/\.sqlite$/),
    );
  });
});

describe('a reader that closes early (EPIPE) ends the run quietly', () => {
  it('codexbar --help', async () => {
    const result = await spawnCli(['--help'], { home: scene.home, closeStdout: true });
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
  });

  it('codexbar usage --json', async () => {
    const result = await spawnCli(['usage', '--json'], await against(account(), { closeStdout: true }));
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(scene.fake!.requests.map((request) => request.path)).toContain('/api/usage-summary');
  });
});

describe('a signal during a request parked at cursor.com ends the process', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s', async (signal) => {
    let arrived: () => void = () => {};
    const parked = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    // The summary is never answered in the test's lifetime: only the signal can end the run before the
    // 15 s request budget would (and that would exit 4, not by the signal).
    const slow = account({
      usageSummary: () => {
        arrived();
        return { json: WORKED_SUMMARY, delayMs: 60_000 };
      },
    });
    const cli = startCli(['usage', '--json'], await against(slow));
    await parked;
    cli.child.kill(signal);
    const result = await cli.result;
    expect(result).toEqual({ code: null, signal, stdout: '', stderr: '' });
  });
});

describe('the compile cache in the cache dir', () => {
  const cacheDir = () => path.join(scene.home, '.cache', 'codexbar', 'compile-cache');
  /** The V8 code cache of the CLI bundle. */
  const bundleCache = () => fs.readdirSync(cacheDir()).filter((name) => /^cli\.cjs-.*\.v8$/.test(name));

  it('the first run leaves one 0600 file per bundle in a private directory; the next, compiled from it, prints the same, and a broken one is replaced', async () => {
    // Frozen, so the runs' JSON (updatedAt) matches byte for byte.
    const options = await against(account(), { frozen: true, coldCompileCache: true });
    const first = await spawnCli(['usage', '--json'], options);
    expect(first.code).toBe(0);
    expect(fs.statSync(cacheDir()).mode & 0o777).toBe(0o700);
    const [name, ...others] = bundleCache();
    expect(name).toBeDefined();
    expect(others).toEqual([]);
    const file = path.join(cacheDir(), name!);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const written = fs.readFileSync(file);
    expect(await spawnCli(['usage', '--json'], options)).toEqual(first);
    // Read, not rewritten: the second run compiled from it.
    expect(fs.readFileSync(file).equals(written)).toBe(true);

    fs.writeFileSync(file, 'not a code cache');
    expect(await spawnCli(['usage', '--json'], options)).toEqual(first);
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
  });

  it('a temp file a killed run left is removed once it is old; a fresh one is left to its writer', async () => {
    const options = await against(account(), { frozen: true, coldCompileCache: true });
    seedCompileCache(scene.home);
    const abandoned = path.join(cacheDir(), '.cli.cjs-abandoned.v8.4242.tmp');
    const fresh = path.join(cacheDir(), '.cli.cjs-fresh.v8.4343.tmp');
    fs.writeFileSync(abandoned, 'partial', { mode: 0o600 });
    fs.writeFileSync(fresh, 'partial', { mode: 0o600 });
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(abandoned, hourAgo, hourAgo);
    // The cache is rewritten (and the directory swept) when it was missing or rejected.
    for (const name of bundleCache()) fs.rmSync(path.join(cacheDir(), name));
    await spawnCli(['usage', '--json'], options);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(bundleCache()).toHaveLength(1);
  });

  it('a symlink where the cache file goes is neither read nor written through', async () => {
    const options = await against(account(), { frozen: true, coldCompileCache: true });
    seedCompileCache(scene.home);
    const file = path.join(cacheDir(), bundleCache()[0]!);
    const elsewhere = path.join(scene.home, 'elsewhere');
    fs.copyFileSync(file, elsewhere);
    const before = fs.readFileSync(elsewhere);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    const run = await spawnCli(['usage', '--json'], options);
    expect(run).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject([{ provider: 'cursor', source: 'web' }]);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    // Buffer#equals: toEqual walks a ~1 MB buffer element by element, many seconds of CPU.
    expect(fs.readFileSync(elsewhere).equals(before)).toBe(true);
  });
});
