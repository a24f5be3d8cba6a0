/**
 * `codexbar proxy` where things go wrong or a client tries something: aborts, upstream errors, timeouts and
 * cuts, authentication and revocation, requests that try to change the upstream, body caps, malformed
 * bodies. One proxy serves the file (with `--upstream-timeout 1s --max-body 1`), in front of a recorder
 * that shows the exact request target and Host the upstream was sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeUpstream } from '../fake-upstream/server.js';
import {
  createToken,
  newRows,
  type ProxyHarness,
  startProxyHarness,
  UPSTREAM_KEY,
} from '../helpers/proxy.js';
import { type OpenScene, openScene } from '../helpers/scene.js';

const MiB = 1024 * 1024;

interface Recorded {
  /** The request target exactly as it arrived (path and query). */
  target: string;
  host: string | undefined;
}

interface Recorder {
  upstream: FakeUpstream;
  seen: Recorded[];
  close(): Promise<void>;
}

/**
 * A pass-through in front of the fake upstream that records each request's raw target and Host (the fake
 * keeps only the path). A 3xx answer's Location is pointed back at the recorder (`/followed`), so a proxy
 * that followed a redirect would show up here.
 */
async function startRecorder(fake: FakeUpstream): Promise<Recorder> {
  const seen: Recorded[] = [];
  const target = new URL(fake.origin);
  let origin = '';
  const server = http.createServer((req, res) => {
    seen.push({ target: req.url ?? '', host: req.headers.host });
    const out = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        const headers = { ...answer.headers };
        if (headers.location) headers.location = `${origin}/followed`;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        answer.on('aborted', () => res.destroy());
      },
    );
    out.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    upstream: { ...fake, origin, url: `${origin}/v1` },
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** One request over a plain socket, exactly as written (absolute-form targets, any Host, dot segments). */
function rawRequest(port: number, head: string, body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, head: text.slice(0, at), body: text.slice(at + 4) });
    });
    socket.write(
      `${head.replace(/\n/g, '\r\n')}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

let scene: OpenScene;
let h: ProxyHarness;
let recorder: Recorder;
let fake: FakeUpstream;
let victimToken: string;

beforeAll(async () => {
  scene = openScene();
  fake = await startFakeUpstream({ key: UPSTREAM_KEY });
  recorder = await startRecorder(fake);
  scene.defer(() => fake.close());
  scene.defer(() => recorder.close());
  // A second token, for the revocation test (the proxy loads the tokens at start).
  victimToken = await createToken(scene, 'to-revoke');
  h = await startProxyHarness(scene, {
    upstream: recorder.upstream,
    args: ['--upstream-timeout', '1s', '--max-body', '1'],
  });
});
afterAll(() => scene?.close());

const auth = () => ({ authorization: `Bearer ${h.token}` });
const json = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));
const post = (body: unknown, init: RequestInit & { path?: string } = {}) =>
  fetch(`${h.url}${init.path ?? '/v1/chat/completions'}`, {
    method: 'POST',
    ...init,
    headers: { 'content-type': 'application/json', ...auth(), ...(init.headers as Record<string, string>) },
    body: json(body),
  });
const hi = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

/** Resolves true when `promise` settles within `ms`, false otherwise. */
const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
  ]);

describe('the client goes away', () => {
  it('an abort mid-stream cancels the upstream request and leaves a partial client-aborted row', async () => {
    const before = h.rows().length;
    const index = fake.requests.length;
    const controller = new AbortController();
    // The fake writes the first frame at once, then waits a minute for the next.
    const res = await post(
      hi('slow', { stream: true, stream_options: { include_usage: true }, fake_delay_ms: 60_000 }),
      {
        signal: controller.signal,
      },
    );
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(Buffer.from(first?.value ?? []).toString()).toContain('"role":"assistant"');
    controller.abort();
    await reader?.cancel().catch(() => {});
    expect(await within(fake.closed(index), 1_000)).toBe(true);
    expect(fake.requests[index]?.aborted).toBe(true);
    const [row] = await newRows(h, before, 1);
    expect(row).toMatchObject({
      model: 'slow',
      route: 'chat',
      stream: 1,
      status: 200,
      completed: 0,
      outcome: 'client-aborted',
      // The usage comes last: none of it was seen.
      prompt_tokens: null,
      completion_tokens: null,
    });
  });
});

describe('upstream errors pass through', () => {
  it.each([
    ['error-429', 429],
    ['error-500', 500],
  ])(
    '%s: the status, the body and retry-after reach the client, and the row has the status',
    async (model, status) => {
      const before = h.rows().length;
      const directly = await fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${UPSTREAM_KEY}` },
        body: json(hi(model)),
      });
      const res = await post(hi(model));
      expect(res.status).toBe(status);
      expect(await res.text()).toBe(await directly.text());
      expect(res.headers.get('retry-after')).toBe(directly.headers.get('retry-after'));
      if (status === 429) expect(res.headers.get('retry-after')).toBe('1');
      const [row] = await newRows(h, before, 1);
      expect(row).toMatchObject({ model, status, completed: 1, outcome: 'completed', prompt_tokens: null });
    },
  );

  it('the openai SDK gets an APIError with the status, the error body and retry-after', async () => {
    const before = h.rows().length;
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
    for (const [model, status] of [
      ['error-429', 429],
      ['error-500', 500],
    ] as const) {
      const error = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(status);
      expect((apiError.error as { type?: string }).type).toBe(status === 429 ? 'requests' : 'server_error');
      if (status === 429) {
        expect(apiError).toBeInstanceOf(OpenAI.RateLimitError);
        expect(apiError.headers?.get('retry-after')).toBe('1');
      }
    }
    const rows = await newRows(h, before, 2);
    expect(rows.map((row) => [row.status, row.stream, row.outcome])).toEqual([
      [429, 1, 'completed'],
      [500, 1, 'completed'],
    ]);
  });
});

