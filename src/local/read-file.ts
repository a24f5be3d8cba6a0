import type { z } from 'zod';
import { errorCode, readTextFileSync, type TextFileReadSync } from './read-file-sync.js';

export { errorCode };

/** JSON files we read (config, auth files, cookie files) are small; a larger one is refused, not loaded. */
export const JSON_FILE_LIMIT = 1024 * 1024;

/** A JSON file checked against a schema: as `readTextFile` answers, or malformed (never quoting the file). */
export type JsonFileRead<T> =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'ok'; value: T };

/**
 * Reads a file without creating, changing or locking anything. It opens without blocking and reads only a
 * regular file, so a named pipe or a device such as /dev/zero can never hang or balloon the run, and it stops
 * at `limit` bytes (docs/invariants.md, "Regular files only, never a blocking read"). Symlinks are followed;
 * a dangling one counts as missing. A UTF-8 byte-order mark is dropped. The read itself is
 * `readTextFileSync`'s: a regular file of at most a MiB reads in well under a millisecond, so one
 * implementation serves both the CLI and the fast path.
 */
export async function readTextFile(filePath: string, limit = JSON_FILE_LIMIT): Promise<TextFileReadSync> {
  return readTextFileSync(filePath, limit);
}

/**
 * `readTextFile`, then JSON, then the schema. `what` names the expected content (`a cursor-agent login`): a
 * file the schema refuses is `not <what>`, so no value from it is ever quoted.
 */
export async function readJsonFile<T>(
  filePath: string,
  schema: z.ZodType<T>,
  what: string,
  limit = JSON_FILE_LIMIT,
): Promise<JsonFileRead<T>> {
  const read = await readTextFile(filePath, limit);
  if (read.kind !== 'ok') return read;
  const json = parseJson(read.text);
  if (!json.ok) return { kind: 'malformed', reason: json.reason };
  const parsed = schema.safeParse(json.value);
  return parsed.success ? { kind: 'ok', value: parsed.data } : { kind: 'malformed', reason: `not ${what}` };
}

type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON.parse whose failure reason keeps only the position: V8's message can quote the text, i.e. a credential. */
function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const position =
      error instanceof Error ? /position \d+(?: \(line \d+ column \d+\))?/.exec(error.message) : null;
    return { ok: false, reason: position ? `invalid JSON at ${position[0]}` : 'invalid JSON' };
  }
}
