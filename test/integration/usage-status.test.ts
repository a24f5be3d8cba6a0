import { describe, expect, it } from 'vitest';
import type { FakeCursor, Handler } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { useScene } from '../helpers/scene.js';

const COOKIE_VALUE = 'user_status%3A%3Asession';
const COOKIE = `WorkosCursorSessionToken=${COOKIE_VALUE}`;

const scene = useScene({ env: { CODEXBAR_CURSOR_COOKIE: COOKIE } });

/**
 * The status page's real 10 s budget, which an answer given at once meets on any machine: only the test of a
 * status page slower than its budget makes it short.
 */
async function usage(
  statusPage: Handler | undefined,
  args: string[],
  env: Record<string, string> = {},
  timing: { statusTimeoutMs?: number } = {},
) {
  const fake = await scene.serve([proAccount([COOKIE_VALUE])], { statusPage });
  return scene.run(['usage', '--status', ...args], {
    env: { CODEXBAR_CURSOR_STATUS_URL: fake.url, ...env },
    timing,
  });
}

const MINOR: Handler = {
  json: {
    page: {
      id: 'x',
      name: 'Cursor',
      url: 'https://status.cursor.com',
      updated_at: '2026-07-20T14:58:12.345Z',
    },
    status: { indicator: 'minor', description: 'Partially Degraded Service' },
  },
};

const statusRequests = (server: FakeCursor) =>
  server.requests.filter((r) => r.path === '/api/v2/status.json');

describe('usage --status: the Statuspage indicator', () => {
  it('text: `Status: <label> – <description>` ends the section', async () => {
    const result = await usage(MINOR, ['--no-color']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Status: Partial outage \u2013 Partially Degraded Service',
    );
  });

  it("JSON: CodexBar's status object with the site URL, and no credential is sent to the status site", async () => {
    const result = await usage(MINOR, ['--json']);
    const row = JSON.parse(result.stdout)[0];
    expect(row.status).toEqual({
      indicator: 'minor',
      description: 'Partially Degraded Service',
      updatedAt: '2026-07-20T14:58:12Z',
      url: scene.fake!.url,
    });
    const [request] = statusRequests(scene.fake!);
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('the status line is coloured as a whole by indicator (minor: yellow)', async () => {
    const result = await usage(MINOR, [], { FORCE_COLOR: '1' });
    expect(result.stdout).toContain(
      '\u001b[33mStatus: Partial outage \u2013 Partially Degraded Service\u001b[39m',
    );
  });

  it('each indicator has CodexBar\'s label; an unknown one is "Status unknown"', async () => {
    const labels: Record<string, string> = {
      none: 'Operational',
      major: 'Major outage',
      critical: 'Critical issue',
      maintenance: 'Maintenance',
      sideways: 'Status unknown',
    };
    for (const [indicator, label] of Object.entries(labels)) {
      const result = await usage({ json: { status: { indicator } } }, ['--no-color']);
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(`Status: ${label}`);
      await scene.fake?.close();
    }
  });

  it('a failing status page is indicator unknown with the reason; the usage itself still succeeds', async () => {
    const result = await usage({ status: 503, json: {} }, ['--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].status).toEqual({
      indicator: 'unknown',
      description: 'Status page answered HTTP 503',
      url: scene.fake!.url,
    });
  });

  it('an endless status answer is abandoned at 2 MiB: indicator unknown, the usage still succeeds', async () => {
    const fake = await scene.serve([proAccount([COOKIE_VALUE])], {
      statusPage: { stream: { chunk: `{"status":"${'x'.repeat(64 * 1024)}` } },
    });
    const result = await scene.run(['usage', '--status', '--json'], {
      env: { CODEXBAR_CURSOR_STATUS_URL: fake.url },
      // Room to read the 2 MiB on a loaded machine: the cap, not the deadline, must end it.
      timing: { statusTimeoutMs: 20_000 },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].status).toEqual({
      indicator: 'unknown',
      description: 'Status page answered more than 2 MiB',
      url: fake.url,
    });
  });

  it('a status page slower than the budget is reported as such', async () => {
    const result = await usage({ json: {}, delayMs: 5_000 }, ['--no-color'], {}, { statusTimeoutMs: 200 });
    expect(result.stdout).toContain('Status: Status unknown \u2013 Status page did not answer within 0.2 s');
  });

  it("an error row carries the status too, as CodexBar's does", async () => {
    const result = await usage(MINOR, ['--json'], {
      CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=wrong',
    });
    expect(result.code).toBe(1);
    const row = JSON.parse(result.stdout)[0];
    expect(row.error.kind).toBe('provider');
    expect(row.status.indicator).toBe('minor');
  });

  it('without --status the status site is never asked', async () => {
    const fake = await scene.serve([proAccount([COOKIE_VALUE])], { statusPage: MINOR });
    const result = await scene.run(['usage', '--json'], { env: { CODEXBAR_CURSOR_STATUS_URL: fake.url } });
    expect(JSON.parse(result.stdout)[0]).not.toHaveProperty('status');
    expect(statusRequests(fake)).toEqual([]);
  });

  it('CODEXBAR_CURSOR_STATUS_URL must be https or loopback http: refused before any request', async () => {
    const result = await usage(MINOR, ['--json'], {
      CODEXBAR_CURSOR_STATUS_URL: 'http://status.example.com',
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        provider: 'cli',
        source: 'cli',
        error: {
          code: 1,
          message:
            'Refusing CODEXBAR_CURSOR_STATUS_URL http://status.example.com: only https:// or http:// on a loopback host is allowed.',
          kind: 'config',
        },
      },
    ]);
    expect(scene.fake!.requests).toEqual([]);
  });
});
