/**
 * docs/invariants.md, "Servers safe by default", the process itself: the built bin stops accepting on SIGINT,
 * SIGTERM or SIGHUP, finishes the requests in flight (bounded by the request timeout) and exits 0.
 */
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeCursor, FakeResponse } from '../fake-cursor/server.js';
import { repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { useScene } from '../helpers/scene.js';
import { freePort, gated, httpGet, SERVE_COOKIE, serveAccount, until } from '../helpers/serve.js';
import { type ServeProcess, spawnServe } from '../helpers/serve-process.js';

const BIN = path.join(repoRoot, 'bin', 'codexbar.js');

const scene = useScene();

async function startBin(fake: FakeCursor, args: string[]): Promise<ServeProcess> {
  seedCompileCache(scene.home);
  const served = await spawnServe(BIN, ['--port', String(await freePort()), ...args], {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    CODEXBAR_CURSOR_BASE_URL: fake.url,
    CODEXBAR_CURSOR_COOKIE: SERVE_COOKIE,
  });
  scene.defer(() => {
    if (served.child.exitCode === null && served.child.signalCode === null) served.child.kill('SIGKILL');
  });
  return served;
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

async function untilRefused(port: number): Promise<void> {
  for (let attempt = 0; attempt < 2000; attempt++) if (await refusesConnections(port)) return;
  throw new Error('the server kept accepting connections');
}

async function withFake(summary: ReturnType<typeof gated>): Promise<FakeCursor> {
  return scene.serve([serveAccount(undefined, { usageSummary: summary.handler })]);
}

const summaryAnswer = () => serveAccount().usageSummary as FakeResponse;

// POSIX signals: Windows has no SIGHUP, and kill() there ends a process without a signal it can handle.
describe.skipIf(process.platform === 'win32')('graceful shutdown of the real process', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    '%s: stops accepting, finishes the request in flight, exits 0',
    async (signal) => {
      const summary = gated(summaryAnswer);
      const served = await startBin(await withFake(summary), []);
      const inFlight = httpGet('127.0.0.1', served.port, '/usage');
      await until(() => summary.waiting() === 1, 'the request to reach cursor.com', 100_000);
      served.child.kill(signal);
      await untilRefused(served.port);
      summary.open();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect((response.json() as Array<{ usage?: unknown }>)[0]?.usage).toBeDefined();
      expect(await served.exited).toEqual({ code: 0, signal: null });
    },
  );

  it('a request stuck upstream is bounded by the request timeout: it gets its timeout row, then exit 0', async () => {
    const summary = gated(summaryAnswer);
    const served = await startBin(await withFake(summary), ['--request-timeout', '0.3']);
    const inFlight = httpGet('127.0.0.1', served.port, '/usage');
    await until(() => summary.waiting() === 1, 'the request to reach cursor.com', 100_000);
    served.child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.json()).toEqual([
      {
        provider: 'cursor',
        source: 'auto',
        error: { code: 1, message: 'cursor usage timed out', kind: 'provider' },
      },
    ]);
    expect(await served.exited).toEqual({ code: 0, signal: null });
    summary.open();
  });

  it('a second signal during a slow shutdown ends the process at once', async () => {
    const summary = gated(summaryAnswer);
    const served = await startBin(await withFake(summary), ['--request-timeout', '0']);
    void httpGet('127.0.0.1', served.port, '/usage').catch(() => {});
    await until(() => summary.waiting() === 1, 'the request to reach cursor.com', 100_000);
    served.child.kill('SIGTERM');
    await untilRefused(served.port);
    served.child.kill('SIGTERM');
    expect(await served.exited).toEqual({ code: null, signal: 'SIGTERM' });
    summary.open();
  });
});
