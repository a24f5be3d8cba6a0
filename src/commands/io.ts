import os from 'node:os';
import type { Platform } from '../auth/types.js';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Everything a command touches outside the process: injected so tests can run commands in-process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  platform: Platform;
  homeDir: string;
  now: () => Date;
}

export function processIo(): CliIo {
  const platform = process.platform === 'darwin' || process.platform === 'win32' ? process.platform : 'linux';
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    platform,
    homeDir: os.homedir(),
    now: () => new Date(),
  };
}
