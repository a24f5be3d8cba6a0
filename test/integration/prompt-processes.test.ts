import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { isSnapshotFile } from '../../src/cache/snapshot-file.js';
import { acquireRefreshLock, handOverRefreshLock } from '../../src/statusline/refresh-lock.js';
import { type CliResult, outputOf, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { promptScene, summaryRequests, usageDir, usageFiles } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/**
 * Stale-while-revalidate and the fast path with real processes: the built bin/codexbar.js, because what is
 * under test is how separate processes share the cache and its lock, start detached refreshes, and survive
 * SIGKILL.
 */

const scene = useScene(promptScene());
const bin = path.join(repoRoot, 'bin', 'codexbar.js');
const keyA = accountKey({ userId: 'user_prompt_a' });
const snapshotFile = () => path.join(usageDir(scene), `${keyA}.json`);
const lockFile = () => path.join(usageDir(scene), `${keyA}.lock`);

function start(
  args: readonly string[],
  stdin: 'ignore' | 'pipe' = 'ignore',
  stdout: 'pipe' | number = 'pipe',
): ChildProcess {
  // The warm cache covers both bundles, so no process here writes one, and no detached refresh is still
  // writing into HOME as the scene removes it.
  seedCompileCache(scene.home);
  return spawn(process.execPath, [bin, ...args], {
    cwd: scene.home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: scene.home,
      TZ: 'UTC',
      CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
    },
    stdio: [stdin, stdout, 'pipe'],
  });
}

async function finished(child: ChildProcess): Promise<CliResult> {
  const { code, stdout, stderr } = await outputOf(child);
  return { code, stdout, stderr };
}

/** Polls (bounded) for something another process does; the processes, not a timer, decide when. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 25) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A snapshot saved live now (real clock, as the processes use), then aged past the statusline's 60 s. */
async function staleSnapshot(): Promise<string> {
  expect((await scene.run(['usage', '--json'], { now: new Date(), frozen: false })).code).toBe(0);
  const file = JSON.parse(fs.readFileSync(snapshotFile(), 'utf8'));
  const old = new Date(Date.now() - 10 * 60_000).toISOString();
  fs.writeFileSync(snapshotFile(), JSON.stringify({ ...file, fetchedAt: old }));
  return old;
}

const fetchedAt = () => JSON.parse(fs.readFileSync(snapshotFile(), 'utf8')).fetchedAt as string;

describe('processes sharing one snapshot', () => {
  it('12 statusline processes started together on a stale snapshot make exactly one request wave', async () => {
    const old = await staleSnapshot();
    // A lock left by a refresh that died: all 12 find it stale at once, and only one may take it over.
    // (`node --version` ends before V8 starts: a pid that is surely gone, at a tenth of `node -e 0`.)
    const deadPid = spawnSync(process.execPath, ['--version']).pid!;
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: deadPid, nonce: 'dead', startedAt: Date.now() }));
    const before = summaryRequests(scene);

    const results = await Promise.all(Array.from({ length: 12 }, () => finished(start(['statusline']))));
    await eventually(() => !fs.existsSync(lockFile()) && fetchedAt() !== old, 'the background refresh');

    // Stale, or already fresh for a process that started after the refresh had finished.
    for (const result of results) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^~?Cursor 55% left · /);
    }
    expect(results.some((result) => result.stdout.startsWith('~'))).toBe(true);
    expect(summaryRequests(scene) - before).toBe(1);
    expect(new Set(scene.fake!.requests.slice(-4).map((request) => request.path)).size).toBeGreaterThan(1);
  });

  it('5 usage runs at once each save the snapshot: one whole, valid file is left, and no temp file', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => finished(start(['usage', '--json']))));
    for (const result of results) expect(result.code).toBe(0);
    expect(summaryRequests(scene)).toBe(5);
    expect(isSnapshotFile(JSON.parse(fs.readFileSync(snapshotFile(), 'utf8')))).toBe(true);
    expect(usageFiles(scene).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('never reads stdin: Claude Code pipes JSON in and keeps the pipe open', async () => {
    // The first run has no snapshot (the full CLI fetches live), the second answers from the fast path.
    for (let run = 0; run < 2; run++) {
      const child = start(['statusline'], 'pipe');
      child.stdin?.write('{"session_id":"x","model":{"display_name":"Opus"}}\n');
      const result = await finished(child);
      child.stdin?.destroy();
      expect(result.stdout).toMatch(/^Cursor 55% left · /);
    }
    expect(summaryRequests(scene)).toBe(1);
  });
});

