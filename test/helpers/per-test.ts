import type { FakeAccount, FakeCursor } from '../fake-cursor/server.js';
import { useScene } from './scene.js';

interface PerTest {
  /** This test's empty HOME. */
  readonly home: string;
  /** The fake this test started (throws if it started none). */
  readonly fake: FakeCursor;
  /** Starts this test's fake cursor.com; it is closed after the test. */
  startFake(accounts: FakeAccount[]): Promise<FakeCursor>;
}

/**
 * Call once per test file, at the top level: a temp HOME for each test, and its fake closed after it. The
 * scene (test/helpers/scene.ts) with a fake that must exist once asked for.
 */
export function usePerTestHome(): PerTest {
  const scene = useScene();
  return {
    get home() {
      return scene.home;
    },
    get fake() {
      const fake = scene.fake;
      if (!fake) throw new Error('usePerTestHome: this test started no fake cursor.com');
      return fake;
    },
    startFake: (accounts) => scene.serve(accounts),
  };
}
