/**
 * /usage and /cost are exactly the CLI's JSON, and the config
 * file is reloaded for every request (reads shared only by requests that arrived before they began) with
 * its hash in the cache key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CursorDataSource, type DataSourceOptions, type ServeConfig } from '../../src/serve/data-source.js';
import { proAccount } from '../helpers/accounts.js';
import {
  type ServeHarness,
  serveAccount,
  startServeHarness,
  USAGE_SUMMARY,
  until,
  writeJson,
} from '../helpers/serve.js';

let serve: ServeHarness | undefined;
afterEach(async () => {
  await serve?.close();
  serve = undefined;
});

async function cliJson(harness: ServeHarness, argv: string[]): Promise<string> {
  const { code, stdout } = await harness.run(argv);
  expect(code).toBe(0);
  return stdout;
}

const cursorEntry = (fields: Record<string, unknown>) => ({
  version: 1,
  providers: [{ id: 'cursor', ...fields }],
});

describe('/usage and /cost are the CLI’s JSON', () => {
  it('GET /usage is byte for byte `codexbar usage --json`, and GET /cost is `codexbar cost --json`', async () => {
    serve = await startServeHarness();
    const usage = await serve.get('/usage');
    expect(usage.status).toBe(200);
    expect(`${usage.body}\n`).toBe(await cliJson(serve, ['usage', '--json']));
    const cost = await serve.get('/cost?provider=all');
    expect(cost.status).toBe(200);
    expect(`${cost.body}\n`).toBe(await cliJson(serve, ['cost', '--json']));
    const [row] = cost.json() as Array<{ historyDays: number; daily: unknown[] }>;
    expect(row?.historyDays).toBe(30);
    expect(row?.daily.length).toBeGreaterThan(0);
  });

  it('the config `source` is used: oauth is a row error, as `codexbar usage` reports it', async () => {
    serve = await startServeHarness({
      config: cursorEntry({
        source: 'oauth',
        cookieHeader: 'WorkosCursorSessionToken=user_serve%3A%3Aserve-session',
      }),
    });
    const response = await serve.get('/usage');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([
      {
        provider: 'cursor',
        source: 'oauth',
        error: { code: 1, message: "Source 'oauth' is not supported for cursor.", kind: 'provider' },
      },
    ]);
    // An error row is never cached.
    expect(response.headers['x-codexbar-cache']).toBe('miss');
  });
});

describe('config reloaded per request', () => {
  const alice = 'user_alice%3A%3Aalice';
  const bob = 'user_bob%3A%3Abob';
  const header = (value: string) => `WorkosCursorSessionToken=${value}`;
  const email = async (harness: ServeHarness) => {
    const response = await harness.get('/usage');
    const [row] = response.json() as Array<{ usage?: { accountEmail?: string } }>;
    return [row?.usage?.accountEmail, response.headers['x-codexbar-cache']];
  };

  it('a new cookie in the config takes effect on the next request, inside the refresh interval', async () => {
    serve = await startServeHarness({
      accounts: [proAccount([alice], 'alice@example.com'), proAccount([bob], 'bob@example.com')],
      config: cursorEntry({ cookieHeader: header(alice) }),
    });
    expect(await email(serve)).toEqual(['alice@example.com', 'miss']);
    expect(await email(serve)).toEqual(['alice@example.com', 'hit']);
    writeJson(serve.configPath, cursorEntry({ cookieHeader: header(bob) }));
    expect(await email(serve)).toEqual(['bob@example.com', 'miss']);
    // Back to the first config: its answer is still cached under its own key.
    writeJson(serve.configPath, cursorEntry({ cookieHeader: header(alice) }));
    expect(await email(serve)).toEqual(['alice@example.com', 'hit']);
    expect(serve.count(USAGE_SUMMARY)).toBe(2);
  });

  it('switching the active token account switches the answer', async () => {
    const accounts = (activeIndex: number) =>
      cursorEntry({
        tokenAccounts: {
          version: 1,
          activeIndex,
          accounts: [
            { id: 'A-1', label: 'alice', token: header(alice), addedAt: 1 },
            { id: 'B-2', label: 'bob', token: header(bob), addedAt: 2 },
          ],
        },
      });
    serve = await startServeHarness({
      accounts: [proAccount([alice], 'alice@example.com'), proAccount([bob], 'bob@example.com')],
      config: accounts(0),
    });
    expect(await email(serve)).toEqual(['alice@example.com', 'miss']);
    writeJson(serve.configPath, accounts(1));
    expect(await email(serve)).toEqual(['bob@example.com', 'miss']);
  });

  it('a config that cannot be decoded is 500 with the message (naming the file, never its contents)', async () => {
    serve = await startServeHarness({ config: cursorEntry({ cookieHeader: header(alice) }) });
    writeJson(
      serve.configPath,
      '{"version": 1, "providers": [ {"id": "cursor", "cookieHeader": "secret-value"',
    );
    for (const route of ['/usage', '/cost']) {
      const response = await serve.get(route);
      expect(response.status).toBe(500);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json() as { error: string };
      expect(body.error).toMatch(/^Failed to decode CodexBar config at .*config\.json: invalid JSON/);
      expect(response.body).not.toContain('secret-value');
    }
    writeJson(serve.configPath, cursorEntry({ cookieHeader: header(alice) }));
    expect((await serve.get('/usage')).status).toBe(200);
  });

  /** Counts config reads; each read, once it has read the file, waits until the test opens the gate. */
  const gatedReads = () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const counts = { started: 0, read: 0 };
    class GatedConfigSource extends CursorDataSource {
      override async loadConfig(): Promise<ServeConfig> {
        counts.started++;
        const config = await super.loadConfig();
        counts.read++;
        await gate;
        return config;
      }
    }
    return {
      counts,
      open: () => open(),
      source: (options: DataSourceOptions) => new GatedConfigSource(options),
    };
  };

  it('a request uses the config as it was when it arrived, for its read and for its fetch', async () => {
    const reads = gatedReads();
    serve = await startServeHarness({
      accounts: [proAccount([alice], 'alice@example.com'), proAccount([bob], 'bob@example.com')],
      config: cursorEntry({ cookieHeader: header(alice) }),
      deps: { source: reads.source },
    });
    const harness = serve;
    const first = email(harness);
    await until(() => reads.counts.read === 1, 'the first request to read the config');
    writeJson(harness.configPath, cursorEntry({ cookieHeader: header(bob) }));
    const second = email(harness);
    await until(() => harness.server.listener.inFlight() === 2, 'the second request');
    reads.open();
    expect(await first).toEqual(['alice@example.com', 'miss']);
    expect(await second).toEqual(['bob@example.com', 'miss']);
    expect(reads.counts.started).toBe(2);
  });

  it('requests that arrive while a config read runs share the next read', async () => {
    const reads = gatedReads();
    serve = await startServeHarness({ deps: { source: reads.source } });
    const harness = serve;
    const answers = Array.from({ length: 10 }, () => harness.get('/usage'));
    await until(() => harness.server.listener.inFlight() === 10, 'ten requests in flight');
    reads.open();
    for (const answer of await Promise.all(answers)) expect(answer.status).toBe(200);
    expect(reads.counts.started).toBe(2);
    expect(harness.count(USAGE_SUMMARY)).toBe(1);
  });

  it('a disabled provider in the config: the snapshot says so and fetches nothing', async () => {
    serve = await startServeHarness({
      config: cursorEntry({ enabled: false, cookieHeader: header(alice) }),
      accounts: [serveAccount([alice])],
      env: { CODEXBAR_DASHBOARD_TOKEN: 't' },
    });
    const response = await serve.get('/dashboard/v1/snapshot', { Authorization: 'Bearer t' });
    expect(response.json()).toMatchObject({ providers: [{ id: 'cursor', enabled: false, windows: [] }] });
    expect(serve.count(USAGE_SUMMARY)).toBe(0);
  });
});
