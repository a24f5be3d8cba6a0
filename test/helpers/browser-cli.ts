/**
 * `codexbar usage` in-process in a scene (test/helpers/scene.ts) with an injected platform, its HOME laid out
 * for that platform (browser-home.ts), fake OS helpers on PATH and the fake cursor.com. Every run checks that
 * the browser files are byte-for-byte unchanged, that the scene's TMPDIR is empty again, and that no secret the
 * test registered (cookie values, keyring passwords) appears in the output.
 */
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Platform } from '../../src/local/environment.js';
import { snapshotBrowsers } from './browser-home.js';
import type { CliResult } from './cli.js';
import type { Scene } from './scene.js';

export interface BrowserRun {
  platform: Platform;
  /** PATH for the helpers codexbar may run (the fakes' bin dir). */
  path: string;
  env?: Record<string, string>;
  /** Strings that must never be printed. */
  secrets: readonly string[];
}

export async function runBrowserImport(
  scene: Scene,
  argv: readonly string[],
  options: BrowserRun,
): Promise<CliResult> {
  const before = snapshotBrowsers(scene.home);
  const result = await scene.run(argv, {
    platform: options.platform,
    frozen: true,
    env: { PATH: options.path, ...options.env },
  });
  expect(snapshotBrowsers(scene.home)).toEqual(before);
  expect(fs.readdirSync(scene.tmp)).toEqual([]);
  for (const secret of options.secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  return result;
}
