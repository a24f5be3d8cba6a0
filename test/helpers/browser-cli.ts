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
  /** Added to PATH and a desktop session's D-Bus address; an undefined value removes the variable. */
  env?: Record<string, string | undefined>;
  /** Strings that must never be printed. */
  secrets: readonly string[];
}

/** What a desktop session sets; the fake keyring helpers never connect to it. */
export const DESKTOP_BUS = 'unix:path=/run/user/1000/bus';

export async function runBrowserImport(
  scene: Scene,
  argv: readonly string[],
  options: BrowserRun,
): Promise<CliResult> {
  const before = snapshotBrowsers(scene.home);
  const result = await scene.run(argv, {
    platform: options.platform,
    frozen: true,
    // A desktop session's bus, as a terminal of the desktop has: the keyring is reached through it.
    env: { PATH: options.path, DBUS_SESSION_BUS_ADDRESS: DESKTOP_BUS, ...options.env },
  });
  expect(snapshotBrowsers(scene.home)).toEqual(before);
  expect(fs.readdirSync(scene.tmp)).toEqual([]);
  for (const secret of options.secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  return result;
}
