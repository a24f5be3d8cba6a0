/**
 * The server over real sockets (docs/invariants.md, "Servers safe by default"): every status, body and
 * header a client can see, and that no malformed request takes the server down.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEAD_BYTES } from '../../src/serve/listener.js';
import { createRequestLogger } from '../../src/serve/log.js';
import { repoRoot } from '../helpers/cli.js';
import { httpGet, rawRequest, type ServeHarness, startServeHarness } from '../helpers/serve.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const PAGE_DIR = path.join(repoRoot, 'src', 'serve', 'page');

function expectError(
  response: { status: number; headers: Record<string, string>; body: string },
  status: number,
  body: string,
) {
  expect(response.status).toBe(status);
  expect(response.body).toBe(body);
  expect(response.headers).toMatchObject({
    'content-type': JSON_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    connection: 'close',
    'x-content-type-options': 'nosniff',
  });
}

describe('loopback bind: head checks, methods, routes', () => {
  let serve: ServeHarness;
  const raw = (text: string) => rawRequest('127.0.0.1', serve.server.port, text);

  beforeAll(async () => {
    serve = await startServeHarness({ env: { CODEXBAR_DASHBOARD_TOKEN: 'board-token' } });
  });
  afterAll(() => serve.close());

  it('GET /health: status and version, open even with a token configured, no Cache-Control', async () => {
    const response = await serve.get('/health');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: '9.9.9' });
    expect(response.headers['cache-control']).toBeUndefined();
    expect(response.headers).toMatchObject({ connection: 'close', 'content-type': JSON_TYPE });
  });

  it.each([
    ['an absolute-form target', 'GET http://127.0.0.1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a dot-dot segment', 'GET /icons/../health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['an encoded dot-dot segment', 'GET /icons/%2e%2e/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['no Host header', 'GET /health HTTP/1.1\r\n\r\n'],
    ['two Host headers', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n'],
    [
      'two Authorization headers',
      'GET /usage HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer a\r\n\r\n',
    ],
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['a malformed header line', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n'],
    ['a non-HTTP version', 'GET /health HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('%s: 400 invalid request', async (_name, request) => {
    expectError(await raw(request), 400, '{"error":"invalid request"}');
  });

  it(`a head over ${MAX_HEAD_BYTES} bytes: 400 invalid request`, async () => {
    const padding = `X-Pad: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n`;
    expectError(
      await raw(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${padding}\r\n`),
      400,
      '{"error":"invalid request"}',
    );
  });

  it('a head just under the limit is served', async () => {
    const response = await serve.get('/health', { 'X-Pad': 'a'.repeat(MAX_HEAD_BYTES - 200) });
    expect(response.status).toBe(200);
  });

  it.each(['evil.example', 'evil.example:8080', '192.168.1.20'])(
    'Host %s (DNS rebinding or another address): 403 forbidden host',
    async (host) => {
      expectError(await serve.get('/usage', { Host: host }), 403, '{"error":"forbidden host"}');
    },
  );

  it.each(['localhost', 'localhost.', '[::1]:1234', '127.0.0.1'])('Host %s is allowed', async (host) => {
    expect((await serve.get('/health', { Host: host })).status).toBe(200);
  });

  it.each(['POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'])(
    '%s: 405 method not allowed with Allow: GET',
    async (method) => {
      for (const path of ['/usage', '/', '/missing']) {
        const response = await raw(
          `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`,
        );
        expect(response.status).toBe(405);
        expect(response.headers.allow).toBe('GET');
        expect(response.headers['cache-control']).toBe('no-store');
        if (method !== 'HEAD') expect(response.body).toBe('{"error":"method not allowed"}');
      }
    },
  );

  it('CONNECT gets an answer instead of a dropped socket', async () => {
    const response = await raw('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expectError(response, 400, '{"error":"invalid request"}');
  });

  it.each([
    '/missing',
    '/usage/',
    '/dashboard/v1/missing',
    '/icons/unknown.svg',
    '/icons/cursor.png',
    '/favicon.ico',
  ])('%s: 404 not found with no-store', async (path) => {
    expectError(await serve.get(path), 404, '{"error":"not found"}');
  });

  it('the snapshot needs the token even on loopback: 401 with the challenge; a query token is ignored', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer wrong' },
      { Authorization: 'Basic board-token' },
    ];
    for (const headers of attempts) {
      const response = await serve.get('/dashboard/v1/snapshot', headers);
      expectError(response, 401, '{"error":"unauthorized"}');
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    const query = await serve.get('/dashboard/v1/snapshot?token=board-token&access_token=board-token');
    expectError(query, 401, '{"error":"unauthorized"}');
  });

  it('auth comes before query checks: a bad detail without a token is 401, with one it is 400', async () => {
    expect((await serve.get('/dashboard/v1/snapshot?detail=nope')).status).toBe(401);
    const response = await serve.get('/dashboard/v1/snapshot?detail=nope', {
      Authorization: 'Bearer board-token',
    });
    expectError(response, 400, `{"error":"Unknown detail 'nope'; use full or shell."}`);
  });

  it('a bad provider is 400 on every data route; the last provider value counts', async () => {
    const auth = { Authorization: 'Bearer board-token' };
    for (const route of ['/usage', '/cost', '/dashboard/v1/snapshot']) {
      expectError(
        await serve.get(`${route}?provider=codex`, auth),
        400,
        `{"error":"Unknown provider 'codex'."}`,
      );
      expectError(
        await serve.get(`${route}?provider=cursor&provider=claude`, auth),
        400,
        `{"error":"Unknown provider 'claude'."}`,
      );
      expect((await serve.get(`${route}?provider=claude&provider=BOTH`, auth)).status).toBe(200);
    }
  });

  it('the snapshot with the token: decodable dashboard-v1 JSON with no-store; shell fetches nothing', async () => {
    const before = serve.count('/api/usage-summary');
    const shell = await serve.get('/dashboard/v1/snapshot?detail=shell', {
      Authorization: 'bearer  board-token ',
    });
    expect(shell.status).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-store');
    expect(shell.json()).toMatchObject({
      schemaVersion: 1,
      staleAfterSeconds: 60,
      host: { codexBarVersion: '9.9.9', refreshIntervalSeconds: 60 },
      providers: [
        { id: 'cursor', name: 'Cursor', enabled: true, source: 'auto', windows: [], identity: null },
      ],
    });
    expect(serve.count('/api/usage-summary')).toBe(before);

    const full = (
      await serve.get('/dashboard/v1/snapshot', { Authorization: 'Bearer board-token' })
    ).json() as {
      providers: Array<{ windows: Array<{ id: string; label: string }>; identity: unknown; error: unknown }>;
    };
    expect(full.providers[0]?.windows.map((window) => window.label)).toEqual([
      'Total',
      'Cursor',
      'Third Party',
    ]);
    expect(full.providers[0]?.identity).toMatchObject({ email: 'dev@example.com', plan: 'Cursor Pro' });
    expect(full.providers[0]?.error).toBeNull();
  });

  it('/usage and /cost are open on loopback even with a token configured, and carry no-store', async () => {
    for (const route of ['/usage', '/cost']) {
      const response = await serve.get(route);
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'content-type': JSON_TYPE });
    }
  });

  it('GET /: the page with a self-only CSP and no-store; its script, style and icons are served', async () => {
    const page = await serve.get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // Nothing on the page points anywhere else, and it needs no token on loopback.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(page.body).toContain('<meta name="codexbar-auth" content="none">');
    expect(page.body).toContain('<meta name="codexbar-refresh-seconds" content="60">');
    for (const [route, type, file] of [
      ['/js/app.js', 'text/javascript; charset=utf-8', 'app.js'],
      ['/js/format.js', 'text/javascript; charset=utf-8', 'format.js'],
      ['/js/dom.js', 'text/javascript; charset=utf-8', 'dom.js'],
      ['/js/usage-view.js', 'text/javascript; charset=utf-8', 'usage-view.js'],
      ['/js/cost-view.js', 'text/javascript; charset=utf-8', 'cost-view.js'],
      ['/app.css', 'text/css; charset=utf-8', 'app.css'],
      ['/icons/cursor.svg', 'image/svg+xml', 'icons/cursor.svg'],
      ['/icons/codexbar.svg', 'image/svg+xml', 'icons/codexbar.svg'],
    ] as const) {
      const response = await serve.get(route);
      expect(response.status, route).toBe(200);
      expect(response.headers['content-type']).toBe(type);
      expect(response.body).toBe(fs.readFileSync(path.join(PAGE_DIR, file), 'utf8'));
      expect(response.body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
  });

  it('the server is still healthy after all of the above', async () => {
    expect((await serve.get('/health')).status).toBe(200);
  });
});

describe('Expect header', () => {
  let serve: ServeHarness;
  const logged: string[] = [];
  const raw = (text: string) => rawRequest('127.0.0.1', serve.server.port, text);

  beforeAll(async () => {
    const stderr = { write: (line: string) => logged.push(line) };
    serve = await startServeHarness({
      deps: { log: createRequestLogger({ stderr, json: false, now: () => new Date(0) }) },
    });
  });
  afterAll(() => serve.close());

  it.each(['fancy', '100-continue, fancy'])(
    'an expectation the server cannot meet (%s) is a 417 JSON error with the usual headers, logged, then closed',
    async (expectation) => {
      logged.length = 0;
      const response = await serve.get('/health', { Expect: expectation });
      expectError(response, 417, '{"error":"expectation failed"}');
      const notFound = await serve.get('/missing');
      expect(Object.keys(response.headers).sort()).toEqual(Object.keys(notFound.headers).sort());
      expect(logged[0]).toMatch(/^\[serve\] GET \/health 417 \d+ms\n$/);
    },
  );

  it('Expect: 100-continue gets no interim 100: the final answer comes at once', async () => {
    const health = await serve.get('/health', { Expect: '100-Continue' });
    expect(health.raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(health.json()).toEqual({ status: 'ok', version: '9.9.9' });
    // A client holding back its body until told to continue learns at once that it need not send it.
    const post = await raw(
      'POST /usage HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(post.raw).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expectError(post, 405, '{"error":"method not allowed"}');
  });

  it('an HTTP/1.0 request has no expectations: its Expect header is ignored', async () => {
    const response = await raw('GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\nExpect: fancy\r\n\r\n');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: '9.9.9' });
  });
});

describe('non-loopback bind', () => {
  let serve: ServeHarness;

  beforeAll(async () => {
    serve = await startServeHarness({
      flags: { host: '127.0.0.2', allowPlainHttp: true },
      env: { CODEXBAR_DASHBOARD_TOKEN: 'lan-token' },
    });
  });
  afterAll(() => serve.close());

  it('/usage and /cost need the Bearer token; /health and the page stay open', async () => {
    for (const route of ['/usage', '/cost']) {
      const denied = await serve.get(route);
      expectError(denied, 401, '{"error":"unauthorized"}');
      expect(denied.headers['www-authenticate']).toBe('Bearer');
      expect((await serve.get(`${route}?token=lan-token`)).status).toBe(401);
      const allowed = await serve.get(route, { Authorization: 'Bearer lan-token' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['cache-control']).toBe('no-store');
    }
    expect((await serve.get('/health')).status).toBe(200);
    const page = await serve.get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<meta name="codexbar-auth" content="bearer">');
  });

  it('its own address and loopback names are allowed as Host; others are refused', async () => {
    const port = serve.server.port;
    expect((await serve.get('/health', { Host: `127.0.0.2:${port}` })).status).toBe(200);
    expect((await serve.get('/health', { Host: 'localhost' })).status).toBe(200);
    expectError(await serve.get('/health', { Host: 'attacker.example' }), 403, '{"error":"forbidden host"}');
    const wrongHost = await httpGet('127.0.0.2', port, '/health', { Host: '127.0.0.3' });
    expect(wrongHost.status).toBe(403);
  });
});
