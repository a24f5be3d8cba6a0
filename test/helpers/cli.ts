import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binPath = path.join(repoRoot, 'bin', 'codexbar.js');
const fixedNowPreload = path.join(repoRoot, 'test', 'helpers', 'fixed-now.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A throwaway HOME with nothing in it: tests add exactly the credential stores they need. */
export function makeTempHome(): { home: string; cleanup: () => void } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-home-'));
  return { home, cleanup: () => fs.rmSync(home, { recursive: true, force: true }) };
}

/**
 * Runs the BUILT CLI (`node bin/codexbar.js …`) as a user would, with an environment that contains only
 * what the test passes plus PATH, so the developer's own Cursor login can never leak in.
 */
export function runCli(
  args: readonly string[],
  options: { home: string; env?: Record<string, string | undefined>; now?: Date },
): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: options.home, TZ: 'UTC' };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const preload: string[] = [];
  if (options.now) {
    env.FAKE_NOW = options.now.toISOString();
    preload.push('--import', pathToFileURL(fixedNowPreload).href);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...preload, binPath, ...args], { env, cwd: options.home });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
