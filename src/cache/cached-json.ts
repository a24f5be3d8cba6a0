import { readTextFileSync } from '../local/read-file-sync.js';

/** A cache file's JSON, or why there is none to use (every such file is then fetched again). */
export type CachedJson = { kind: 'json'; json: unknown } | { kind: 'missing'; reason: string };

/**
 * Reads a cache file through the one file reader (regular files only, never blocking, at most `limit`
 * bytes) and parses it; `absent` is the reason given when there is no file yet.
 */
export function readCachedJson(file: string, limit: number, absent: string): CachedJson {
  const read = readTextFileSync(file, limit);
  if (read.kind === 'missing') return { kind: 'missing', reason: absent };
  if (read.kind === 'unreadable') return { kind: 'missing', reason: `unreadable (${read.reason})` };
  try {
    return { kind: 'json', json: JSON.parse(read.text) };
  } catch {
    return { kind: 'missing', reason: 'not valid JSON' };
  }
}
