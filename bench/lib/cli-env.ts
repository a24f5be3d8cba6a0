/**
 * Sandboxing for benchmark runs of the built CLI: a throwaway HOME, an environment with nothing from the
 * user's own (no real Cursor login, config or proxy can leak in), and the fake cursor.com's URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binPath, repoRoot } from './measure.js';

const builtCli = path.join(repoRoot, 'dist', 'cli.cjs');

/** Fails early with the fix when `npm run build` has not been run. */
function requireBuild(): void {
  if (!fs.existsSync(builtCli)) throw new Error('dist/cli.cjs is missing; run `npm run build` first.');
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A private copy of bin/, dist/ and package.json (node_modules linked), so every run measures the same
 * build even when someone rebuilds dist/ meanwhile (tsup empties it first). Returns the copy's bin path.
 * `withoutAddon`: no node_modules at all, as `npm install --omit=optional` leaves it (the bundles need only
 * better-sqlite3 from there), so the run takes node:sqlite or no engine (src/local/sqlite.ts).
 */
export function snapshotBuild(options: { withoutAddon?: boolean } = {}): string {
  // A rebuild in progress leaves dist/ empty for a moment: wait for it, boundedly.
  for (let waited = 0; !fs.existsSync(builtCli) && waited < 30_000; waited += 250) sleepSync(250);
  requireBuild();
  const root = makeTempDir('codexbar-bench-build-');
  for (const part of ['bin', 'dist'])
    fs.cpSync(path.join(repoRoot, part), path.join(root, part), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(root, 'package.json'));
  if (!options.withoutAddon)
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'junction');
  return path.join(root, path.relative(repoRoot, binPath));
}

/** Temp dirs made by this run, removed by cleanupTempDirs() whatever happens. */
const tempDirs: string[] = [];

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** PATH, HOME, TZ=UTC and the fake's URL; `extra` adds (or, with undefined, removes) variables. */
export function cliEnv(
  home: string,
  baseUrl: string,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    TZ: 'UTC',
    CODEXBAR_CURSOR_BASE_URL: baseUrl,
  };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The first `--json` row on stdout; throws when the CLI printed something else or an error row. */
export function jsonRow(stdout: string, what: string): Record<string, unknown> {
  const rows = JSON.parse(stdout) as unknown;
  const row = Array.isArray(rows) ? (rows[0] as Record<string, unknown> | undefined) : undefined;
  if (!row || typeof row !== 'object') throw new Error(`${what}: no JSON row on stdout`);
  if ('error' in row) throw new Error(`${what}: error row ${JSON.stringify(row.error)}`);
  return row;
}

/** Runs a benchmark's `main`, then closes the fake server it started (if any) and removes the temp dirs. */
export async function runBench<F extends { close(): Promise<void> }>(
  main: (fakeRef: { fake?: F }) => Promise<void>,
): Promise<void> {
  const fakeRef: { fake?: F } = {};
  try {
    await main(fakeRef);
  } finally {
    await fakeRef.fake?.close();
    cleanupTempDirs();
  }
}
