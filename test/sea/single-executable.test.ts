/**
 * The single executable (`npm run build:sea`, docs/single-executable.md) run as a user would run it, against
 * the fake cursor.com, beside the npm install's bin/codexbar.js on the same HOME layout: the same bytes out,
 * node:sqlite as its engine with nothing to fix, its own process started for a stale prompt's refresh, and
 * files written only where the npm install writes them. `npm run test:sea` builds it first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WORKED_NOW } from '../../fixtures/worked-example.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { workedAccount } from '../helpers/accounts.js';
import { builtCliExists, repoRoot, type SpawnOptions, spawnCli } from '../helpers/cli.js';
import { openScene, type Scene } from '../helpers/scene.js';
import { freePort, httpGet, until } from '../helpers/serve.js';
import { spawnServe } from '../helpers/serve-process.js';

const EXECUTABLE = path.join(
  repoRoot,
  'dist-sea',
  process.platform === 'win32' ? 'codexbar.exe' : 'codexbar',
);
const COOKIE = 'user_sea%3A%3Asea-session';
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

beforeAll(() => {
  if (!fs.existsSync(EXECUTABLE))
    throw new Error(`${EXECUTABLE} is missing: run \`npm run build:sea\` first`);
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: run `npm run build` first');
});

function account(): FakeAccount {
  return workedAccount(COOKIE, {}, { count: 400, seed: 26 });
}

type Install = 'npm' | 'executable';

/** One scene per install: its own HOME and TMPDIR, the same fake account. */
async function sceneFor(): Promise<Scene & { close(): Promise<void> }> {
  const scene = openScene();
  await scene.serve([account()]);
  return scene;
}

