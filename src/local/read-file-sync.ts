import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/**
 * The one bounded, non-blocking read of a small local file (its rules are on `readTextFile` in read-file.ts,
 * which wraps it). Synchronous, so the statusline fast path can use it without loading `node:fs/promises`.
 * Answers: missing, unreadable with a reason, or the text.
 */

/** The read cap of a lock file (config.json.lock, the refresh lock): far more than its JSON. */
export const LOCK_FILE_LIMIT = 4096;

export type TextFileReadSync =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'ok'; text: string };

export function readTextFileSync(filePath: string, limit: number): TextFileReadSync {
  const opened = openRegularFileSync(filePath);
  if (opened.kind !== 'open') return opened;
  const { fd } = opened;
  try {
    if (opened.stat.size > limit) return { kind: 'unreadable', reason: `larger than ${describeSize(limit)}` };
    // Room for the size fstat gave and one byte more, grown (up to one byte past the limit, which proves the
    // file too large) when the file grew since: a cap-sized buffer per read cost every small file a zeroed
    // MiB. Only the bytes read are ever used, so the buffer need not be zeroed.
    let buffer = Buffer.allocUnsafe(Math.min(opened.stat.size, limit) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > limit) return { kind: 'unreadable', reason: `larger than ${describeSize(limit)}` };
    }
    const start = length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    return { kind: 'ok', text: buffer.toString('utf8', start, length) };
  } catch (error) {
    return { kind: 'unreadable', reason: describeFsError(errorCode(error)) };
  } finally {
    closeSync(fd);
  }
}

type RegularFileOpen = Exclude<TextFileReadSync, { kind: 'ok' }> | { kind: 'open'; fd: number; stat: Stats };

/**
 * The one check before a local file is read: opened without blocking, and kept open only when `fstat` says
 * it is a regular file (docs/invariants.md, "Regular files only, never a blocking read"). `flags` adds open
 * flags (`O_NOFOLLOW`). The caller closes `fd`.
 */
export function openRegularFileSync(filePath: string, flags = 0): RegularFileOpen {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever (not defined on Windows).
    fd = openSync(filePath, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | flags);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: describeFsError(code) };
  }
  let reason: string;
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) return { kind: 'open', fd, stat };
    reason = stat.isDirectory() ? 'it is a directory' : 'not a regular file';
  } catch (error) {
    reason = describeFsError(errorCode(error));
  }
  closeSync(fd);
  return { kind: 'unreadable', reason };
}

export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** A read error's code as a reason: the common ones in words, any other as its code. */
export function describeFsError(code: string | undefined): string {
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

function describeSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
