/**
 * The api2 client (src/api/api2/client.ts, docs/api2.md) against the fake api2 over real HTTP: what it sends,
 * how Connect errors become typed errors, and the caps every answer is held to.
 */
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Api2Client, Api2DeniedError, rpcPath } from '../../src/api/api2/client.js';
import { proxySettings } from '../../src/api/transport.js';
import { ApiError, NotLoggedInError, ParseError, TimeoutError } from '../../src/errors.js';
import { connectError } from '../fake-cursor/api2.js';
import {
  type FakeCursor,
  type FakeResponse,
  listenOnLoopback,
  startFakeCursor,
} from '../fake-cursor/server.js';

const TOKEN = 'header.payload-of-a-token.signature';
const USAGE = rpcPath('DashboardService', 'GetCurrentPeriodUsage');
const shape = z.object({ billingCycleEnd: z.string() });

let fake: FakeCursor;
let answer: FakeResponse | ((attempt: number) => FakeResponse) = { json: { billingCycleEnd: '1' } };
let client: Api2Client;

beforeAll(async () => {
  fake = await startFakeCursor({
    accounts: [
      {
        cookies: [],
        bearers: [TOKEN],
        rpc: {
          'DashboardService/GetCurrentPeriodUsage': (_req, attempt) =>
            typeof answer === 'function' ? answer(attempt) : answer,
        },
      },
    ],
  });
});
afterAll(() => fake.close());

afterEach(async () => {
  await client?.close();
  fake.requests.length = 0;
  answer = { json: { billingCycleEnd: '1' } };
});

function newClient(baseUrl = fake.url, timer?: (ms: number) => AbortSignal): Api2Client {
  client = new Api2Client({ baseUrl, proxy: proxySettings({}), timer });
  return client;
}

const call = (bearer: string | undefined = TOKEN, maxBytes?: number) =>
  client.request({ path: USAGE, bearer, body: {}, timeoutMs: 5_000, schema: shape, maxBytes });

describe('a unary call', () => {
  it('is a JSON POST with the Bearer token and the Connect version, and no cookie or Origin', async () => {
    newClient();
    await expect(call()).resolves.toEqual({ billingCycleEnd: '1' });
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/aiserver.v1.DashboardService/GetCurrentPeriodUsage',
      body: {},
    });
    expect(request!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'connect-protocol-version': '1',
    });
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers.origin).toBeUndefined();
  });

  it('reads every body whole: calls in a row on one keep-alive client all decode', async () => {
    newClient();
    for (let i = 0; i < 5; i++) await expect(call()).resolves.toEqual({ billingCycleEnd: '1' });
    expect(fake.requests).toHaveLength(5);
  });

  it('a token that could forge a header is refused before anything is sent', async () => {
    newClient();
    await expect(call(`${TOKEN}\r\nx-evil: 1`)).rejects.toThrow(
      /the access token was not sent: it holds a line break/,
    );
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Connect errors', () => {
  it('an unknown token is "not logged in", naming the method', async () => {
    newClient();
    const error = await call('another-token').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotLoggedInError);
    expect((error as NotLoggedInError).endpoint).toBe(`POST ${USAGE}`);
    expect((error as NotLoggedInError).status).toBe(401);
  });

  it.each([
    ['a 403 whose debug error is ERROR_NOT_LOGGED_IN', connectError(403, 'internal', 'ERROR_NOT_LOGGED_IN')],
    ['a 400 with code unauthenticated', connectError(400, 'unauthenticated')],
    ['a bare 401 with an HTML page', { status: 401, text: '<html>no</html>' }],
  ])('%s is "not logged in" too', async (_, response) => {
    newClient();
    answer = response;
    await expect(call()).rejects.toBeInstanceOf(NotLoggedInError);
  });

  it('permission_denied is its own error, which a team method treats as not applicable', async () => {
    newClient();
    answer = connectError(403, 'permission_denied');
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Api2DeniedError);
    expect((error as Error).message).toBe(`Cursor API error: HTTP 403 (permission_denied) (POST ${USAGE})`);
  });

  it('a 429 keeps its Retry-After for the retry rules, and names the Connect code and debug error', async () => {
    newClient();
    answer = {
      ...connectError(429, 'resource_exhausted', 'ERROR_RATE_LIMITED'),
      headers: { 'retry-after': '7' },
    };
    const error = (await call().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(Api2DeniedError);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7_000);
    expect(error.message).toBe(
      `Cursor API error: HTTP 429 (resource_exhausted, ERROR_RATE_LIMITED) (POST ${USAGE})`,
    );
  });

  it("a 5xx HTML page is an HTTP error; the server's words never reach the message raw", async () => {
    newClient();
    answer = { status: 502, text: '<html>Bad gateway</html>' };
    await expect(call()).rejects.toThrow(`Cursor API error: HTTP 502 (POST ${USAGE})`);
    answer = { status: 500, json: { code: 'internal\u001b]8;;https://evil\u0007', message: 'x' } };
    const error = (await call().catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('internal\\x1b]8;;https://evil\\x07');
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('answers that are not the method', () => {
  it.each([
    ['HTML with status 200', { text: '<!doctype html><p>Sign in</p>' }, /JSON decode failed/],
    ['wrong types', { json: { billingCycleEnd: 17 } }, /billingCycleEnd: Invalid input/],
    ['an empty body', { text: '' }, /JSON decode failed/],
  ])('%s is a parse error naming the method', async (_, response, message) => {
    newClient();
    answer = response;
    const error = (await call().catch((e: unknown) => e)) as ParseError;
    expect(error).toBeInstanceOf(ParseError);
    expect(error.endpoint).toBe(`POST ${USAGE}`);
    expect(error.message).toMatch(message);
  });

  it('a body past the cap, declared or endless, is abandoned', async () => {
    newClient();
    answer = { text: `{"billingCycleEnd":"${'9'.repeat(2048)}"}` };
    await expect(call(TOKEN, 1024)).rejects.toThrow(`response larger than 0.0009765625 MiB (POST ${USAGE})`);
    answer = { stream: { chunk: '[1,' } };
    await expect(call(TOKEN, 64 * 1024)).rejects.toThrow(/response larger than 0.0625 MiB/);
  });

  it('a slow answer times out with exit code 4, naming the method', async () => {
    // The request's budget runs out when the test says, not after a real 5 s.
    const controller = new AbortController();
    newClient(fake.url, () => controller.signal);
    answer = { json: { billingCycleEnd: '1' }, delayMs: 60_000 };
    const pending = call().catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const error = (await pending) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.exitCode).toBe(4);
    expect(error.endpoint).toBe(`POST ${USAGE}`);
  });
});

describe('redirects', () => {
  it('are never followed: the token stays with the URL it was meant for', async () => {
    const seen: string[] = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(302, { location: `${fake.url}${USAGE}` });
      res.end();
    });
    const listener = await listenOnLoopback(other);
    try {
      newClient(listener.url);
      await expect(call()).rejects.toThrow(`Cursor API error: HTTP 302 (POST ${USAGE})`);
      expect(seen).toHaveLength(1);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await listener.close();
    }
  });
});
