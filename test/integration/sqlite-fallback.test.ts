/**
 * The built CLI installed without a loadable better-sqlite3 (src/local/sqlite.ts): once with the package
 * missing (`npm install --omit=optional`), once with an addon that does not load (a failed build, another
 * Node's). Both are real installs of the bundle: bin/ and dist/ copied beside a node_modules of their own, so
 * the addon is looked up there. Where the running Node has node:sqlite (22.13 and later, `npm run test:node`)
 * codexbar uses it; on Node 20 it degrades. Either way nothing blames the user's files or session, no figure
 * is wrong, and doctor names the engine and the fix.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptLinuxV10 } from '../../fixtures/builders/browser-crypto.js';
import { createFirefoxCookies } from '../../fixtures/builders/browser-db.js';
import { firefoxRoot, writeFirefoxProfiles } from '../../fixtures/builders/browser-tree.js';
import { WORKED_NOW } from '../../fixtures/worked-example.js';
import { nodeSqliteEngine } from '../../src/local/sqlite-node.js';
import { seedAdminEvents, seedMembers } from '../fake-cursor/admin-seed.js';
import { startFakeAdmin } from '../fake-cursor/admin-server.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { workedAccount } from '../helpers/accounts.js';
import { addChromium, snapshotBrowsers } from '../helpers/browser-home.js';
import { builtCliExists, repoRoot, runCli, type SpawnOptions, spawnCli } from '../helpers/cli.js';
import { useScene } from '../helpers/scene.js';
import { ADMIN_KEY } from '../helpers/team-cli.js';

const COOKIE = 'user_fallback%3A%3Afallback-session';
const hasNodeSqlite = nodeSqliteEngine() !== undefined;
const expectedEngine = hasNodeSqlite ? 'node:sqlite' : 'none';

const scene = useScene();
let installs: string | undefined;

/** bin/ and dist/ as npm installs them, with `addon` deciding what node_modules/better-sqlite3 holds. */
function install(into: string, name: string, addon: 'missing' | 'broken'): string {
  const root = path.join(into, name);
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(repoRoot, 'bin'), path.join(root, 'bin'), { recursive: true });
  fs.cpSync(path.join(repoRoot, 'dist'), path.join(root, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, 'package.json'));
  if (addon === 'broken') {
    const modules = path.join(root, 'node_modules');
    const target = path.join(modules, 'better-sqlite3');
    const source = path.join(repoRoot, 'node_modules', 'better-sqlite3');
    fs.mkdirSync(path.join(target, 'build', 'Release'), { recursive: true });
    fs.cpSync(path.join(source, 'lib'), path.join(target, 'lib'), { recursive: true });
    fs.copyFileSync(path.join(source, 'package.json'), path.join(target, 'package.json'));
    // Not a shared object at all: what a failed or interrupted build leaves.
    fs.writeFileSync(path.join(target, 'build', 'Release', 'better_sqlite3.node'), 'not an addon\n');
    for (const dependency of ['bindings', 'file-uri-to-path']) {
      fs.symlinkSync(
        path.join(repoRoot, 'node_modules', dependency),
        path.join(modules, dependency),
        'junction',
      );
    }
  }
  return path.join(root, 'bin', 'codexbar.js');
}

const bins: Record<'missing' | 'broken', string> = { missing: '', broken: '' };

/**
 * `.ci/run` installs the packed tarball with npm itself, once with `--omit=optional` and once with
 * `--ignore-scripts` (the addon never built), and names the two prefixes here; without them the installs are
 * the copies above.
 */
const npmInstalls = process.env.CODEXBAR_TEST_NPM_INSTALLS;
const npmBin = (prefix: string) =>
  path.join(npmInstalls!, prefix, 'node_modules', 'codexbar', 'bin', 'codexbar.js');
const brokenReason = npmInstalls
  ? "better-sqlite3's addon was never built (its install script did not run)"
  : "better-sqlite3's addon does not load (ERR_DLOPEN_FAILED)";

