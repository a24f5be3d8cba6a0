/**
 * `serve` through `run(['serve', …], io)` in-process: flag errors and the start-up matrix
 * (docs/invariants.md, "Servers safe by default") as JSON rows before anything is bound, the banner, the
 * token sources, request logging.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/serve/server.js';
import type { CliResult } from '../helpers/cli.js';
import { useScene } from '../helpers/scene.js';
import { freePort, httpGet, rawRequest, SERVE_COOKIE, SERVE_NOW, serveAccount } from '../helpers/serve.js';

const scene = useScene({ now: SERVE_NOW, frozen: true });

/** `codexbar serve …` in-process to the end: for the runs that exit before they listen. */
const serve = (argv: string[], env: Record<string, string> = {}) => scene.run(['serve', ...argv], { env });

/** Runs serve until it is listening, hands the server to `use`, then stops it; resolves to the exit code. */
async function runServing(
  argv: string[],
  env: Record<string, string>,
  use: (server: RunningServer) => Promise<void>,
): Promise<CliResult> {
  const stop = new AbortController();
  let used: Promise<void> = Promise.resolve();
  const result = await scene.run(['serve', ...argv], {
    env,
    serveHooks: {
      stop: stop.signal,
      onListening: (server) => {
        used = use(server).finally(() => stop.abort());
      },
    },
  });
  await used;
  return result;
}

function errorRow(stdout: string) {
  const rows = JSON.parse(stdout) as Array<{
    provider: string;
    source: string;
    error: { message: string; kind: string; code: number };
  }>;
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ provider: 'cli', source: 'cli' });
  return rows[0]!.error;
}

