import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CURSOR_ORIGIN, resolveBaseUrl } from '../../src/api/base-url.js';
import { CursorClient, parseRetryAfter } from '../../src/api/client.js';
import { ApiError, ConfigError, NotLoggedInError, ParseError, TimeoutError } from '../../src/errors.js';
import { type FakeAccount, type FakeCursor, startFakeCursor } from '../fake-cursor/server.js';

describe('CODEXBAR_CURSOR_BASE_URL (docs/behaviour.md §10.1)', () => {
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
  let fake: FakeCursor | undefined;
  let client: CursorClient | undefined;
  afterEach(async () => {
    await client?.close();
    await fake?.close();
  });

  async function clientFor(usageSummary: FakeAccount['usageSummary']): Promise<CursorClient> {
    fake = await startFakeCursor({ accounts: [{ cookies: ['ok'], usageSummary }] });
    client = new CursorClient({ baseUrl: fake.url });
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
    expect(fake?.requests.map((r) => r.path)).toEqual(['/api/usage-summary']);
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
