import type { ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../fixtures/tls/loopback.js';
import { CURSOR_ORIGIN, resolveBaseUrl } from '../../src/api/base-url.js';
import { CursorClient, parseRetryAfter } from '../../src/api/client.js';
import { ApiError, ConfigError, NotLoggedInError, ParseError, TimeoutError } from '../../src/errors.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';

describe('CODEXBAR_CURSOR_BASE_URL', () => {
  it.each([
    [undefined, CURSOR_ORIGIN],
    ['', CURSOR_ORIGIN],
    ['https://cursor.example', 'https://cursor.example'],
    ['https://proxy.example/cursor/', 'https://proxy.example/cursor'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://localhost:4010/', 'http://localhost:4010'],
    ['http://[::1]:4010', 'http://[::1]:4010'],
  ])('%j is accepted as %s', (raw, expected) => {
    expect(resolveBaseUrl(raw)).toBe(expected);
  });

  it.each([
    ['http://example.com'],
    ['http://10.0.0.5:80'],
    ['http://127.0.0.1.nip.io'],
    ['ftp://127.0.0.1'],
    ['not a url'],
  ])('%s is refused before any request', (raw) => {
    expect(() => resolveBaseUrl(raw)).toThrow(ConfigError);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-30T00:00:00Z');
  it.each([
    ['3', 3000],
    [' 0 ', 0],
    ['Mon, 30 Nov 2026 00:00:05 GMT', 5000],
    ['Sun, 29 Nov 2026 00:00:00 GMT', 0],
    ['soon', undefined],
    [undefined, undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('CursorClient against the fake cursor.com', () => {
  const scene = useScene();

  async function clientFor(usageSummary: FakeAccount['usageSummary']): Promise<CursorClient> {
    const fake = await scene.serve([{ cookies: ['ok'], usageSummary }]);
    const client = new CursorClient({ baseUrl: fake.url });
    scene.defer(() => client.close());
    return client;
  }
  const get = (c: CursorClient, timeoutMs = 2000) =>
    c.request({
      method: 'GET',
      path: '/api/usage-summary',
      endpoint: 'GET /api/usage-summary',
      cookieHeader: 'WorkosCursorSessionToken=ok',
      timeoutMs,
      schema: z.object({ membershipType: z.string().optional() }),
    });

  it('decodes a 200 with the schema', async () => {
    await expect(get(await clientFor({ json: { membershipType: 'pro' } }))).resolves.toEqual({
      membershipType: 'pro',
    });
  });

  it.each([401, 403])('HTTP %i is "not logged in"', async (status) => {
    await expect(get(await clientFor({ status, json: {} }))).rejects.toBeInstanceOf(NotLoggedInError);
  });

  it('HTTP 500 is an ApiError naming the endpoint and status', async () => {
    const error = await get(await clientFor({ status: 500, json: {} })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Cursor API error: HTTP 500 (GET /api/usage-summary)');
  });

  it('a 429 carries its Retry-After', async () => {
    const error = await get(
      await clientFor({ status: 429, json: {}, headers: { 'retry-after': '7' } }),
    ).catch((e) => e);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7000 });
  });

  it('a redirect off https is not followed: the 3xx is the answer', async () => {
    const error = await get(
      await clientFor({ status: 302, headers: { location: '/elsewhere' }, json: {} }),
    ).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(302);
    expect(scene.fake?.requests.map((r) => r.path)).toEqual(['/api/usage-summary']);
  });

  it('non-JSON is a ParseError with the start of the body', async () => {
    const error = await get(await clientFor({ text: '<html>maintenance</html>' })).catch((e) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toMatch(
      /^Could not parse Cursor usage: GET \/api\/usage-summary: JSON decode failed: .*Raw: <html>maintenance<\/html>$/,
    );
  });

  it('a wrongly typed field is a ParseError naming the field', async () => {
    const error = await get(await clientFor({ json: { membershipType: 3 } })).catch((e) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect(error.message).toContain('membershipType');
  });

  // docs/invariants.md, "Every read is bounded", at a small cap (the endpoints' own, 2 and 64 MiB, are in
  // integration/response-limits).
  describe('a body is read up to its cap, and not a byte further', () => {
    const CAP = 1024 * 1024;
    const capped = (c: CursorClient) =>
      c.request({
        method: 'GET',
        path: '/api/usage-summary',
        endpoint: 'GET /api/usage-summary',
        cookieHeader: 'WorkosCursorSessionToken=ok',
        timeoutMs: 20_000,
        maxBytes: CAP,
        schema: z.object({ membershipType: z.string().optional() }),
      });
    /** A JSON body of exactly `bytes` bytes, announced by its Content-Length. */
    const declared = (bytes: number) => {
      const head = '{"membershipType":"pro","pad":"';
      return { text: `${head}${'x'.repeat(bytes - head.length - 2)}"}` };
    };
    const TOO_LARGE = 'Cursor API error: response larger than 1 MiB (GET /api/usage-summary)';

    it('Content-Length: exactly the cap is read and decoded; one byte more is refused', async () => {
      await expect(capped(await clientFor(declared(CAP)))).resolves.toEqual({ membershipType: 'pro' });
      await expect(capped(await clientFor(declared(CAP + 1)))).rejects.toThrow(TOO_LARGE);
    });

    it('streamed, without a length: exactly the cap is read whole (then fails to parse); one byte more is cut off', async () => {
      const stream = (bytes: number) => ({ stream: { chunk: 'x'.repeat(1024), bytes } });
      await expect(capped(await clientFor(stream(CAP)))).rejects.toBeInstanceOf(ParseError);
      const over = await capped(await clientFor(stream(CAP + 1))).catch((e) => e);
      expect(over).toBeInstanceOf(ApiError);
      expect(over.message).toBe(TOO_LARGE);
    });
  });

  it('a slow answer is a TimeoutError (exit code 4)', async () => {
    const error = await get(await clientFor({ json: {}, delayMs: 2000 }), 100).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.exitCode).toBe(4);
  });

  it('a reset connection is a transport ApiError', async () => {
    const error = await get(await clientFor({ destroy: true })).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.transport).toBe(true);
  });
});

/** An https server on 127.0.0.1 with the test certificate that records each path and answers `respond`. */
async function startHttpsServer(respond: (path: string, res: ServerResponse) => void) {
  const paths: string[] = [];
  const server = https.createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (req, res) => {
    paths.push(req.url ?? '');
    respond(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type HttpsServer = Awaited<ReturnType<typeof startHttpsServer>>;

describe('CursorClient follows https redirects only to the same host and port', () => {
  const servers: HttpsServer[] = [];
  // The client trusts the test certificate through its injected dispatcher, as it would a real CA.
  let dispatcher: Agent | undefined;
  afterEach(async () => {
    await dispatcher?.close();
    dispatcher = undefined;
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function server(respond: Parameters<typeof startHttpsServer>[0]): Promise<HttpsServer> {
    const started = await startHttpsServer(respond);
    servers.push(started);
    return started;
  }
  const ok = (res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"membershipType":"pro"}');
  const redirect = (res: ServerResponse, location: string) =>
    res.writeHead(302, { location, 'content-length': '0' }).end();
  const get = (baseUrl: string) => {
    dispatcher ??= new Agent({ connect: { ca: TEST_TLS_CERT } });
    return new CursorClient({ baseUrl, dispatcher }).request({
      method: 'GET',
      path: '/api/usage-summary',
      endpoint: 'GET /api/usage-summary',
      cookieHeader: 'WorkosCursorSessionToken=ok',
      timeoutMs: 5000,
      schema: z.object({ membershipType: z.string().optional() }),
    });
  };

  it('a redirect to another path on the same https host and port is followed', async () => {
    const a = await server((path, res) =>
      path === '/api/usage-summary' ? redirect(res, '/api/usage-summary?moved=1') : ok(res),
    );
    await expect(get(a.url)).resolves.toEqual({ membershipType: 'pro' });
    expect(a.paths).toEqual(['/api/usage-summary', '/api/usage-summary?moved=1']);
  });

  it('a redirect to another port on the same host is not followed: the 3xx is an error naming the endpoint', async () => {
    const b = await server((_path, res) => ok(res));
    const a = await server((_path, res) => redirect(res, `https://127.0.0.1:${b.port}/api/usage-summary`));
    const error = await get(a.url).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Cursor API error: HTTP 302 (GET /api/usage-summary)');
    expect(a.paths).toEqual(['/api/usage-summary']);
    expect(b.paths).toEqual([]);
    // B itself answers this client, so only the redirect rule kept the request from it.
    await expect(get(b.url)).resolves.toEqual({ membershipType: 'pro' });
  });
});