describe('the fast path writes without process.stdout, and still', () => {
  it('ends quietly when the reader has gone (EPIPE)', async () => {
    await scene.run(['statusline'], { now: new Date(), frozen: false });
    const child = start(['statusline']);
    child.stdout?.destroy();
    const result = await finished(child);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('says why and exits 1 when the line cannot be written (a full disk)', async () => {
    if (!fs.existsSync('/dev/full')) return;
    await scene.run(['statusline'], { now: new Date(), frozen: false });
    const full = fs.openSync('/dev/full', 'w');
    try {
      const result = await finished(start(['statusline'], 'ignore', full));
      expect(result).toEqual({ code: 1, stdout: '', stderr: 'Error: cannot write output: ENOSPC\n' });
    } finally {
      fs.closeSync(full);
    }
  });
});

describe('the fast path bundle', () => {
  it('loads nothing but fs and path up front: no HTTP client, zod, commander, table renderer or crypto', () => {
    const bundle = fs.readFileSync(path.join(repoRoot, 'dist', 'statusline.cjs'), 'utf8');
    const required = [...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]);
    const lazy = [...bundle.matchAll(/\bgetBuiltinModule\("([^"]+)"\)/g)].map((match) => match[1]);

    expect(new Set(required)).toEqual(new Set(['node:fs', 'node:path']));
    // Fetched only when needed: a key to compute, a home to look up, a refresh to start (and whether this is
    // the single executable, which starts it without a script).
    expect(new Set(lazy)).toEqual(new Set(['node:crypto', 'node:os', 'node:child_process', 'node:sea']));
    expect(bundle).not.toMatch(/\bimport\(/);
    for (const marker of ['ZodError', 'undici', 'CommanderError', 'cli-table3', 'llhttp']) {
      expect(bundle).not.toContain(marker);
    }
  });
});

describe('a refresh killed with SIGKILL', () => {
  it('half-way through its requests leaves the old snapshot, and the next run refreshes', async () => {
    const old = await staleSnapshot();
    const attempt = acquireRefreshLock(lockFile(), { now: Date.now() });
    if (attempt.kind !== 'acquired') throw new Error('lock');
    scene.fake!.setLatency(25_000);
    const before = summaryRequests(scene);

    const child = start(['__refresh', '--account', keyA, '--lock', attempt.nonce, '--source', 'auto']);
    const done = finished(child);
    handOverRefreshLock(lockFile(), attempt.nonce, child.pid!);
    await eventually(() => summaryRequests(scene) > before, 'the refresh to be waiting on cursor.com');
    child.kill('SIGKILL');
    await done;

    const left = JSON.parse(fs.readFileSync(snapshotFile(), 'utf8'));
    expect(isSnapshotFile(left)).toBe(true);
    expect(left.fetchedAt).toBe(old);

    scene.fake!.setLatency(0);
    const next = await finished(start(['statusline']));
    expect(next.stdout).toMatch(/^~Cursor 55% left/);
    await eventually(() => fetchedAt() !== old && !fs.existsSync(lockFile()), 'the next refresh');
  });

  it('at any moment leaves a complete snapshot, old or new', async () => {
    await staleSnapshot();
    for (const delayMs of [0, 40, 80, 160, 320]) {
      const attempt = acquireRefreshLock(lockFile(), { now: Date.now(), isAlive: () => false });
      if (attempt.kind !== 'acquired') throw new Error('lock');
      const child = start(['__refresh', '--account', keyA, '--lock', attempt.nonce, '--source', 'auto']);
      const done = finished(child);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.kill('SIGKILL');
      await done;

      expect(isSnapshotFile(JSON.parse(fs.readFileSync(snapshotFile(), 'utf8')))).toBe(true);
      fs.rmSync(lockFile(), { force: true });
    }
  });
});

describe('many runs writing one snapshot', () => {
  it('20 concurrent usage --json runs always leave a parseable 0600 file, even while being written', async () => {
    await scene.run(['usage', '--json']);
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        const text = await fs.promises.readFile(snapshotFile(), 'utf8');
        expect(isSnapshotFile(JSON.parse(text))).toBe(true);
        reads += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    const runs = await Promise.all(Array.from({ length: 20 }, () => scene.run(['usage', '--json'])));
    reading = false;
    await reader;

    expect(runs.every((run) => run.code === 0)).toBe(true);
    expect(summaryRequests(scene)).toBe(21);
    expect(reads).toBeGreaterThan(0);
    expect(fs.statSync(snapshotFile()).mode & 0o777).toBe(0o600);
    expect(isSnapshotFile(JSON.parse(fs.readFileSync(snapshotFile(), 'utf8')))).toBe(true);
    expect(usageFiles(scene).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
