/**
 * The cached model catalog: `<cache dir>/codexbar/models/<account key>.json`, one per account, kept 24 h
 * (the answer is ~200 KB and changes rarely: docs/api2.md). Owner-only and atomic through private-files.ts
 * (docs/invariants.md, "Owner-only atomic files"), keyed by account, never by credential. The answer is kept
 * as the schema parsed it and parsed again on read: a corrupt, oversized, other-version, other-account or
 * other-server file counts as missing and the catalog is fetched again.
 */
import { join } from 'node:path';
import { type AvailableModels, availableModelsSchema } from '../api/api2/schemas/available-models.js';
import type { LocalEnvironment } from '../local/environment.js';
import { codexbarCacheDir } from './cache-dir.js';
import { readCachedJson } from './cached-json.js';
import { ensurePrivateDir, writePrivateFileAtomic } from './private-files.js';
import { ACCOUNT_KEY } from './snapshot-file.js';

const MODELS_CACHE_MS = 24 * 60 * 60 * 1000;
const MODELS_FILE_VERSION = 1;
/** Larger than any answer the client accepts is not one of ours. */
const MODELS_FILE_LIMIT = 8 * 1024 * 1024;

export interface CachedModels {
  fetchedAt: Date;
  answer: AvailableModels;
}

export function modelsCacheDir(env: LocalEnvironment): string {
  return join(codexbarCacheDir(env), 'models');
}

function modelsPath(dir: string, account: string): string {
  return join(dir, `${account}.json`);
}

export type ModelsRead = { kind: 'ok'; cached: CachedModels } | { kind: 'missing'; reason: string };

export function readModels(dir: string, account: string, api2BaseUrl: string): ModelsRead {
  const read = readCachedJson(modelsPath(dir, account), MODELS_FILE_LIMIT, 'no cached catalog yet');
  if (read.kind === 'missing') return read;
  const { json } = read;
  const file = json as Record<string, unknown> | null;
  if (typeof file !== 'object' || file === null || file.version !== MODELS_FILE_VERSION) {
    return { kind: 'missing', reason: 'not a version 1 catalog' };
  }
  if (file.account !== account || typeof file.account !== 'string' || !ACCOUNT_KEY.test(file.account)) {
    return { kind: 'missing', reason: 'belongs to another account' };
  }
  if (file.baseUrl !== api2BaseUrl) return { kind: 'missing', reason: 'fetched from another server' };
  const fetchedAt = typeof file.fetchedAt === 'string' ? new Date(file.fetchedAt) : new Date(Number.NaN);
  if (Number.isNaN(fetchedAt.getTime())) return { kind: 'missing', reason: 'no fetch time' };
  const answer = availableModelsSchema.safeParse(file.answer);
  if (!answer.success) return { kind: 'missing', reason: 'not an AvailableModels answer' };
  return { kind: 'ok', cached: { fetchedAt, answer: answer.data } };
}

/** Young enough to show: fetched less than 24 h ago, and not in the future (a clock set back). */
export function isFresh(cached: CachedModels, now: Date): boolean {
  const age = now.getTime() - cached.fetchedAt.getTime();
  return age >= 0 && age < MODELS_CACHE_MS;
}

export function writeModels(dir: string, account: string, api2BaseUrl: string, cached: CachedModels): void {
  ensurePrivateDir(join(dir, '..'));
  ensurePrivateDir(dir);
  const file = {
    version: MODELS_FILE_VERSION,
    account,
    baseUrl: api2BaseUrl,
    fetchedAt: cached.fetchedAt.toISOString(),
    answer: cached.answer,
  };
  writePrivateFileAtomic(modelsPath(dir, account), `${JSON.stringify(file)}\n`);
}
