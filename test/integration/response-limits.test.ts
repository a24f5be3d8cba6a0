/**
 * docs/invariants.md, "Every read is bounded": a response body is read while it streams and abandoned at its
 * cap, 2 MiB for the small JSON endpoints and 64 MiB for one events page, so a huge or endless answer costs
 * at most the cap in memory. The error names the endpoint and the limit; an optional lookup over its cap is
 * dropped like any failed optional lookup (docs/invariants.md, "Best-effort lookups never fail a run"). The
 * process's peak memory is measured in test/integration/process-limits.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { generateEvents } from '../fake-cursor/events.js';
import type { FakeAccount, FakeResponse } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { attemptsAt, MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { useScene } from '../helpers/scene.js';
import { expectSuccess, runUsage, usageJson } from '../helpers/usage-cli.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const VALUE = 'user_limits%3A%3Amanual';
const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${VALUE}` } });

const MiB = 1024 * 1024;
/** A body that never ends: the fake streams 1 MiB chunks until the client goes away. */
const endless: FakeResponse = { stream: { chunk: `[${'0,'.repeat(512 * 1024 - 1)}` } };
/** 3 MiB announced up front by Content-Length. */
const declared: FakeResponse = { text: `"${'x'.repeat(3 * MiB)}"` };
/** 3 MiB in chunks, no Content-Length: only counting while it streams can stop it. */
const chunked: FakeResponse = { stream: { chunk: 'x'.repeat(64 * 1024), bytes: 3 * MiB } };

describe('the 2 MiB cap of the small endpoints', () => {
  it.each([
    ['an endless chunked body', endless],
    ['a 3 MiB body with Content-Length', declared],
    ['a 3 MiB chunked body', chunked],
  ])('usage-summary with %s fails at the cap, naming the endpoint and the limit', async (_, answer) => {
    const { result } = await runUsage(
      scene,
      proAccount([VALUE], 'dev@example.com', { usageSummary: answer }),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'Error: Cursor API error: response larger than 2 MiB (GET /api/usage-summary)',
    );
  });

  it('the same failure as a JSON error row', async () => {
    const { result } = await runUsage(
      scene,
      proAccount([VALUE], 'dev@example.com', { usageSummary: endless }),
      {
        args: ['--json'],
      },
    );
    expect(result.code).toBe(1);
    expect(usageJson(result)).toMatchObject({
      provider: 'cursor',
      error: { code: 1, message: 'Cursor API error: response larger than 2 MiB (GET /api/usage-summary)' },
    });
  });

  it('optional lookups over their cap are dropped and usage still prints', async () => {
    const account = proAccount([VALUE], 'dev@example.com', {
      me: endless,
      legacyUsage: chunked,
      sand: declared,
    });
    const { result, fake } = await runUsage(scene, account, { args: ['--json'] });
    expectSuccess(result);
    const row = usageJson(result);
    expect(row.usage.primary?.usedPercent).toBe(45);
    // auth/me was dropped, so no email from it.
    expect((row.usage as { accountEmail?: string }).accountEmail).toBeUndefined();
    expect(result.stderr).toMatch(
      /GET \/api\/auth\/me.*response larger than 2 MiB|response larger than 2 MiB.*GET \/api\/auth\/me/,
    );
    expect(fake.requests.map((request) => request.path)).toContain('/api/auth/me');
  });
});

describe('the 64 MiB cap of an events page', () => {
  it('an endless events page fails at the cap, is not retried, and no total is printed', async () => {
    const events = generateEvents({ count: 10, start: new Date('2026-11-10T00:00:00Z'), end: NOW, seed: 3 });
    const account: FakeAccount = {
      cookies: [MANUAL_COOKIE_VALUE],
      events: (req, attempt) =>
        (req.body as { page: number }).page === 1 && attempt === 0
          ? endless
          : { json: { usageEventsDisplay: events } },
    };
    const json = await runCost([account], ['--json', '--days', '30'], { now: NOW });
    expect(json.code).toBe(1);
    expect(onlyRow(json)).toMatchObject({
      daily: [],
      error: {
        code: 1,
        message:
          'Cursor API error: response larger than 64 MiB (POST /api/dashboard/get-filtered-usage-events)',
      },
    });
    expect(onlyRow(json).totals).toBeUndefined();
    expect(attemptsAt(json.requests, 1)).toBe(1);
  });
});