describe('start-up errors are JSON rows on stdout, exit 1, before binding', () => {
  it.each([
    [['--port', 'abc'], '--port must be between 1 and 65535.'],
    [['--port', '65536'], '--port must be between 1 and 65535.'],
    [['--host', '::1'], "--host must be 'localhost' or an IPv4 address."],
    [['--host', 'example.com'], "--host must be 'localhost' or an IPv4 address."],
    [['--refresh-interval', '-1'], '--refresh-interval must be a finite number of seconds'],
    [['--request-timeout', 'inf'], '--request-timeout must be a finite number of seconds'],
    [['--identity', 'partial'], 'Allowed choices are redacted, full.'],
    [['--dashboard-token', '  '], '--dashboard-token must not be empty or whitespace.'],
    [
      ['--host', '0.0.0.0'],
      "--dashboard-token (or CODEXBAR_DASHBOARD_TOKEN) is required for non-loopback --host '0.0.0.0'.",
    ],
    [
      ['--host', '127.0.0.2', '--dashboard-token', 'x'],
      "Refusing to serve the dashboard token over cleartext HTTP on non-loopback --host '127.0.0.2'. Pass --allow-plain-http",
    ],
  ])('serve %j', async (argv, message) => {
    const port = await freePort();
    const result = await serve(['--port', String(port), ...argv]);
    expect(result.code).toBe(1);
    const error = errorRow(result.stdout);
    expect(error).toMatchObject({ code: 1, kind: 'args' });
    expect(error.message).toContain(message);
    expect(result.stderr).toBe('');
    // Nothing was bound.
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  });

  it('a blank CODEXBAR_DASHBOARD_TOKEN is an error even when the flag is given', async () => {
    const result = await serve(['--dashboard-token', 'flag'], { CODEXBAR_DASHBOARD_TOKEN: ' ' });
    expect(result.code).toBe(1);
    expect(errorRow(result.stdout).message).toBe('CODEXBAR_DASHBOARD_TOKEN must not be empty or whitespace.');
  });

  it('a refused CODEXBAR_CURSOR_BASE_URL is a config row at start-up', async () => {
    const result = await serve(['--port', String(await freePort())], {
      CODEXBAR_CURSOR_BASE_URL: 'http://example.com',
    });
    expect(result.code).toBe(1);
    expect(errorRow(result.stdout)).toMatchObject({ kind: 'config' });
  });

  it('a port in use is a runtime row naming the address', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const result = await serve(['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(errorRow(result.stdout)).toEqual({
        code: 1,
        kind: 'runtime',
        message: `Could not listen on 127.0.0.1:${port}: the address is already in use.`,
      });
      expect(result.stderr).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('a server that starts', () => {
  it('loopback: the banner on stderr, nothing on stdout, exit 0 when stopped', async () => {
    const port = await freePort();
    const result = await runServing(['--port', String(port), '--host', 'localhost'], {}, async (server) => {
      expect((await httpGet('127.0.0.1', server.port, '/health')).status).toBe(200);
    });
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: `CodexBar server listening on http://127.0.0.1:${port}\n`,
    });
  });

  it('non-loopback with a token and --allow-plain-http: a cleartext warning; the token is never printed', async () => {
    const port = await freePort();
    const result = await runServing(
      ['--port', String(port), '--host', '127.0.0.2', '--allow-plain-http'],
      { CODEXBAR_DASHBOARD_TOKEN: 'sup3r-secret-token' },
      async (server) => {
        const auth = { Authorization: 'Bearer sup3r-secret-token' };
        expect(
          (await httpGet('127.0.0.2', server.port, '/dashboard/v1/snapshot?detail=shell', auth)).status,
        ).toBe(200);
      },
    );
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')).toEqual([
      `CodexBar server listening on http://127.0.0.2:${port}`,
      "Warning: serving cleartext HTTP on non-loopback --host '127.0.0.2': the dashboard token and your usage cross the network unencrypted.",
      '',
    ]);
    expect(result.stderr + result.stdout).not.toContain('sup3r-secret-token');
  });

  it('CODEXBAR_DASHBOARD_TOKEN wins over --dashboard-token', async () => {
    const port = await freePort();
    await runServing(
      ['--port', String(port), '--dashboard-token', 'from-flag'],
      { CODEXBAR_DASHBOARD_TOKEN: 'from-env' },
      async (server) => {
        const snapshot = (token: string) =>
          httpGet('127.0.0.1', server.port, '/dashboard/v1/snapshot?detail=shell', {
            Authorization: `Bearer ${token}`,
          });
        expect((await snapshot('from-env')).status).toBe(200);
        expect((await snapshot('from-flag')).status).toBe(401);
      },
    );
  });

  it('-v logs one line per request: method, path without the query, status, cache state; never a token', async () => {
    const port = await freePort();
    const result = await runServing(
      ['--port', String(port), '-v'],
      { CODEXBAR_DASHBOARD_TOKEN: 'log-secret' },
      async (server) => {
        await httpGet('127.0.0.1', server.port, '/health?token=log-secret', {
          Authorization: 'Bearer log-secret',
        });
        await httpGet('127.0.0.1', server.port, '/dashboard/v1/snapshot?access_token=log-secret');
      },
    );
    const lines = result.stderr.trim().split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[serve\] GET \/health 200 \d+ms$/);
    expect(lines[1]).toMatch(/^\[serve\] GET \/dashboard\/v1\/snapshot 401 \d+ms$/);
    expect(result.stderr).not.toContain('log-secret');
  });

  it('-v logs an absolute-form target by its path alone: never its user:password@ or host', async () => {
    const port = await freePort();
    const result = await runServing(['--port', String(port), '-v'], {}, async (server) => {
      await rawRequest(
        '127.0.0.1',
        server.port,
        `GET http://admin:hunter2@evil.example/health?token=x HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
      );
    });
    const [, line] = result.stderr.trim().split('\n');
    expect(line).toMatch(/^\[serve\] GET \/health \d{3} \d+ms/);
    expect(result.stderr).not.toMatch(/hunter2|admin|evil\.example|token/);
  });

  it('--json-output logs JSON lines', async () => {
    const port = await freePort();
    const result = await runServing(
      ['--port', String(port), '--log-level', 'debug', '--json-output'],
      {},
      async (server) => {
        await httpGet('127.0.0.1', server.port, '/nowhere?x=1');
      },
    );
    const [, line] = result.stderr.trim().split('\n');
    expect(JSON.parse(line!)).toMatchObject({
      level: 'info',
      label: 'serve',
      method: 'GET',
      path: '/nowhere',
      status: 404,
    });
  });
});

describe('serve --help and defaults', () => {
  it('documents the host, token, plain-http, timeout flags, the snapshot route, the env var and cleartext', async () => {
    const result = await serve(['--help']);
    expect(result.code).toBe(0);
    for (const text of [
      '--host <address>',
      '(default: "127.0.0.1")',
      '--port <port>',
      '(default: 8080)',
      '--refresh-interval <seconds>',
      '(default: 60)',
      '--request-timeout <seconds>',
      '(default: 30)',
      '--dashboard-token <token>',
      '--allow-plain-http',
      '--identity <mode>',
      '/dashboard/v1/snapshot',
      'CODEXBAR_DASHBOARD_TOKEN',
      'cleartext',
      'Examples:',
    ]) {
      // commander wraps help at 80 columns.
      expect(result.stdout.replace(/\s+/g, ' ')).toContain(text);
    }
  });

  it('--identity redacted: the snapshot keeps the plan and drops the email and account id', async () => {
    const fake = await scene.serve([serveAccount()]);
    const port = await freePort();
    await runServing(
      ['--port', String(port), '--identity', 'redacted'],
      {
        CODEXBAR_DASHBOARD_TOKEN: 't',
        CODEXBAR_CURSOR_BASE_URL: fake.url,
        CODEXBAR_CURSOR_COOKIE: SERVE_COOKIE,
      },
      async (server) => {
        const response = await httpGet('127.0.0.1', server.port, '/dashboard/v1/snapshot', {
          Authorization: 'Bearer t',
        });
        const [provider] = (response.json() as { providers: Array<{ identity: unknown }> }).providers;
        expect(provider?.identity).toEqual({ plan: 'Cursor Pro' });
        expect(response.body).not.toContain('dev@example.com');
      },
    );
  });
});
