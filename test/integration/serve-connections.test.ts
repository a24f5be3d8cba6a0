/**
 * docs/invariants.md, "Servers safe by default": idle and slow clients never lock anyone out, every
 * socket that does not deliver its head in time is closed, and a connection carries one request. The head
 * deadline is injected, so no test waits 10 s.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeResponse } from '../fake-cursor/server.js';
import {
  gated,
  type ServeHarness,
  serveAccount,
  startServeHarness,
  USAGE_SUMMARY,
  until,
} from '../helpers/serve.js';

let serve: ServeHarness | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await serve?.close();
  serve = undefined;
});

interface Idle {
  socket: net.Socket;
  /** Bytes the server sent on it (an idle socket must be closed without an answer). */
  received: () => number;
  closed: Promise<void>;
}

async function openIdle(port: number, partial?: string): Promise<Idle> {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = 0;
  socket.on('data', (chunk) => {
    received += chunk.length;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (partial) socket.write(partial);
  return { socket, received: () => received, closed };
}

describe('idle sockets do not lock anyone out', () => {
  it('with 200 sockets that never finish their head, GET /health from another client is answered', async () => {
    serve = await startServeHarness({ deps: { headDeadlineMs: 60_000 } });
    const harness = serve;
    const idle = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        openIdle(
          harness.server.port,
          i % 2 === 0 ? undefined : 'GET /usage HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ',
        ),
      ),
    );
    await until(() => harness.server.listener.pendingHeads() === 200, 'the server to hold 200 sockets');
    const health = await harness.get('/health');
    expect(health.status).toBe(200);
    const usage = await harness.get('/usage');
    expect(usage.status).toBe(200);
    // They were still open while the others were served.
    expect(harness.server.listener.pendingHeads()).toBe(200);
    expect(idle.every((socket) => !socket.socket.destroyed)).toBe(true);
  });

  it('every socket without a complete head is closed at the head deadline, without an answer', async () => {
    serve = await startServeHarness({ deps: { headDeadlineMs: 100 } });
    const harness = serve;
    const idle = await Promise.all([
      ...Array.from({ length: 20 }, () => openIdle(harness.server.port)),
      ...Array.from({ length: 20 }, () => openIdle(harness.server.port, 'GET /health HTTP/1.1\r\nHost: 127')),
    ]);
    await Promise.all(idle.map((socket) => socket.closed));
    expect(idle.map((socket) => socket.received())).toEqual(Array(40).fill(0));
    expect(harness.server.listener.pendingHeads()).toBe(0);
    expect((await harness.get('/health')).status).toBe(200);
  });

  it('a client trickling its head one byte at a time is still cut off at the deadline', async () => {
    serve = await startServeHarness({ deps: { headDeadlineMs: 150 } });
    const slow = await openIdle(serve.server.port);
    const head =
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n';
    let sent = 0;
    const timer = setInterval(() => {
      if (!slow.socket.destroyed && sent < head.length) slow.socket.write(head[sent++]!);
    }, 10);
    await slow.closed;
    clearInterval(timer);
    expect(sent).toBeLessThan(head.length);
    expect(slow.received()).toBe(0);
  });

  it('a socket silent for longer than the read interval is closed before the head deadline', async () => {
    serve = await startServeHarness({ deps: { headDeadlineMs: 60_000, readIdleMs: 100 } });
    const silent = await openIdle(serve.server.port, 'GET /health HTTP/1.1\r\n');
    await silent.closed;
    expect(silent.received()).toBe(0);
    expect(serve.server.listener.pendingHeads()).toBe(0);
  });

  it('when too many sockets wait for their head, the one that waited longest is closed to make room', async () => {
    serve = await startServeHarness({ deps: { headDeadlineMs: 60_000, maxPendingHeads: 5 } });
    const harness = serve;
    const idle: Idle[] = [];
    for (let i = 0; i < 5; i++) idle.push(await openIdle(harness.server.port));
    await until(() => harness.server.listener.pendingHeads() === 5, 'five pending sockets');
    idle.push(await openIdle(harness.server.port));
    await idle[0]!.closed;
    await until(
      () => harness.server.listener.pendingHeads() === 5,
      'the newest socket to take the freed place',
    );
    expect(idle.slice(1).every((socket) => !socket.socket.destroyed)).toBe(true);
    // A real request evicts one more idle socket and is answered.
    expect((await harness.get('/health')).status).toBe(200);
  });

  it('the head deadline stops counting once the head is in: a slow answer is still delivered', async () => {
    const summary = gated(() => serveAccount().usageSummary as FakeResponse);
    serve = await startServeHarness({
      accounts: [serveAccount(undefined, { usageSummary: summary.handler })],
      // Long enough that a busy test worker still delivers the head in time (the server shares its event
      // loop), short enough to wait well past.
      deps: { headDeadlineMs: 250 },
    });
    const pending = serve.get('/usage');
    await until(() => summary.waiting() === 1, 'the fetch to reach cursor.com');
    // Well past the head deadline (an injected 250 ms), the request is still waiting for its answer.
    await sleep(600);
    summary.open();
    expect((await pending).status).toBe(200);
  });
});

/** Writes `bytes` in one write and never ends its side: resolves to what came back once the server closes. */
function sendOnce(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.once('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
      socket.destroy();
    });
    socket.write(bytes);
  });
}

describe('one request per connection', () => {
  const responses = (raw: string) => raw.match(/^HTTP\/1\.1 \d{3} /gm) ?? [];

  it.each([1, 2, 2000])(
    '%i pipelined requests in one write: the first alone is run, answered and logged, then the server closes',
    async (count) => {
      const logged: string[] = [];
      serve = await startServeHarness({ deps: { log: (request) => logged.push(request.url ?? '') } });
      const port = serve.server.port;
      const request = `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
      const raw = await sendOnce(port, request.repeat(count));
      expect(responses(raw)).toEqual(['HTTP/1.1 200 ']);
      expect(raw).toContain('\r\nConnection: close\r\n');
      expect(raw.endsWith('\r\n\r\n{"status":"ok","version":"9.9.9"}')).toBe(true);
      expect(logged).toEqual(['/health']);
      expect(serve.server.listener.inFlight()).toBe(0);
    },
  );

  it('a /usage pipelined behind /health never reaches cursor.com', async () => {
    serve = await startServeHarness();
    const port = serve.server.port;
    const request = (target: string) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const raw = await sendOnce(port, request('/health') + request('/usage'));
    expect(responses(raw)).toEqual(['HTTP/1.1 200 ']);
    expect(serve.count(USAGE_SUMMARY)).toBe(0);
    expect(serve.server.listener.inFlight()).toBe(0);
  });
});
