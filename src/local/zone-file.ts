import { closeSync } from 'node:fs';
import { openRegularFileSync } from './read-file-sync.js';

/**
 * The process's environment, made safe for the C library's zone lookup. libc opens the zone file TZ names,
 * with a blocking open, the first time the process needs local time (V8 asks as soon as a date is
 * formatted): a FIFO there would hang the run before it printed a byte (docs/invariants.md, "Regular files
 * only, never a blocking read"). The file is TZ itself when TZ is a path, else TZ under TZDIR or the
 * system's zone directory. When that file is there but is not a readable regular file, TZDIR is dropped,
 * then, if the file is still not one, TZ becomes UTC; callers do this before anything formats a date.
 * codexbar's own zone comes from Intl, not libc (src/lib/time-zone.ts), so the run is given the environment
 * as it was: such a TZ names no zone Intl knows, and UTC is used with a `--verbose` note.
 */
export function zoneSafeProcessEnv(): NodeJS.ProcessEnv {
  const env = process.env;
  if (process.platform === 'win32' || !zoneFileBlocks(env)) return env;
  const original = { ...env };
  delete env.TZDIR;
  if (zoneFileBlocks(env)) env.TZ = 'UTC';
  return original;
}

/** Whether the file libc would read for TZ (glibc's rules) is there but not a readable regular file. */
export function zoneFileBlocks(env: NodeJS.ProcessEnv): boolean {
  if (env.TZ === undefined) return false; // /etc/localtime: the system's own
  const name = env.TZ === '' ? 'Universal' : env.TZ.replace(/^:/, '');
  const file = name.startsWith('/') ? name : `${env.TZDIR || '/usr/share/zoneinfo'}/${name}`;
  const opened = openRegularFileSync(file);
  if (opened.kind === 'open') closeSync(opened.fd);
  return opened.kind === 'unreadable';
}
