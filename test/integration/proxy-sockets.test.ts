/**
 * `proxy` under idle, trickling and expecting clients (docs/proxy.md, "How a request passes"): sockets that
 * never finish a head cost nothing and are dropped at the head deadline, a body that trickles is cut at the
 * body deadline, and `Expect: 100-continue` is met only once the request is authenticated.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startProxyHarness } from '../helpers/proxy.js';
import { useScene } from '../helpers/scene.js';

const HEAD_DEADLINE_MS = 400;
const READ_IDLE_MS = 200;
const BODY_DEADLINE_MS = 300;

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What the server sent before it closed the socket, and when it closed (ms after the call). */
function until(socket: net.Socket): Promise<{ text: string; closedAfterMs: number }> {
  const start = Date.now();
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    text += chunk;
  });
  socket.on('error', () => {});
  return new Promise((resolve) =>
    socket.once('close', () => resolve({ text, closedAfterMs: Date.now() - start })),
  );
}

const CHAT = JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] });

describe('proxy against idle and slow clients', () => {
  const scene = useScene();
  const start = () =>
    startProxyHarness(scene, {
      hooks: { headDeadlineMs: HEAD_DEADLINE_MS, readIdleMs: READ_IDLE_MS, bodyDeadlineMs: BODY_DEADLINE_MS },
    });

  it('idle sockets and a trickling head lock nobody out, and are closed at their deadlines', async () => {
    const h = await start();
    const idle = await Promise.all(Array.from({ length: 50 }, () => connect(h.proxy.port)));
    const idleClosed = idle.map(until);
    // A head that trickles one byte at a time, faster than the read-idle interval: still bound by the head deadline.
    const trickler = await connect(h.proxy.port);
    const trickled = until(trickler);
    const head = 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n';
    let at = 0;
    const timer = setInterval(() => {
      if (at < head.length && !trickler.destroyed) trickler.write(head[at++]!);
    }, READ_IDLE_MS / 3);
    try {
      const health = await fetch(`${h.url}/health`);
      expect(health.status).toBe(200);
      const chat = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: CHAT,
      });
      expect(chat.status).toBe(200);
      expect(await chat.text()).toContain('data: [DONE]');
      const closed = await Promise.all(idleClosed);
      for (const socket of closed) expect(socket.closedAfterMs).toBeLessThan(HEAD_DEADLINE_MS + 1_000);
      const cut = await trickled;
      expect(cut.closedAfterMs).toBeGreaterThanOrEqual(HEAD_DEADLINE_MS - 100);
      expect(cut.closedAfterMs).toBeLessThan(HEAD_DEADLINE_MS + 1_000);
      expect(h.upstream.requests).toHaveLength(1);
    } finally {
      clearInterval(timer);
    }
  });

  it('a body that does not arrive in time is 408, and nothing goes upstream or into the ledger', async () => {
    const h = await start();
    const socket = await connect(h.proxy.port);
    const answer = until(socket);
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${CHAT.length}\r\n\r\n${CHAT.slice(0, 10)}`,
    );
    const { text, closedAfterMs } = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(BODY_DEADLINE_MS - 100);
    expect(h.upstream.requests).toHaveLength(0);
    expect(h.rows()).toHaveLength(0);
  });

  it('Expect: 100-continue gets no 100 without a valid token, and a 100 then the answer with one', async () => {
    const h = await start();
    const refused = await connect(h.proxy.port);
    const refusal = until(refused);
    refused.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nExpect: 100-continue\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${CHAT.length}\r\n\r\n`,
    );
    const refusedText = (await refusal).text;
    expect(refusedText).toMatch(/^HTTP\/1\.1 401 /);
    expect(refusedText).not.toContain('100 Continue');

    const accepted = await connect(h.proxy.port);
    const acceptance = until(accepted);
    let sentBody = false;
    accepted.on('data', (chunk: string) => {
      if (!sentBody && chunk.includes('100 Continue')) {
        sentBody = true;
        accepted.write(CHAT);
      }
      if (chunk.includes('data: [DONE]')) accepted.end();
    });
    accepted.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nExpect: 100-continue\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${CHAT.length}\r\n\r\n`,
    );
    const text = (await acceptance).text;
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(text).toContain('data: [DONE]');
    expect(h.upstream.requests).toHaveLength(1);
    expect(h.upstream.requests[0]?.body.toString()).toContain('"include_usage":true');
  });

  it('keeps a connection for the next request, and closes it after an answer of its own', async () => {
    const h = await start();
    const socket = await connect(h.proxy.port);
    const answer = until(socket);
    const request = (authorization: string) =>
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${CHAT.length}\r\n\r\n${CHAT}`;
    let sent = 1;
    let received = '';
    socket.on('data', (chunk: string) => {
      received += chunk;
      // Once an answer is whole, the same connection asks again: with the token, then with a bad one.
      const answers = received.split('data: [DONE]').length - 1;
      if (sent === answers && sent < 3) {
        sent++;
        socket.write(request(sent === 2 ? h.token : 'wrong'));
      }
    });
    socket.write(request(h.token));
    const { text } = await answer;
    expect(text.match(/^HTTP\/1\.1 200 /gm)).toHaveLength(2);
    expect(text).toMatch(/HTTP\/1\.1 401 [\s\S]*connection: close/i);
    expect(h.upstream.requests).toHaveLength(2);
    expect(h.rows()).toHaveLength(2);
  });
});
