import { lstat, mkdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { writePrivateFileAtomic } from '../cache/private-files.js';
import { CodexbarError, ConfigError } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import type { LocalEnvironment } from '../local/environment.js';
import { displayPath } from '../local/paths.js';
import { errorCode, JSON_FILE_LIMIT } from '../local/read-file.js';
import { findConfigPath } from './config.js';
import { readConfigDocument } from './document.js';
import { LockRefusedError, LockTimeoutError, withFileLock } from './lock.js';

/** The config file as a plain JSON object: every key kept, known or not. */
export type ConfigObject = Record<string, unknown>;

export interface ConfigWriteResult<R> {
  /** The config path as found (a symlink stays a symlink; its target was written). */
  path: string;
  result: R;
}

/**
 * docs/invariants.md, "Nothing written outside the cache dir": read-modify-write of the config file, only for
 * an explicit command:
 * - the path is found as for reading (findConfigPath); a symlink there is followed and its target written, so
 *   the link stays (unlike the cache, which never writes through a link);
 * - the whole read-change-write holds a lock beside the target, so concurrent runs never lose a change;
 * - a file that cannot be read, is not JSON, has the wrong types or a `version` other than 1 is never
 *   overwritten: the command fails and the file stays as it is;
 * - `change` gets the current object (every unknown key and provider kept) or undefined when there is no
 *   file, and returns the object to write;
 * - the write is atomic (a 0600 temporary file beside the target, flushed, renamed over it) and the JSON is
 *   pretty-printed with sorted keys, as CodexBar writes it.
 */
export async function updateConfigFile<R>(
  env: LocalEnvironment,
  change: (current: ConfigObject | undefined) => { config: ConfigObject; result: R },
): Promise<ConfigWriteResult<R>> {
  const configPath = await findConfigPath(env);
  const shown = displayPath(configPath, env);
  const target = await writeTarget(configPath, shown);
  try {
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    return await withFileLock(target, async () => {
      const current = await readForUpdate(target, shown);
      const { config, result } = change(current === undefined ? undefined : structuredClone(current.config));
      const text = `${encodeJson(config, { pretty: true })}\n`;
      refuseUnreadable(text, current?.size ?? 0, shown);
      writePrivateFileAtomic(target, text);
      return { path: configPath, result };
    });
  } catch (error) {
    if (error instanceof CodexbarError) throw error;
    if (error instanceof LockRefusedError) {
      throw new ConfigError(
        `Cannot write the config file ${shown}: ${error.message}.`,
        `Remove ${displayPath(error.lockPath, env)} (codexbar only ever puts a small file there), then run the command again.`,
      );
    }
    if (error instanceof LockTimeoutError) {
      throw new ConfigError(
        `Cannot write the config file ${shown}: ${error.message}.`,
        'Another codexbar is changing it; run the command again in a moment.',
      );
    }
    throw new ConfigError(`Cannot write the config file ${shown}: ${describeWriteError(error)}.`);
  }
}

/**
 * Fails now, before any work, when the config file could not be updated later: `login` checks it before it
 * asks for a secret. The update itself checks again under the lock.
 */
export async function assertConfigUpdatable(env: LocalEnvironment): Promise<void> {
  const configPath = await findConfigPath(env);
  const shown = displayPath(configPath, env);
  await readForUpdate(await writeTarget(configPath, shown), shown);
}

/**
 * A file up to this size is read for an update, past the 1 MiB every other read allows: an oversized config
 * fails every command, and the ones that remove something must be able to shrink it.
 */
const REPAIR_LIMIT = 16 * 1024 * 1024;

/**
 * No write may leave a file that the next run could not read: one past the read cap is refused, unless it
 * shrinks a file already past it (a repair on the way down).
 */
function refuseUnreadable(text: string, currentSize: number, shown: string): void {
  const size = Buffer.byteLength(text);
  if (size <= JSON_FILE_LIMIT || size < currentSize) return;
  throw new ConfigError(
    `Refusing to write the config file ${shown}: it would be ${size} bytes, more than the ${JSON_FILE_LIMIT / (1024 * 1024)} MiB codexbar reads.`,
    'Nothing was changed. Remove token accounts you no longer use first (`codexbar logout --account <label>`).',
  );
}

/** The current content and its size, or undefined for no file; anything not safe to overwrite is refused. */
async function readForUpdate(
  target: string,
  shown: string,
): Promise<{ config: ConfigObject; size: number } | undefined> {
  const document = await readConfigDocument(target, REPAIR_LIMIT);
  const refuse = (why: string) =>
    new ConfigError(
      `Refusing to write the config file ${shown}: ${why}.`,
      'Nothing was changed. Fix or move the file first; `codexbar config validate` shows what is wrong.',
    );
  switch (document.kind) {
    case 'missing':
      return undefined;
    case 'unreadable':
      throw refuse(`it cannot be read (${document.reason})`);
    case 'invalid':
      throw refuse(`it is not a valid CodexBar config (${document.reason})`);
    case 'ok':
      if (document.file.version !== 1) throw refuse(`its version is ${document.file.version}, not 1`);
      return { config: document.raw, size: (await stat(target)).size };
  }
}

/** Follows symlinks at the config path to the file to write. */
async function writeTarget(configPath: string, shown: string): Promise<string> {
  let current = configPath;
  for (let hops = 0; hops < 32; hops++) {
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(current);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return current;
      throw new ConfigError(`Cannot write the config file ${shown}: ${describeWriteError(error)}.`);
    }
    if (!info.isSymbolicLink()) return current;
    current = path.resolve(path.dirname(current), await readlink(current));
  }
  throw new ConfigError(`Cannot write the config file ${shown}: too many symbolic links.`);
}

function describeWriteError(error: unknown): string {
  switch (errorCode(error)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
      return 'a parent is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