function options(scene: Scene, install: Install, now = WORKED_NOW): SpawnOptions {
  return {
    home: scene.home,
    now,
    frozen: true,
    // The npm install writes its compile cache as a user's first run does.
    coldCompileCache: true,
    ...(install === 'executable' ? { executable: EXECUTABLE } : {}),
    env: {
      TMPDIR: scene.tmp,
      CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
      CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${COOKIE}`,
    },
  };
}

/** Every file and directory under `root`, relative, sorted. */
function tree(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map((entry) => entry.split(path.sep).join('/'))
    .sort();
}

/** What the runs below leave, with the per-file names (the account's hash) kept: both installs must agree. */
async function session(install: Install): Promise<{ outputs: string[]; home: string[]; tmp: string[] }> {
  const scene = await sceneFor();
  try {
    const outputs: string[] = [];
    for (const argv of [
      ['usage', '--json'],
      ['usage', '--no-color'],
      ['cost', '--days', '30', '--json'],
      ['cost', '--days', '30', '--json'],
      ['statusline'],
      ['statusline', '--json'],
    ]) {
      const result = await spawnCli(argv, options(scene, install));
      expect(result, `${install}: codexbar ${argv.join(' ')}`).toMatchObject({
        code: 0,
        signal: null,
        stderr: '',
      });
      outputs.push(result.stdout);
    }
    return { outputs, home: tree(scene.home), tmp: tree(scene.tmp) };
  } finally {
    await scene.close();
  }
}

describe('the single executable', () => {
  it('says its version, the package.json one', async () => {
    const scene = await sceneFor();
    try {
      const result = await spawnCli(['--version'], options(scene, 'executable'));
      expect(result).toMatchObject({ code: 0, stdout: `codexbar ${version}\n`, stderr: '' });
    } finally {
      await scene.close();
    }
  });

  it('prints what the npm install prints for usage, cost and statusline, and writes only where it writes', async () => {
    const npm = await session('npm');
    const executable = await session('executable');
    expect(executable.outputs).toEqual(npm.outputs);
    expect(executable.outputs[0]).toContain('"provider":"cursor"');
    // The executable carries its code cache inside: it writes no compile cache, and nothing else the npm
    // install does not.
    const npmHome = new Set(npm.home);
    expect(executable.home.filter((entry) => !npmHome.has(entry))).toEqual([]);
    expect(executable.home).toEqual(npm.home.filter((entry) => !entry.includes('compile-cache')));
    expect(executable.home.some((entry) => /codexbar\/cost\/.+\.sqlite$/.test(entry))).toBe(true);
    expect(executable.tmp).toEqual([]);
    expect(npm.tmp).toEqual([]);
  });

  it('keeps its event store with node:sqlite: the second cost run reads it back and verifies it', async () => {
    const scene = await sceneFor();
    try {
      const cold = await spawnCli(['cost', '--days', '30', '--json'], options(scene, 'executable'));
      const warm = await spawnCli(
        ['cost', '--days', '30', '--json', '--verbose'],
        options(scene, 'executable'),
      );
      expect(warm.code).toBe(0);
      expect(warm.stdout).toBe(cold.stdout);
      expect(warm.stderr).toMatch(/From the event store: .*\(verified by count and totals\)/);
      expect(warm.stderr).not.toMatch(/ExperimentalWarning|SQLite engine/);
    } finally {
      await scene.close();
    }
  });

  it('doctor names node:sqlite as its engine, with nothing to fix', async () => {
    const scene = await sceneFor();
    try {
      const result = await spawnCli(['doctor', '--json'], options(scene, 'executable'));
      const report = JSON.parse(result.stdout);
      expect(report.sqlite).toEqual({
        engine: 'node:sqlite',
        version: expect.stringMatching(/^3\.\d+\.\d+$/),
      });
      expect(report.node.version).toMatch(/^v26\./);
      expect(
        report.problems.filter((found: { problem: string }) => /SQLite|Node/.test(found.problem)),
      ).toEqual([]);
    } finally {
      await scene.close();
    }
  });

  it('answers a stale prompt at once and refreshes it in a process of its own', async () => {
    const scene = await sceneFor();
    try {
      expect((await spawnCli(['usage', '--json'], options(scene, 'executable'))).code).toBe(0);
      const usageDir = path.join(scene.home, '.cache', 'codexbar', 'usage');
      const [snapshot] = fs.readdirSync(usageDir).filter((name) => name.endsWith('.json'));
      const fetchedAt = () => JSON.parse(fs.readFileSync(path.join(usageDir, snapshot!), 'utf8')).fetchedAt;
      const before = fetchedAt();
      const later = new Date(WORKED_NOW.getTime() + 10 * 60_000);
      const stale = await spawnCli(['statusline'], options(scene, 'executable', later));
      expect(stale).toMatchObject({ code: 0, stderr: '' });
      expect(stale.stdout).toMatch(/^~Cursor \d+% left/);
      // The refresh runs as `codexbar __refresh …` of the same executable, at the same (pinned) clock.
      await until(() => fetchedAt() !== before, 'the background refresh', 20_000);
      expect(fetchedAt()).toBe(later.toISOString());
      const fresh = await spawnCli(['statusline'], options(scene, 'executable', later));
      expect(fresh.stdout).toMatch(/^Cursor \d+% left/);
    } finally {
      await scene.close();
    }
  });

  it('serves the dashboard and /usage', async () => {
    const scene = await sceneFor();
    try {
      const port = await freePort();
      const served = await spawnServe(
        EXECUTABLE,
        ['--port', String(port)],
        {
          PATH: process.env.PATH ?? '',
          HOME: scene.home,
          TMPDIR: scene.tmp,
          CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
          CODEXBAR_CURSOR_API2_BASE_URL: scene.fake!.url,
          CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${COOKIE}`,
        },
        { executable: true },
      );
      try {
        const usage = await httpGet('127.0.0.1', served.port, '/usage');
        expect(usage.status).toBe(200);
        expect(usage.json()).toMatchObject([{ provider: 'cursor', usage: { primary: { usedPercent: 42 } } }]);
        const page = await httpGet('127.0.0.1', served.port, '/');
        expect(page.status).toBe(200);
        expect(page.body).toContain('<html');
      } finally {
        served.child.kill('SIGTERM');
        expect(await served.exited).toEqual({ code: 0, signal: null });
      }
    } finally {
      await scene.close();
    }
  });
});