describe('authentication', () => {
  it('a missing or wrong proxy token gets 401 and nothing goes upstream, also for GET /v1/models', async () => {
    const before = fake.requests.length;
    const rowsBefore = h.rows().length;
    const credentials: (string | undefined)[] = [
      undefined,
      'Bearer',
      'Bearer cbxp_wrong',
      `Bearer ${h.token}x`,
      `Basic ${Buffer.from(`user:${h.token}`).toString('base64')}`,
      // The provider key is no proxy token.
      `Bearer ${UPSTREAM_KEY}`,
    ];
    for (const authorization of credentials) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization !== undefined) headers.authorization = authorization;
      const chat = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: json(hi('gpt-4.1')),
      });
      expect(chat.status, authorization).toBe(401);
      expect(await chat.json()).toMatchObject({ error: { type: 'codexbar_proxy_error' } });
      const models = await fetch(`${h.url}/v1/models`, { headers });
      expect(models.status, authorization).toBe(401);
      await models.arrayBuffer();
    }
    expect(fake.requests.length).toBe(before);
    expect(h.rows().length).toBe(rowsBefore);
    // The right token works for both.
    const models = await fetch(`${h.url}/v1/models`, { headers: auth() });
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(fake.requests.at(-1)?.path).toBe('/v1/models');
  });

  it('GET /health is 200 without a token and goes nowhere', async () => {
    const before = fake.requests.length;
    const res = await fetch(`${h.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(fake.requests.length).toBe(before);
  });

  it('a revoked token stops working on the running proxy within 1.5 s; the other keeps working', async () => {
    const models = (token: string) =>
      fetch(`${h.url}/v1/models`, { headers: { authorization: `Bearer ${token}` } }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });
    expect(await models(victimToken)).toBe(200);
    const listed = await scene.run(['proxy', 'token', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const entries = JSON.parse(listed.stdout) as { id: string; label: string }[];
    const victim = entries.find((entry) => entry.label === 'to-revoke');
    if (!victim) throw new Error(`no token labelled to-revoke in ${listed.stdout}`);
    const revoked = await scene.run(['proxy', 'token', 'revoke', victim.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const at = Date.now();
    let status = await models(victimToken);
    while (status !== 401 && Date.now() - at < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await models(victimToken);
    }
    expect(status).toBe(401);
    expect(Date.now() - at).toBeLessThan(1_500);
    expect(await models(h.token)).toBe(200);
  });
});

describe('a request cannot change the upstream', () => {
  const upstreamHost = () => new URL(recorder.upstream.origin).host;
  const body = json(hi('gpt-4.1'));

  it.each([
    ['an absolute-form target', 'http://evil.example/v1/chat/completions', 'evil.example', ''],
    ['an absolute-form target with the proxy as Host', 'http://evil.example:80/v1/chat/completions', '', ''],
    ['a Host naming another host', '/v1/chat/completions', 'evil.example', ''],
    [
      'forwarding headers naming another host',
      '/v1/chat/completions',
      '',
      'X-Forwarded-Host: evil.example\nX-Forwarded-Proto: http\nX-Forwarded-Port: 80\nForwarded: host=evil.example;proto=http',
    ],
    ['dot segments', '/v1/../v1/chat/completions', '', ''],
    ['dot segments out of the base', '/../../chat/completions', '', ''],
    ['dot segments after the route', '/v1/chat/completions/../../models', '', ''],
    ['percent-encoded dot segments', '/v1/%2e%2e/v1/chat/completions', '', ''],
    ['percent-encoded dots and slash', '/v1/%2E%2E%2Fchat/completions', '', ''],
    ['an authority-like path', '//evil.example/v1/chat/completions', '', ''],
    ['a query string', '/v1/chat/completions?api-version=1&base=http://evil.example/', '', ''],
    ['a query string on the short route', '/chat/completions?x=1', '', ''],
    ['an unknown path', '/v1/embeddings', '', ''],
    ['a path under the route', '/v1/chat/completions/extra', '', ''],
    ['another top-level path', '/admin', '', ''],
  ])(
    '%s reaches the upstream at exactly /v1/chat/completions, or nowhere',
    async (_name, target, host, extra) => {
      const before = recorder.seen.length;
      const fakeBefore = fake.requests.length;
      const head = [
        `POST ${target} HTTP/1.1`,
        `Host: ${host || new URL(h.url).host}`,
        `Authorization: Bearer ${h.token}`,
        'Content-Type: application/json',
        'Connection: close',
        ...(extra ? [extra] : []),
      ].join('\n');
      const answer = await rawRequest(h.proxy.port, head, body);
      const sent = recorder.seen.slice(before);
      if (sent.length === 0) {
        expect([400, 404]).toContain(answer.status);
        expect(fake.requests.length).toBe(fakeBefore);
      } else {
        expect(sent).toEqual([{ target: '/v1/chat/completions', host: upstreamHost() }]);
        expect(answer.status).toBe(200);
        expect(answer.body).toContain('Hello from the fake upstream.');
        expect(fake.requests.at(-1)?.path).toBe('/v1/chat/completions');
        const headers = fake.requests.at(-1)?.headers ?? {};
        expect(
          Object.keys(headers).filter((name) => name.startsWith('x-forwarded') || name === 'forwarded'),
        ).toEqual([]);
      }
      expect(answer.head).not.toMatch(/evil\.example/i);
    },
  );

  it('cookies, forwarding and Cloudflare headers and the proxy token stay here; the upstream gets its own key', async () => {
    const res = await post(hi('gpt-4.1'), {
      headers: {
        cookie: 'session=abc',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'http',
        forwarded: 'for=203.0.113.9;host=evil.example',
        'x-real-ip': '203.0.113.9',
        'cf-connecting-ip': '203.0.113.9',
        'cf-ray': '8f00000000000000-AMS',
        'proxy-authorization': `Bearer ${h.token}`,
        'x-api-key': h.token,
        'user-agent': 'cursor-test/1.0',
        'openai-beta': 'assistants=v2',
        'x-title': 'codexbar test',
      },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const received = fake.requests.at(-1);
    if (!received) throw new Error('no upstream request');
    const { headers } = received;
    expect(headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    for (const name of [
      'cookie',
      'x-forwarded-for',
      'x-forwarded-host',
      'x-forwarded-proto',
      'forwarded',
      'x-real-ip',
      'cf-connecting-ip',
      'cf-ray',
      'proxy-authorization',
      'x-api-key',
    ]) {
      expect(headers[name], name).toBeUndefined();
    }
    expect(Object.values(headers).some((value) => value.includes(h.token))).toBe(false);
    // What a provider reads is passed on.
    expect(headers['user-agent']).toBe('cursor-test/1.0');
    expect(headers['openai-beta']).toBe('assistants=v2');
    expect(headers['x-title']).toBe('codexbar test');
    expect(headers['accept-encoding']).toBe('identity');
    // The Host the upstream was sent is its own (the recorder saw it; it then forwards to the fake).
    expect(recorder.seen.at(-1)?.host).toBe(new URL(recorder.upstream.origin).host);
  });

  it('an upstream redirect becomes a 502 without a Location, and is not followed', async () => {
    const before = h.rows().length;
    const seenBefore = recorder.seen.length;
    const res = await post(hi('redirect'), { redirect: 'manual' });
    expect(res.status).toBe(502);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).not.toContain('followed');
    // The recorder points the Location back at itself: a followed redirect would be a second request here.
    expect(recorder.seen.slice(seenBefore).map((r) => r.target)).toEqual(['/v1/chat/completions']);
    const [row] = await newRows(h, before, 1);
    expect(row).toMatchObject({ model: 'redirect', status: 502, completed: 0, outcome: 'upstream-redirect' });
  });
});

describe('the upstream fails', () => {
  it('an upstream that never answers gets 504 after --upstream-timeout, a partial upstream-timeout row, and is cancelled', async () => {
    const before = h.rows().length;
    const index = fake.requests.length;
    const started = Date.now();
    const res = await post(hi('hang', { stream: true }));
    const waited = Date.now() - started;
    expect(res.status).toBe(504);
    await res.arrayBuffer();
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(2_500);
    expect(await within(fake.closed(index), 1_000)).toBe(true);
    const [row] = await newRows(h, before, 1);
    expect(row).toMatchObject({
      model: 'hang',
      stream: 1,
      status: 504,
      completed: 0,
      outcome: 'upstream-timeout',
    });
  });

  it.each([
    ['a stream', true],
    ['a JSON answer', false],
  ])(
    'an upstream cut in %s fails the client read (never a clean end), and leaves an upstream-cut row',
    async (_name, stream) => {
      const before = h.rows().length;
      const res = await post(
        hi('cut', { stream, stream_options: stream ? { include_usage: true } : undefined }),
      );
      expect(res.status).toBe(200);
      const reader = res.body?.getReader();
      if (!reader) throw new Error('no body');
      const seen: Buffer[] = [];
      const read = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'clean end';
          seen.push(Buffer.from(value));
        }
      })();
      await expect(read).rejects.toThrow();
      // What came before the cut did reach the client.
      expect(Buffer.concat(seen).length).toBeGreaterThan(0);
      const [row] = await newRows(h, before, 1);
      expect(row).toMatchObject({
        model: 'cut',
        stream: stream ? 1 : 0,
        status: 200,
        completed: 0,
        outcome: 'upstream-cut',
        prompt_tokens: null,
      });
    },
  );

  it('an upstream cut mid-stream is an error for the openai SDK, not a stream that just ends', async () => {
    const before = h.rows().length;
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: h.token, maxRetries: 0 });
    const chunks: unknown[] = [];
    const read = (async () => {
      const stream = await client.chat.completions.create({
        model: 'cut',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) chunks.push(chunk);
    })();
    await expect(read).rejects.toThrow();
    expect(chunks.length).toBeGreaterThan(0);
    const [row] = await newRows(h, before, 1);
    expect(row).toMatchObject({ model: 'cut', completed: 0, outcome: 'upstream-cut' });
  });
});

describe('request bodies', () => {
  /** A Chat body of exactly `size` bytes (its one user message padded). */
  const bodyOf = (size: number) => {
    const empty = json(hi('gpt-4.1', { messages: [{ role: 'user', content: '' }] }));
    const pad = size - Buffer.byteLength(empty);
    return { text: json(hi('gpt-4.1', { messages: [{ role: 'user', content: 'b'.repeat(pad) }] })), pad };
  };

  it('a body of exactly --max-body passes, with its counts', async () => {
    const before = h.rows().length;
    const { text, pad } = bodyOf(MiB);
    expect(Buffer.byteLength(text)).toBe(MiB);
    const res = await post(text);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(fake.requests.at(-1)?.body.length).toBe(MiB);
    const [row] = await newRows(h, before, 1);
    expect(row).toMatchObject({ status: 200, outcome: 'completed', prompt_tokens: pad });
  });

  it.each([
    ['with a Content-Length', false],
    ['sent chunked', true],
  ])(
    'a body one byte over --max-body, %s, gets 413, no upstream request and a body-too-large row',
    async (_name, chunked) => {
      const before = h.rows().length;
      const fakeBefore = fake.requests.length;
      const text = bodyOf(MiB + 1).text;
      let answer: RawAnswer;
      if (chunked) {
        // Chunked: the proxy can only tell by reading up to the cap.
        const bytes = Buffer.from(text);
        const chunkedBody = `${(MiB / 2).toString(16)}\r\n${bytes.subarray(0, MiB / 2).toString()}\r\n${(bytes.length - MiB / 2).toString(16)}\r\n${bytes.subarray(MiB / 2).toString()}\r\n0\r\n\r\n`;
        answer = await rawChunked(h.proxy.port, chunkedBody);
      } else {
        answer = await rawRequest(
          h.proxy.port,
          `POST /v1/chat/completions HTTP/1.1\nHost: x\nAuthorization: Bearer ${h.token}\nContent-Type: application/json\nConnection: close`,
          text,
        );
      }
      expect(answer.status).toBe(413);
      expect(fake.requests.length).toBe(fakeBefore);
      const [row] = await newRows(h, before, 1);
      expect(row).toMatchObject({ route: 'chat', status: 413, completed: 0, outcome: 'body-too-large' });
    },
  );

  it.each([
    ['not JSON', '{not json'],
    ['a JSON array', '[{"model":"gpt-4.1","messages":[]}]'],
  ])(
    'a body that is %s goes upstream byte for byte, its 400 comes back, and the proxy keeps serving',
    async (_name, text) => {
      const before = h.rows().length;
      const directly = await fetch(`${fake.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${UPSTREAM_KEY}` },
        body: text,
      });
      const res = await post(text);
      expect(res.status).toBe(400);
      expect(await res.text()).toBe(await directly.text());
      expect(fake.requests.at(-1)?.body.toString('utf8')).toBe(text);
      const good = await post(hi('gpt-4.1'));
      expect(good.status).toBe(200);
      expect(await good.text()).toContain('Hello from the fake upstream.');
      const [row, next] = await newRows(h, before, 2);
      expect(row).toMatchObject({
        route: 'chat',
        model: null,
        stream: 0,
        status: 400,
        conversation: null,
        prompt_tokens: null,
      });
      expect(next).toMatchObject({ model: 'gpt-4.1', status: 200, outcome: 'completed', prompt_tokens: 2 });
    },
  );
});

/** A chunked POST over a plain socket (Transfer-Encoding: chunked, no Content-Length). */
function rawChunked(port: number, chunkedBody: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The proxy may close before taking the rest of an oversized body: what it answered still counts.
      if (chunks.length > 0 && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return;
      reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
        head: text.slice(0, at),
        body: text.slice(at + 4),
      });
    });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunkedBody}`,
    );
  });
}
