import { join } from 'node:path';
import type { LocalEnvironment } from '../local/environment.js';
import { codexbarCacheDir } from './cache-dir.js';
import { readCachedJson } from './cached-json.js';
import { type CachedSnapshot, decodeSnapshot } from './snapshot-codec.js';
import { isSnapshotFile } from './snapshot-file.js';

/**
 * Reading the usage snapshots: `<cache dir>/codexbar/usage/<account key>.json`, one per account. Zod-free and
 * without `node:fs/promises`, for the statusline fast path. Writing is snapshot-write.ts.
 */

/** A snapshot is a few kilobytes; anything this large is not one of ours. */
const SNAPSHOT_LIMIT = 256 * 1024;

export function usageCacheDir(env: LocalEnvironment): string {
  return join(codexbarCacheDir(env), 'usage');
}

export function snapshotPath(dir: string, account: string): string {
  return join(dir, `${account}.json`);
}

export type SnapshotRead =
  | { kind: 'ok'; cached: CachedSnapshot }
  /** No file, or one that cannot be used: corrupt, truncated, unreadable, another version or account. */
  | { kind: 'missing'; reason: string };

/** A corrupt, truncated, unreadable or other-version file counts as missing and is replaced by the next fetch. */
export function readSnapshot(dir: string, account: string): SnapshotRead {
  const read = readCachedJson(snapshotPath(dir, account), SNAPSHOT_LIMIT, 'no snapshot yet');
  if (read.kind === 'missing') return read;
  const { json } = read;
  if (!isSnapshotFile(json)) return { kind: 'missing', reason: 'not a version 1 snapshot' };
  // The name says whose it is; the content must agree, so a copied or renamed file is never shown.
  if (json.account !== account) return { kind: 'missing', reason: 'belongs to another account' };
  return { kind: 'ok', cached: decodeSnapshot(json) };
}
