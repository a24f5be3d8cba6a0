/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY: every cursor.com request goes through a
 * real CONNECT proxy on loopback, for an http:// and an https:// base URL, and NO_PROXY bypasses it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../fixtures/tls/loopback.js';
import { type ConnectProxy, startConnectProxy } from '../fake-cursor/connect-proxy.js';
import { generateEvents } from '../fake-cursor/events.js';
import { proAccount } from '../helpers/accounts.js';
import { spawnCli } from '../helpers/cli.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const VALUE = 'user_proxy%3A%3Amanual';
const COOKIE = `WorkosCursorSessionToken=${VALUE}`;
const events = generateEvents({ count: 1500, start: new Date('2026-11-01T00:00:00Z'), end: NOW, seed: 8 });

const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: COOKIE } });
let proxy: ConnectProxy;

beforeEach(async () => {
  const started = await startConnectProxy();
  scene.defer(() => started.close());
  proxy = started;
});

const hostOf = (url: string) => new URL(url).host;

describe('through a CONNECT proxy', () => {
  it.each([['HTTP_PROXY'], ['http_proxy']])(
    'usage and cost over an http:// base URL with %s',
    async (variable) => {
      const fake = await scene.serve([proAccount([VALUE], 'dev@example.com', { events: { events } })]);
      const env = { [variable]: proxy.url };
      const usage = await scene.run(['--json'], { env });
      expect(usage.code, usage.stdout).toBe(0);
      const cost = await scene.run(['cost', '--json', '--days', '30'], { env });
      expect(cost.code, cost.stdout).toBe(0);
      expect(JSON.parse(cost.stdout)[0].requestCounts.reported).toBeGreaterThan(0);
      // Every connection to the fake went through the proxy: one tunnel per pooled connection at least.
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(proxy.seen.every((target) => target === hostOf(fake.url))).toBe(true);
    },
  );

  it('NO_PROXY bypasses the proxy for a listed host', async () => {
    const fake = await scene.serve([proAccount([VALUE])]);
    const env = {
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'localhost,127.0.0.1',
    };
    const usage = await scene.run(['--json'], { env });
    expect(usage.code, usage.stdout).toBe(0);
    expect(proxy.seen).toEqual([]);
    expect(fake.requests.length).toBeGreaterThan(0);
  });

  it('an https:// base URL is tunnelled with CONNECT and verified against its certificate (the built CLI)', async () => {
    const fake = await scene.serve([proAccount([VALUE], 'dev@example.com', { events: { events } })], {
      tls: { cert: TEST_TLS_CERT, key: TEST_TLS_KEY },
    });
    const caFile = path.join(scene.home, 'test-ca.pem');
    fs.writeFileSync(caFile, TEST_TLS_CERT);
    const env = {
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      CODEXBAR_CURSOR_COOKIE: COOKIE,
      HTTPS_PROXY: proxy.url,
      // The test certificate is trusted the way a user trusts a corporate CA.
      NODE_EXTRA_CA_CERTS: caFile,
    };
    const [usage, cost] = await Promise.all([
      spawnCli(['--json'], { home: scene.home, env }),
      spawnCli(['cost', '--json', '--days', '30'], { home: scene.home, env, now: NOW }),
    ]);
    expect(usage.code, usage.stdout + usage.stderr).toBe(0);
    expect(JSON.parse(usage.stdout)[0].usage.primary.usedPercent).toBe(45);
    expect(cost.code, cost.stdout + cost.stderr).toBe(0);
    expect(JSON.parse(cost.stdout)[0].requestCounts.reported).toBeGreaterThan(0);
    // Each process opened its own tunnel (at least one), to the fake and nowhere else.
    expect(proxy.seen.length).toBeGreaterThanOrEqual(2);
    expect(proxy.seen.every((target) => target === hostOf(fake.url))).toBe(true);
    expect(fake.requests.some((request) => request.path === '/api/dashboard/get-filtered-usage-events')).toBe(
      true,
    );
  });
});
