/**
 * Root reads and writes whatever a file's mode says, so a "permission denied" test run as root (as CI runs)
 * would pass without the denial ever happening. The checked operation runs instead in a child process: as
 * `nobody` when the tests run as root, as the tests' own user otherwise, so the same test runs everywhere.
 *
 * `nobody` cannot reach a checkout in a private directory (`mktemp -d` is 0700), so the child never runs from
 * it: `useUnprivileged()` copies what the child runs (the built bin/ and dist/, package.json, the native SQLite
 * addon with the two modules that load it, and the run's one bundle of the checks of unprivileged-checks.ts) to
 * a fresh directory anyone can read (on first use), and removes it after the file's tests.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { type CliResult, outputOf, repoRoot } from './cli.js';
import type { Checks } from './unprivileged-checks.js';

/** Whether the tests run as root: the case that needs another user. */
const asRoot = process.getuid?.() === 0;

/** The unprivileged user's ids, from /etc/passwd (65534 where it is not listed). */
function nobodyIds(): { uid: number; gid: number } {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('nobody:'));
    const [, , uid, gid] = line?.split(':') ?? [];
    if (uid && gid) return { uid: Number(uid), gid: Number(gid) };
  } catch {}
  return { uid: 65534, gid: 65534 };
}

/**
 * What the bundle loads at run time besides itself: better-sqlite3 (only its JavaScript and the addon),
 * `bindings`, which finds the addon, and `file-uri-to-path`, which `bindings` requires.
 */
const RUNTIME_MODULES: Record<string, readonly string[]> = {
  'better-sqlite3': ['package.json', 'lib', path.join('build', 'Release', 'better_sqlite3.node')],
  bindings: ['.'],
  'file-uri-to-path': ['.'],
};

/** Whether others (not the owner, not the group) may search every directory down to `file` and run it. */
function othersCanRun(file: string): boolean {
  let current = path.dirname(path.resolve(file));
  for (;;) {
    if ((fs.statSync(current).mode & 0o001) === 0) return false;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return (fs.statSync(file).mode & 0o005) === 0o005;
}

/** Chowns `dir` and everything in it (links themselves, never their targets). */
function chownTree(dir: string, uid: number, gid: number): void {
  fs.lchownSync(dir, uid, gid);
  if (!fs.lstatSync(dir).isDirectory()) return;
  for (const entry of fs.readdirSync(dir)) chownTree(path.join(dir, entry), uid, gid);
}

export interface ChildRun {
  env: Record<string, string>;
  cwd: string;
}

export interface Unprivileged {
  /** The uid and gid the child runs as: nobody's as root, else none (the tests' own user). */
  readonly ids: { uid: number; gid: number } | undefined;
  /** Gives these directories (and all in them) to the child's user; nothing to do when not root. */
  handOver(...dirs: string[]): void;
  /** `node bin/codexbar.js …` from the copy, as the child's user. */
  runBuilt(args: readonly string[], options: ChildRun): Promise<CliResult>;
  /** One of the checks in unprivileged-checks.ts, as the child's user: what it returned, through JSON. */
  check<K extends keyof Checks>(
    name: K,
    args: Parameters<Checks[K]>,
    options: ChildRun,
  ): Promise<Awaited<ReturnType<Checks[K]>>>;
}

/** Call once per test file, at the top level; `runBuilt` needs `npm run build`. The copies are made on first use. */
export function useUnprivileged(): Unprivileged {
  const ids = asRoot ? nobodyIds() : undefined;
  let dir: string | undefined;
  let node = process.execPath;
  let copies: Promise<string> | undefined;
  let bundle: Promise<string> | undefined;
  /** Made once per file, on first use. */
  const copied = () => {
    copies ??= Promise.resolve().then(copyBuild);
    return copies;
  };
  const bundled = () => {
    bundle ??= bundleChecks();
    return bundle;
  };

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
    copies = undefined;
    bundle = undefined;
  });

  // Where the copies go: for nobody, /tmp, open to everyone on Linux whatever TMPDIR says; else TMPDIR as it
  // is now, before any scene points it at its own (which must stay empty).
  const parent = asRoot && fs.existsSync('/tmp') ? '/tmp' : os.tmpdir();

  /** A directory anyone may read and search. */
  function directory(): string {
    if (!dir) {
      dir = fs.mkdtempSync(path.join(parent, 'codexbar-unprivileged-'));
      fs.chmodSync(dir, 0o755);
    }
    return dir;
  }

  /** Makes `entry` and all in it readable (and directories searchable) by anyone. */
  function openUp(entry: string): void {
    const stat = fs.statSync(entry);
    fs.chmodSync(entry, stat.isDirectory() ? 0o755 : (stat.mode & 0o7777) | 0o444);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) openUp(path.join(entry, name));
  }

  /** The built CLI and what it loads at run time; Node too, where nobody could not run the tests' own. */
  function copyBuild(): string {
    const made = directory();
    for (const entry of ['bin', 'dist', 'package.json']) {
      fs.cpSync(path.join(repoRoot, entry), path.join(made, entry), { recursive: true });
    }
    for (const [name, parts] of Object.entries(RUNTIME_MODULES)) {
      for (const part of parts) {
        const to = path.join(made, 'node_modules', name, part);
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.cpSync(path.join(repoRoot, 'node_modules', name, part), to, { recursive: true });
      }
    }
    // A version manager's Node under /root, say.
    if (ids && !othersCanRun(process.execPath)) {
      node = path.join(made, 'node');
      fs.copyFileSync(process.execPath, node);
    }
    for (const entry of fs.readdirSync(made)) openUp(path.join(made, entry));
    return made;
  }

  /** The run's bundle of unprivileged-checks.ts (test/setup/unprivileged-checks.ts), beside the copies. */
  async function bundleChecks(): Promise<string> {
    const file = path.join(await copied(), 'checks.cjs');
    fs.copyFileSync(inject('unprivilegedChecks'), file);
    openUp(file);
    return file;
  }

  async function runNode(args: readonly string[], options: ChildRun): Promise<CliResult> {
    const child = spawn(node, args, { env: options.env, cwd: options.cwd, ...ids });
    child.stdin.end();
    const { code, stdout, stderr } = await outputOf(child);
    return { code, stdout, stderr };
  }

  return {
    ids,
    handOver(...dirs) {
      if (ids) for (const each of dirs) chownTree(each, ids.uid, ids.gid);
    },
    async runBuilt(args, options) {
      const made = await copied();
      return runNode([path.join(made, 'bin', 'codexbar.js'), ...args], options);
    },
    async check(name, args, options) {
      const file = await bundled();
      const result = await runNode([file, name, JSON.stringify(args)], options);
      if (result.code !== 0) throw new Error(`check ${name} failed (${result.code}): ${result.stderr}`);
      return JSON.parse(result.stdout);
    },
  };
}
