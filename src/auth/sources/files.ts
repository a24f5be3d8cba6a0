import { readFile } from 'node:fs/promises';

/** A read-only look at a local file: missing, unreadable (with a reason), or its text. */
export type TextFileRead =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'ok'; text: string };

/**
 * Reads a file without creating, changing or chmod-ing anything (docs/behaviour.md §1.1). Symlinks are
 * followed; a dangling one counts as missing.
 */
export async function readTextFile(filePath: string): Promise<TextFileRead> {
  try {
    return { kind: 'ok', text: await readFile(filePath, 'utf8') };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: describeFsError(code) };
  }
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** JSON.parse whose failure reason keeps only the position: V8's message can quote the text, i.e. a credential. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const position =
      error instanceof Error ? /position \d+(?: \(line \d+ column \d+\))?/.exec(error.message) : null;
    return { ok: false, reason: position ? `invalid JSON at ${position[0]}` : 'invalid JSON' };
  }
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

function describeFsError(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return code ?? 'read failed';
  }
}
