/**
 * The few asynchronous file operations a short run needs, as promises over `node:fs`'s callbacks. Importing
 * `node:fs/promises` instead loads its FileHandle machinery (and readline with it) into every `usage`,
 * `guard` and `statusline` run, ~4 ms of start-up (bench/README.md, Start-up).
 */
import fs from 'node:fs';
import { promisify } from 'node:util';

export const close = promisify(fs.close);
export const fsync = promisify(fs.fsync);
export const lstat = promisify(fs.lstat);
export const mkdir = promisify(fs.mkdir);
export const open = promisify(fs.open);
export const readdir = promisify(fs.readdir);
export const rename = promisify(fs.rename);
export const unlink = promisify(fs.unlink);
/** All of `data` to `fd` (fs.writeFile on a descriptor writes from its current position until done). */
export const writeFile = promisify(fs.writeFile);
