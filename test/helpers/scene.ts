import { afterEach, beforeEach } from 'vitest';
import {
  type FakeAccount,
  type FakeCursor,
  type FakeCursorOptions,
  startFakeCursor,
} from '../fake-cursor/server.js';
import { makeTempHome } from './cli.js';

/** A temporary HOME per test and, when a test asks for one, a fake cursor.com; both gone after each test. */
export interface Scene {
  readonly home: string;
  /** The fake started last by `serve`, if any. */
  readonly fake: FakeCursor | undefined;
  /** Starts a fake cursor.com for these accounts, closing the one before. */
  serve(accounts: FakeAccount[], options?: Omit<FakeCursorOptions, 'accounts'>): Promise<FakeCursor>;
}

/** Call once per test file, at the top level. */
export function useScene(): Scene {
  let home: { home: string; cleanup: () => void } | undefined;
  let fake: FakeCursor | undefined;
  beforeEach(() => {
    home = makeTempHome();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    home?.cleanup();
    home = undefined;
  });
  return {
    get home() {
      if (!home) throw new Error('useScene: no test is running');
      return home.home;
    },
    get fake() {
      return fake;
    },
    async serve(accounts, options = {}) {
      await fake?.close();
      fake = await startFakeCursor({ accounts, ...options });
      return fake;
    },
  };
}
