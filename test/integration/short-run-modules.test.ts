/**
 * What a short run loads (bench/README.md, Start-up). `usage --json`, `guard` and a fresh `statusline` are
 * the runs that happen in prompts and scripts, and each module Node loads costs them start-up time: none of
 * node:crypto, node:http2 (with tls), node:fs/promises (with readline), child_process, zlib or worker
 * threads, and a fresh statusline loads nothing but what bare node does, plus node:vm for the compile cache.
 * Read from `process.moduleLoadList` in the built CLI's own process, where a bundle's stub or a lazy import
 * that stopped working would show.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proAccount } from '../helpers/accounts.js';
import { repoRoot } from '../helpers/cli.js';
import { makeToken, writeAppToken } from '../helpers/home.js';
import { type OpenScene, openScene } from '../helpers/scene.js';

const FORBIDDEN = [
  'crypto',
  'http2',
  'tls',
  'fs/promises',
  'internal/fs/promises',
  'readline',
  'child_process',
  'zlib',
  'worker_threads',
];

let scene: OpenScene;
let recorder: string;

beforeAll(async () => {
  scene = openScene();
  const token = await makeToken('user_modules', { email: 'modules@example.com' });
  writeAppToken(scene.home, token.jwt);
  await scene.serve([proAccount([token.cookieValue], 'modules@example.com')]);
  recorder = path.join(scene.home, 'record-modules.cjs');
  fs.writeFileSync(
    recorder,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, process.moduleLoadList.join('\\n')));\n",
  );
});

afterAll(() => scene.close());

/** The built-in modules a process loaded, by name (`NativeModule <name>` in Node's list). */
async function modulesOf(
  script: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; modules: Set<string> }> {
  const file = path.join(scene.home, `modules-${Math.random().toString(36).slice(2)}`);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    TZ: 'UTC',
    MODULES_FILE: file,
    CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
  };
  const child = spawn(process.execPath, ['-r', recorder, script, ...args], { env, cwd: scene.home });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const modules = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('NativeModule '))
    .map((line) => line.slice('NativeModule '.length));
  return { code, stdout, modules: new Set(modules) };
}

const bin = path.join(repoRoot, 'bin', 'codexbar.js');

describe('a short run of the built CLI loads only what it needs', () => {
  it.each([
    ['usage --json', ['usage', '--json']],
    ['guard', ['guard', '--min-remaining', '10']],
  ])(
    '%s: none of crypto, http2, tls, fs/promises, readline, child_process, zlib, worker threads',
    async (_name, args) => {
      const run = await modulesOf(bin, args);
      expect(run.code).toBe(0);
      // It did fetch: the HTTP client is there.
      expect(run.modules.has('net')).toBe(true);
      expect(FORBIDDEN.filter((name) => run.modules.has(name))).toEqual([]);
    },
  );

  it('a fresh statusline: what bare node loads, and node:vm for the compile cache', async () => {
    await modulesOf(bin, ['usage', '--json']);
    const empty = path.join(scene.home, 'empty.cjs');
    fs.writeFileSync(empty, '');
    const bare = await modulesOf(empty, []);
    const run = await modulesOf(bin, ['statusline']);
    expect(run.stdout).toMatch(/^Cursor \d+% left/);
    expect([...run.modules].filter((name) => !bare.modules.has(name))).toEqual(['vm']);
  });
});
