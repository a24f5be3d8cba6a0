import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { z } from 'zod';
import { describeFsError, describeSize, errorCode } from './read-file-sync.js';

export { errorCode };

/** JSON files we read (config, auth files, cookie files) are small; a larger one is refused, not loaded. */
const JSON_FILE_LIMIT = 1024 * 1024;

/** A read-only look at a local file: missing, unreadable (with a reason), or its text. */
export type TextFileRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'ok'; text: string };

/** The same for a JSON file checked against a schema; `malformed` never quotes the file. */
export type JsonFileRead<T> =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'ok'; value: T };

/**
 * Reads a file without creating, changing or locking anything (docs/behaviour.md §1.1). It opens without
 * blocking and reads only a regular file, so a named pipe or a device such as /dev/zero can never hang or
 * balloon the run, and it stops at `limit` bytes. Symlinks are followed; a dangling one counts as missing.
 * A UTF-8 byte-order mark is dropped.
 */
export async function readTextFile(filePath: string, limit = JSON_FILE_LIMIT): Promise<TextFileRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever (not defined on Windows).
    handle = await open(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: describeFsError(code) };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { kind: 'unreadable', reason: 'it is a directory' };
    if (!stat.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (stat.size > limit) return { kind: 'unreadable', reason: `larger than ${describeSize(limit)}` };
    // The file may grow between stat and read: one byte more than the limit proves it did.
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > limit) return { kind: 'unreadable', reason: `larger than ${describeSize(limit)}` };
    }
    const start = length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    return { kind: 'ok', text: buffer.toString('utf8', start, length) };
  } catch (error) {
    return { kind: 'unreadable', reason: describeFsError(errorCode(error)) };
  } finally {
    await handle.close();
  }
}

/**
 * `readTextFile`, then JSON, then the schema. `what` names the expected content (`a cursor-agent login`), or
 * describes the schema's complaints without quoting values from the file.
 */
export async function readJsonFile<T>(
  filePath: string,
  schema: z.ZodType<T>,
  what: string | ((error: z.ZodError, json: unknown) => string),
): Promise<JsonFileRead<T>> {
  const read = await readTextFile(filePath);
  if (read.kind !== 'ok') return read;
  const json = parseJson(read.text);
  if (!json.ok) return { kind: 'malformed', reason: json.reason };
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return { kind: 'ok', value: parsed.data };
  return {
    kind: 'malformed',
    reason: typeof what === 'string' ? `not ${what}` : what(parsed.error, json.value),
  };
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
