/**
 * How long readAppAccessToken takes on a large idle-WAL state.vscdb (reading the token must stay fast for a
 * multi-GB database). Prints figures; asserts nothing about time.
 *
 *   npx tsx bench/token-read.ts [sizeGB]      (default 1; the file is cached under ./.bench-tmp/)
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateLargeVscdb, openActiveWalWriter } from '../fixtures/builders/vscdb.js';
import { readAppAccessToken } from '../src/auth/app-db.js';
import { median, ms, repoRoot } from './lib/measure.js';

const RUNS = 21;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhdXRoMHxiZW5jaCJ9.YmVuY2gtc2lnbmF0dXJl';

const sizeGB = Number(process.argv[2] ?? '1');
if (!Number.isFinite(sizeGB) || sizeGB <= 0)
  throw new Error(`size must be a positive number of GB, got ${process.argv[2]}`);

const folder = path.join(repoRoot, '.bench-tmp', `state-vscdb-${sizeGB}GB`);
const dbPath = path.join(folder, 'state.vscdb');

if (!fs.existsSync(dbPath)) {
  fs.mkdirSync(folder, { recursive: true });
  const started = performance.now();
  const partial = `${dbPath}.partial`;
  fs.rmSync(partial, { force: true });
  generateLargeVscdb(partial, sizeGB * 1024 ** 3, TOKEN);
  fs.renameSync(partial, dbPath);
  console.log(`generated ${dbPath} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const sidecars = fs.readdirSync(folder).filter((name) => name !== 'state.vscdb');
if (sidecars.length > 0)
  throw new Error(`expected an idle WAL database, found ${sidecars.join(', ')} in ${folder}`);
const size = fs.statSync(dbPath).size;

async function timedRead(file: string, expected: string): Promise<number> {
  const started = performance.now();
  const result = await readAppAccessToken(file);
  const elapsed = performance.now() - started;
  if (result.kind !== 'token' || result.token !== expected)
    throw new Error(`unexpected result: ${result.kind}`);
  return elapsed;
}

async function samplesOf(file: string, expected: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await timedRead(file, expected));
  return samples;
}

function summary(samples: number[]): string {
  return `${ms(median(samples))} (min ${ms(Math.min(...samples))}, max ${ms(Math.max(...samples))})`;
}

const first = await timedRead(dbPath, TOKEN);
const samples = await samplesOf(dbPath, TOKEN);

const leftBehind = fs.readdirSync(folder).filter((name) => name !== 'state.vscdb');
console.log(`state.vscdb: ${(size / 1024 ** 3).toFixed(2)} GiB, idle WAL mode (no -wal/-shm)`);
console.log(`readAppAccessToken, first call in process: ${ms(first)}`);
console.log(`readAppAccessToken, median of ${RUNS}: ${summary(samples)}`);
console.log(
  `files created next to the database: ${leftBehind.length === 0 ? 'none' : leftBehind.join(', ')}`,
);

// "Cursor running": a throwaway copy whose writer holds the token in an active -wal, read through SQLite.
const liveFolder = path.join(repoRoot, '.bench-tmp', `state-vscdb-${sizeGB}GB-live`);
fs.rmSync(liveFolder, { recursive: true, force: true });
fs.mkdirSync(liveFolder, { recursive: true });
const livePath = path.join(liveFolder, 'state.vscdb');
fs.copyFileSync(dbPath, livePath);
const writer = openActiveWalWriter(livePath);
try {
  writer.setToken(`${TOKEN}.live`);
  const live = await samplesOf(livePath, `${TOKEN}.live`);
  console.log(`with Cursor running (SQLite reads the live -wal), median of ${RUNS}: ${summary(live)}`);
} finally {
  writer.close();
  fs.rmSync(liveFolder, { recursive: true, force: true });
}
