import { afterEach, beforeEach } from 'vitest';
import type { Timing } from '../../src/cli/io.js';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';
import { proAccount } from './accounts.js';
import { type CliResult, makeTempHome, runCli } from './cli.js';
import type { TestToken } from './home.js';

export interface FakeHome {
  /** This test's temporary HOME. */
  readonly home: string;
  /** The fake cursor.com of the last `serve`, if any. */
  readonly fake: FakeCursor | undefined;
  /** Starts (or restarts) the fake cursor.com with these accounts. */
  serve(accounts: FakeAccount[]): Promise<FakeCursor>;
  /** `codexbar usage <args>` in process, in this HOME, pointed at the fake, at the harness's clock. */
  usage(
    args: string[],
    env?: Record<string, string | undefined>,
    timing?: Partial<Timing>,
  ): Promise<CliResult>;
}

/**
 * Call once per test file, at the top level: a fresh temporary HOME for each test and a fake cursor.com it
 * starts on demand, both removed after the test.
 */
export function useFakeHome(now?: Date): FakeHome {
  let temp: { home: string; cleanup: () => void } | undefined;
  let fake: FakeCursor | undefined;
  beforeEach(() => {
    temp = makeTempHome();
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    temp?.cleanup();
    temp = undefined;
  });
  return {
    get home() {
      if (!temp) throw new Error('useFakeHome: no test is running');
      return temp.home;
    },
    get fake() {
      return fake;
    },
    async serve(accounts) {
      await fake?.close();
      fake = await startFakeCursor({ accounts });
      return fake;
    },
    usage(args, env = {}, timing) {
      return runCli(['usage', ...args], {
        home: this.home,
        now,
        env: { CODEXBAR_CURSOR_BASE_URL: fake?.url, ...env },
        timing,
      });
    },
  };
}

/** One Pro account per token, answering as `<userId>@example.com`, so a test sees which source was used. */
export function tokenAccounts(tokens: readonly TestToken[]): FakeAccount[] {
  return tokens.map((token) => proAccount([token.cookieValue], `${token.userId}@example.com`));
}

/** The account email of a `usage --json` run. */
export const emailOf = (stdout: string): string => JSON.parse(stdout)[0].usage.accountEmail;

/** The Cookie headers usage-summary received, in order. */
export const summaryCookies = (server: FakeCursor): string[] =>
  server.requests.filter((r) => r.path === '/api/usage-summary').map((r) => r.headers.cookie ?? '');
