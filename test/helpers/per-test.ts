import { afterEach, beforeEach } from 'vitest';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { makeTempHome } from './cli.js';

interface PerTest {
  /** This test's empty HOME. */
  readonly home: string;
  /** The fake this test started (throws if it started none). */
  readonly fake: FakeCursor;
  /** Starts this test's fake cursor.com; it is closed after the test. */
  startFake(accounts: FakeAccount[]): Promise<FakeCursor>;
}

/** Call once per test file, at the top level: a temp HOME for each test, and its fake closed after it. */
export function usePerTestHome(): PerTest {
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
      if (!home) throw new Error('usePerTestHome: no test is running');
      return home.home;
    },
    get fake() {
      if (!fake) throw new Error('usePerTestHome: this test started no fake cursor.com');
      return fake;
    },
    async startFake(accounts) {
      fake = await startFakeCursor({ accounts });
      return fake;
    },
  };
}
