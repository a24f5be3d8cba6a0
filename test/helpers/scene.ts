/**
 * The one scene of the tests: a temporary HOME (and a TMPDIR beside it), a fake cursor.com started on demand
 * with the test's accounts, a pinned clock, and `run`: the CLI in-process through runCli (test/helpers/cli.ts)
 * in that HOME, pointed at the fake, at that clock. Whatever the scene or the test started in it is closed and
 * removed with it.
 *
 * `useScene()` gives each test its own (call it once per file, at the top level); `openScene()` is one scene
 * for a block of tests or a single run, closed by its caller. The domain helpers (prompt.ts, cost-cli.ts,
 * store-cli.ts, team-cli.ts, usage-cli.ts, browser-cli.ts, serve.ts) are small functions on top of it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  type FakeAccount,
  type FakeCursor,
  type FakeCursorOptions,
  startFakeCursor,
} from '../fake-cursor/server.js';
import { type CliResult, type RunOptions, runCli } from './cli.js';

export interface SceneOptions {
  /** The clock of every run: it starts here and advances with real time, or stands still with `frozen`. */
  now?: Date;
  frozen?: boolean;
  /** Environment of every run, on top of HOME, TZ=UTC and the fake's URL; a run's own `env` wins. */
  env?: Record<string, string | undefined>;
  /**
   * Point `os.tmpdir()` at the scene's `tmp` while it is open (the browser import makes its private copies
   * there, and must leave it empty). The only process.env write of the tests, undone on close.
   */
  tmpdir?: boolean;
}

export interface Scene {
  /** The scene's own directory: `home` and `tmp` are in it, and nothing else of the test's is outside it. */
  readonly root: string;
  /** An empty HOME (mode 0700): tests add exactly the credential stores they need. */
  readonly home: string;
  /** An empty directory for the CLI's temporary files (see `tmpdir`). */
  readonly tmp: string;
  /** The fake started last by `serve`, if any. */
  readonly fake: FakeCursor | undefined;
  /** Starts a fake cursor.com for these accounts, closing the one before. */
  serve(accounts: FakeAccount[], options?: Omit<FakeCursorOptions, 'accounts'>): Promise<FakeCursor>;
  /** The CLI in-process (runCli) in this HOME, at the scene's clock, with `CODEXBAR_CURSOR_BASE_URL` the fake's. */
  run(args: readonly string[], options?: Partial<RunOptions>): Promise<CliResult>;
  /** Runs when the scene closes, before its fake and its directory go (last deferred, first run). */
  defer(cleanup: () => unknown): void;
}

export interface OpenScene extends Scene {
  close(): Promise<void>;
}

/**
 * A scene its caller closes. Removing it retries: a detached refresh a spawned statusline started may still be
 * exiting, and it writes its compile cache into this HOME as it does, which makes a
 * single pass fail with ENOTEMPTY.
 */
export function openScene(options: SceneOptions = {}): OpenScene {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-scene-'));
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(tmp, { mode: 0o700 });
  const savedTmp = process.env.TMPDIR;
  if (options.tmpdir) process.env.TMPDIR = tmp;
  const cleanups: Array<() => unknown> = [];
  let fake: FakeCursor | undefined;
  return {
    root,
    home,
    tmp,
    get fake() {
      return fake;
    },
    async serve(accounts, fakeOptions = {}) {
      await fake?.close();
      fake = await startFakeCursor({ accounts, ...fakeOptions });
      return fake;
    },
    run(args, runOptions = {}) {
      return runCli(args, {
        ...runOptions,
        home,
        now: runOptions.now ?? options.now,
        frozen: runOptions.frozen ?? options.frozen,
        env: { CODEXBAR_CURSOR_BASE_URL: fake?.url, ...options.env, ...runOptions.env },
      });
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
    async close() {
      try {
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        await fake?.close();
        fake = undefined;
      } finally {
        if (options.tmpdir) {
          if (savedTmp === undefined) delete process.env.TMPDIR;
          else process.env.TMPDIR = savedTmp;
        }
        fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      }
    },
  };
}

/** A scene per test, with what `setup` made for it in `given`. */
export type SceneWith<T> = Scene & { readonly given: T };

/**
 * Call once per test file (or describe block), at the top level: each test gets a fresh scene, closed after it.
 * `setup` runs before each test, after the scene opens (its accounts, tokens, files).
 */
export function useScene<T>(
  options: SceneOptions & { setup: (scene: Scene) => T | Promise<T> },
): SceneWith<T>;
export function useScene(options?: SceneOptions): Scene;
export function useScene<T>(
  options: SceneOptions & { setup?: (scene: Scene) => T | Promise<T> } = {},
): SceneWith<T | undefined> {
  let current: OpenScene | undefined;
  let given: T | undefined;
  const scene = (): OpenScene => {
    if (!current) throw new Error('useScene: no test is running');
    return current;
  };
  beforeEach(async () => {
    current = openScene(options);
    given = await options.setup?.(view);
  });
  afterEach(async () => {
    const closing = current;
    current = undefined;
    given = undefined;
    await closing?.close();
  });
  const view: SceneWith<T | undefined> = {
    get root() {
      return scene().root;
    },
    get home() {
      return scene().home;
    },
    get tmp() {
      return scene().tmp;
    },
    get fake() {
      return scene().fake;
    },
    get given() {
      scene();
      return given;
    },
    serve: (accounts, fakeOptions) => scene().serve(accounts, fakeOptions),
    run: (args, runOptions) => scene().run(args, runOptions),
    defer: (cleanup) => scene().defer(cleanup),
  };
  return view;
}
