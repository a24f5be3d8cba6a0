import { lstat, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { LocalEnvironment } from '../local/environment.js';
import { readTextFile } from '../local/read-file.js';
import { codexbarCacheDir } from './cache-dir.js';
import { ensurePrivateDir, writePrivateFileAtomic } from './private-files.js';
import { type CachedSnapshot, decodeSnapshot } from './snapshot-codec.js';
import type { SnapshotFile } from './snapshot-format.js';

/**
 * The usage snapshots on disk (docs/behaviour.md §26.2): `<cache dir>/codexbar/usage/<account key>.json`,
 * one per account, 0600 in 0700 directories, replaced atomically. Zod-free: the caller passes the check,
 * zod's schema in the full CLI, the hand-written one on the statusline fast path.
 */

export function usageCacheDir(env: LocalEnvironment): string {
  return path.join(codexbarCacheDir(env), 'usage');
}

function snapshotPath(dir: string, account: string): string {
  return path.join(dir, `${account}.json`);
}

export type SnapshotRead =
  | { kind: 'ok'; cached: CachedSnapshot }
  /** No file, or one that cannot be used: corrupt, truncated, unreadable, another version or account. */
  | { kind: 'missing'; reason: string };

/** A corrupt, truncated, unreadable or other-version file counts as missing and is replaced by the next fetch. */
export async function readSnapshot(
  dir: string,
  account: string,
  isValid: (value: unknown) => value is SnapshotFile,
): Promise<SnapshotRead> {
  const read = await readTextFile(snapshotPath(dir, account));
  if (read.kind === 'missing') return { kind: 'missing', reason: 'no snapshot yet' };
  if (read.kind === 'unreadable') return { kind: 'missing', reason: `unreadable (${read.reason})` };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return { kind: 'missing', reason: 'not valid JSON' };
  }
  if (!isValid(json)) return { kind: 'missing', reason: 'not a version 1 snapshot' };
  // The name says whose it is; the content must agree, so a copied or renamed file is never shown.
  if (json.account !== account) return { kind: 'missing', reason: 'belongs to another account' };
  return { kind: 'ok', cached: decodeSnapshot(json) };
}

/** Creates the directories owner-only when needed and replaces the account's snapshot atomically. */
export async function writeSnapshot(dir: string, file: SnapshotFile): Promise<void> {
  await ensurePrivateDir(path.dirname(dir));
  await ensurePrivateDir(dir);
  await writePrivateFileAtomic(snapshotPath(dir, file.account), `${JSON.stringify(file)}\n`);
  await sweepTempFiles(dir, Date.now());
}

/** A temporary file this old was left by a writer that was killed; a live writer renames within seconds. */
const ABANDONED_TEMP_MS = 10 * 60_000;

/**
 * Removes temporary files (`*.tmp`) that killed writers left in the usage directory. Only old ones: a
 * concurrent writer's fresh temporary file is never touched. Best effort.
 */
async function sweepTempFiles(dir: string, nowMs: number): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.endsWith('.tmp'))) {
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile() && nowMs - info.mtimeMs > ABANDONED_TEMP_MS) await unlink(file).catch(() => {});
  }
}
