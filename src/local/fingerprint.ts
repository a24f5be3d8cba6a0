import { type BigIntStats, statSync } from 'node:fs';

/**
 * A file's identity as the statusline fast path compares it (docs/invariants.md, "When a snapshot may be
 * trusted"): device, inode, size and both times in nanoseconds. Any write, replacement or chmod changes it.
 */
export function fingerprintOf(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The fingerprint of the file at `file` (links followed), `missing` when there is none. */
export function fileFingerprint(file: string): string {
  try {
    return fingerprintOf(statSync(file, { bigint: true }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? MISSING : `error ${code}`;
  }
}

/** What a file that does not exist is fingerprinted as. */
export const MISSING = 'missing';