beforeAll(() => {
  if (npmInstalls) {
    bins.missing = npmBin('omit-optional');
    bins.broken = npmBin('ignore-scripts');
    for (const bin of Object.values(bins)) if (!fs.existsSync(bin)) throw new Error(`${bin} is missing`);
    return;
  }
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: run `npm run build` before these tests');
  installs = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-installs-'));
  bins.missing = install(installs, 'missing', 'missing');
  bins.broken = install(installs, 'broken', 'broken');
});
afterAll(() => {
  if (installs) fs.rmSync(installs, { recursive: true, force: true });
});

function account(): FakeAccount {
  return workedAccount(COOKIE, {}, { count: 400, seed: 26 });
}

async function against(bin?: string, cookie: 'env' | 'browser' = 'env'): Promise<SpawnOptions> {
  const fake = await scene.serve([account()]);
  return {
    home: scene.home,
    now: WORKED_NOW,
    frozen: true,
    bin,
    env: {
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      ...(cookie === 'env' ? { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${COOKIE}` } : {}),
    },
  };
}

/**
 * What codexbar prints for a scenario with better-sqlite3 loaded, run once per file and in-process (the
 * worktree's own modules; only the degraded installs need a process of their own): the clock is frozen and
 * every scene is built the same, so the two addon cases compare against the same bytes.
 */
const healthyRuns = new Map<string, Promise<string>>();
function healthy(
  scenario: string,
  args: string[],
  options: () => Promise<SpawnOptions> = () => against(),
): Promise<string> {
  let run = healthyRuns.get(scenario);
  if (run === undefined) {
    run = (async () => {
      const result = await runCli(args, await options());
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return result.stdout;
    })();
    healthyRuns.set(scenario, run);
  }
  return run;
}

const storeDir = () => path.join(scene.home, '.cache', 'codexbar', 'cost');
const storeFiles = () => (fs.existsSync(storeDir()) ? fs.readdirSync(storeDir()) : []);

describe.each(['missing', 'broken'] as const)('better-sqlite3 %s', (addon) => {
  it(`doctor names the engine (${expectedEngine}), why better-sqlite3 is not it, and the fix`, async () => {
    const result = await spawnCli(['doctor', '--json'], await against(bins[addon]));
    expect(result.stderr).toBe('');
    const { sqlite, problems } = JSON.parse(result.stdout);
    expect(sqlite.engine).toBe(expectedEngine);
    expect(sqlite.reason).toBe(
      addon === 'missing' ? 'better-sqlite3 is not installed (an optional dependency)' : brokenReason,
    );
    expect(sqlite.fix).toMatch(
      addon === 'missing' ? /--allow-scripts=better-sqlite3/ : /npm rebuild better-sqlite3/,
    );
    const sqliteProblems = problems.filter((problem: { problem: string }) => /SQLite/.test(problem.problem));
    expect(sqliteProblems).toHaveLength(hasNodeSqlite ? 0 : 1);

    const text = await spawnCli(['doctor', '--no-color'], await against(bins[addon]));
    const line = text.stdout.split('\n').find((found) => found.startsWith('SQLite'));
    expect(line).toContain(hasNodeSqlite ? 'node:sqlite (SQLite 3.' : 'none: degraded');
  });

  it('cost shows the same figures as a healthy install, twice, with or without its store', async () => {
    const expected = await healthy('cost', ['cost', '--days', '30', '--json']);
    fs.rmSync(storeDir(), { recursive: true, force: true });

    const options = await against(bins[addon]);
    const cold = await spawnCli(['cost', '--days', '30', '--json'], options);
    expect(cold).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(cold.stdout).toBe(expected);
    expect(storeFiles().some((name) => name.endsWith('.sqlite'))).toBe(hasNodeSqlite);

    const warm = await spawnCli(['cost', '--days', '30', '--json', '--verbose'], options);
    expect(warm.code).toBe(0);
    expect(warm.stdout).toBe(expected);
    const said = warm.stderr.split('\n').filter((found) => /SQLite|event store/i.test(found));
    if (hasNodeSqlite) {
      expect(said.some((found) => found.includes('Event store:'))).toBe(true);
      expect(warm.stderr).not.toContain('ExperimentalWarning');
    } else {
      // Said once, with the fix; never as damage to the store or the session.
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/No event store this run: no SQLite engine: .*has no node:sqlite/);
      expect(warm.stderr).not.toMatch(/corrupt|not a readable SQLite|not logged in/i);
    }
  });
});

describe.each(['missing', 'broken'] as const)('team cost with better-sqlite3 %s', (addon) => {
  const members = seedMembers(6);
  const events = seedAdminEvents({
    members,
    count: 300,
    start: new Date(WORKED_NOW.getTime() - 6 * 86_400_000),
    end: new Date(WORKED_NOW.getTime() - 60_000),
    seed: 26,
  });

  /** The spawned CLI against a fake Admin API of its own. */
  async function teamOptions(bin?: string): Promise<SpawnOptions> {
    const admin = await startFakeAdmin({ apiKey: ADMIN_KEY, members, events });
    scene.defer(() => admin.close());
    return {
      home: scene.home,
      now: WORKED_NOW,
      frozen: true,
      bin,
      env: { CODEXBAR_CURSOR_ADMIN_BASE_URL: admin.url, CURSOR_ADMIN_API_KEY: ADMIN_KEY },
    };
  }

  it('shows the same figures as a healthy install, and says once that it ran without its store', async () => {
    const args = ['team', 'cost', '--days', '7', '--json'];
    const healthyOutput = await healthy('team', args, () => teamOptions());
    fs.rmSync(storeDir(), { recursive: true, force: true });

    const degraded = await spawnCli([...args, '--verbose'], await teamOptions(bins[addon]));

    expect(degraded.code, degraded.stderr).toBe(0);
    expect(degraded.stdout).toBe(healthyOutput);
    const said = degraded.stderr.split('\n').filter((line) => /event store/i.test(line));
    if (hasNodeSqlite) expect(said.some((line) => line.includes('Event store:'))).toBe(true);
    else {
      expect(said).toEqual([
        expect.stringMatching(/No event store this run: no SQLite engine: .*has no node:sqlite/),
      ]);
    }
    expect(degraded.stderr).not.toMatch(/corrupt|not a readable SQLite|ExperimentalWarning/i);
    expect(degraded.stderr).not.toContain(ADMIN_KEY);
  });
});

describe.each(['missing', 'broken'] as const)('browser cookies with better-sqlite3 %s', (addon) => {
  const created = new Date(WORKED_NOW.getTime() - 86_400_000);
  const expires = new Date(WORKED_NOW.getTime() + 30 * 86_400_000);
  const browsers = {
    /** A running Firefox: WAL mode, the session cookie only in its `-wal`. */
    firefox: () => {
      const dbs = writeFirefoxProfiles(firefoxRoot(scene.home, 'linux'), 'linux', [
        { name: 'default-release', folder: 'x.default-release' },
      ]);
      const live = createFirefoxCookies(
        dbs['default-release']!,
        [{ name: 'WorkosCursorSessionToken', value: COOKIE, created, expires }],
        { keepOpen: true },
      );
      scene.defer(() => live?.close());
    },
    /** Chromium's v10 cookies, whose key needs no keyring. */
    chromium: () => {
      addChromium(scene.home, 'linux', 'chromium', [
        { profile: 'Default', encrypt: encryptLinuxV10, session: COOKIE, created, expires },
      ]);
    },
  };

  it.each(['firefox', 'chromium'] as const)(
    'usage finds the %s session as a healthy install does, and changes no browser file',
    async (browser) => {
      browsers[browser]();
      const before = snapshotBrowsers(scene.home);
      const expected = await healthy(browser, ['usage', '--json'], () => against(undefined, 'browser'));
      const degraded = await spawnCli(
        ['usage', '--json', '--verbose'],
        await against(bins[addon], 'browser'),
      );
      expect(degraded.code, degraded.stderr).toBe(0);
      expect(degraded.stdout).toBe(expected);
      const said = degraded.stderr.split('\n').filter((line) => line.includes('no SQLite engine'));
      // Said once without an engine, with where to look for the fix; never with node:sqlite.
      expect(said).toEqual(
        hasNodeSqlite
          ? []
          : [
              expect.stringMatching(
                /Browser cookies: no SQLite engine, so read with codexbar's own page reader/,
              ),
            ],
      );
      expect(degraded.stderr).toContain('Using browser cookie from');
      expect(snapshotBrowsers(scene.home)).toEqual(before);
    },
  );
});
