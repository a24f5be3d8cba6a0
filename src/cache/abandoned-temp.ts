/**
 * When a temporary file (`*.tmp`) in one of codexbar's cache directories counts as abandoned: left by a
 * writer that was killed between writing it and renaming it into place. A live writer renames within
 * seconds, so only old ones are removed and a concurrent writer's fresh file is never touched.
 */
const ABANDONED_TEMP_MS = 10 * 60_000;

/** A writer's temporary file, by its name: checked before any lstat, so other entries cost nothing. */
export function isTempName(name: string): boolean {
  return name.endsWith('.tmp');
}

/** A temporary file whose modification time `mtimeMs` is long before `nowMs`. */
export function isAbandonedTemp(stat: { isFile(): boolean; mtimeMs: number }, nowMs: number): boolean {
  return stat.isFile() && nowMs - stat.mtimeMs > ABANDONED_TEMP_MS;
}
