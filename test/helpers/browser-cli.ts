/**
 * `codexbar usage` run IN-PROCESS through `run(argv, io)` with an injected platform, a temporary HOME laid out
 * for that platform, a private TMPDIR, fake OS helpers on PATH and the fake cursor.com. Every run checks that
 * the browser files are byte-for-byte unchanged, that TMPDIR is empty again, and that no secret the test
 * registered (cookie values, keyring passwords) appears in the output.
 */
import fs from 'node:fs';
import { expect } from 'vitest';
import { type CliIo, DEFAULT_TIMING } from '../../src/cli/io.js';
import { run } from '../../src/cli.js';
import type { Platform } from '../../src/local/environment.js';
import { type BrowserHome, snapshotBrowsers } from './browser-home.js';
import { type CliResult, noSleep } from './cli.js';

export interface InProcessRun {
  platform: Platform;
  box: BrowserHome;
  /** PATH for the helpers codexbar may run (the fakes' bin dir). */
  path: string;
  env?: Record<string, string>;
  now: Date;
  /** Strings that must never be printed. */
  secrets: readonly string[];
}

export async function runInProcess(argv: readonly string[], options: InProcessRun): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: {
      write: (chunk: string) => {
        stdout += chunk;
        return true;
      },
    },
    stderr: {
      write: (chunk: string) => {
        stderr += chunk;
        return true;
      },
    },
    env: { HOME: options.box.home, PATH: options.path, ...options.env },
    platform: options.platform,
    homeDir: options.box.home,
    now: () => options.now,
    timing: { ...DEFAULT_TIMING, sleep: noSleep },
  };
  const before = snapshotBrowsers(options.box.home);
  const code = await run(argv, io);
  expect(snapshotBrowsers(options.box.home)).toEqual(before);
  expect(fs.readdirSync(options.box.tmp)).toEqual([]);
  for (const secret of options.secrets) {
    expect(stdout).not.toContain(secret);
    expect(stderr).not.toContain(secret);
  }
  return { code, stdout, stderr };
}
