/**
 * What reaches the user's terminal from cursor.com or a local file:
 * - control characters (C0, DEL, C1) in server- or file-derived text print as visible escapes in text, and
 *   JSON keeps them, escaped by the encoder
 *   (docs/invariants.md, "Control characters never reach a terminal");
 * - a credential echoed back by a server never reaches stdout or stderr, in text or JSON
 *   (docs/invariants.md, "Never a credential shown");
 * - figures no account can have print as unknown in text with a --verbose note, and JSON keeps cursor.com's
 *   numbers.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAccount, HandlerFunction } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import type { CliResult } from '../helpers/cli.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { makeToken, writeAppToken } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const ESC = '\u001b';
const BEL = '\u0007';
const scene = useScene({ now: NOW });

/** `codexbar usage <args>` against a fresh fake cursor.com serving `account`. */
async function usage(
  account: FakeAccount,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliResult> {
  await scene.serve([account]);
  return scene.run(['usage', ...args], { env });
}

/** No raw control character other than the line feeds that end lines. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('control characters from cursor.com print as visible escapes in text', () => {
  const VALUE = 'user_safe%3A%3Amanual';
  const cookie = { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${VALUE}` };
  const hostileEmail = `dev@example.com${ESC}]0;pwned${BEL}\nPlan: Cursor Ultra${ESC}[2J\u009b31m`;
  const hostile = (): FakeAccount => {
    const account = proAccount([VALUE], hostileEmail);
    const summary = (account.usageSummary as { json: Record<string, unknown> }).json;
    return { ...account, usageSummary: { json: { ...summary, membershipType: `pro${ESC}[31m\nred` } } };
  };

  it('usage text: an ESC, an OSC title and a newline in the email and the plan name are shown, not obeyed', async () => {
    const result = await usage(hostile(), [], cookie);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(
      'Account: dev@example.com\\x1b]0;pwned\\x07\\x0aPlan: Cursor Ultra\\x1b[2J\\x9b31m',
    );
    // Each word's first letter is raised, the one after the escaped newline too.
    expect(lines).toContain('Plan: Cursor Pro\\x1b[31m\\x0aRed');
    // The forged line is not a line of its own.
    expect(lines.filter((line) => line.startsWith('Plan: '))).toHaveLength(1);
  });

  it('usage JSON keeps the characters, escaped by the encoder', async () => {
    const result = await usage(hostile(), ['--json'], cookie);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toContain('\\u001b]0;pwned\\u0007\\n');
    const row = JSON.parse(result.stdout)[0];
    expect(row.usage.accountEmail).toBe(hostileEmail);
    expect(row.usage.loginMethod).toBe(`Cursor pro${ESC}[31m\nred`);
  });

  it('an error whose excerpt carries control characters is printed safely on stderr', async () => {
    const account = proAccount([VALUE], 'dev@example.com', {
      usageSummary: { text: `<html>${ESC}]0;pwned${BEL}${ESC}[2J\r\nbad gateway</html>` },
    });
    const result = await usage(account, [], cookie);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toContain('Raw: <html>\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x0abad gateway</html>');
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('cost: a model name with an ESC and a newline, in the table and in the notes; JSON keeps it', async () => {
    const model = `evil${ESC}[31m\nmodel${BEL}`;
    const account: FakeAccount = {
      cookies: [MANUAL_COOKIE_VALUE],
      events: {
        events: [
          // Unpriced (no totalCents, unknown model), so it is also named in the "no known price" note.
          { timestamp: String(NOW.getTime() - 3_600_000), model, tokenUsage: { inputTokens: 100 } },
          {
            timestamp: String(NOW.getTime() - 7_200_000),
            model: 'gpt-5',
            tokenUsage: { inputTokens: 10, totalCents: 1 },
          },
        ],
      },
    };
    const [text, breakdown, json] = await Promise.all([
      runCost([account], ['--days', '7'], { now: NOW }),
      runCost([account], ['--days', '7', '--breakdown', '--compact'], { now: NOW }),
      runCost([account], ['--days', '7', '--json'], { now: NOW }),
    ]);
    for (const run of [text, breakdown]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(RAW_CONTROL);
      expect(run.stdout).toContain('evil\\x1b[31m\\x0amodel\\x07');
    }
    expect(text.stdout).toMatch(/no known price \(evil\\x1b\[31m\\x0amodel\\x07\)/);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    const models = (onlyRow(json).byModel as Array<{ modelName: string }>).map((entry) => entry.modelName);
    expect(models).toContain(model);
  });
});

describe('a response that echoes the credential is printed with it redacted', () => {
  /** Everything of the session that must never be printed, in pieces a partial echo could show. */
  async function appSession() {
    const token = await makeToken('user_01JECHOEDBACK', { email: 'echo@example.com' });
    writeAppToken(scene.home, token.jwt);
    const [header, payload, signature] = token.jwt.split('.') as [string, string, string];
    const pieces = [token.cookieValue, token.jwt, header, payload, signature, token.userId];
    return { token, pieces };
  }

  const expectNoPiece = (output: string, pieces: string[]) => {
    for (const piece of pieces) {
      expect(output).not.toContain(piece);
      // Not even the start of one, as a cut excerpt would show it.
      expect(output).not.toContain(piece.slice(0, 12));
    }
  };

  const echoes: Array<[string, HandlerFunction]> = [
    ['the Cookie header', (req) => ({ text: `Invalid session: ${req.headers.cookie}` })],
    [
      'the decoded cookie value',
      (req) => ({
        text: `Invalid session for ${decodeURIComponent(req.headers.cookie ?? '').split('=')[1]}`,
      }),
    ],
    [
      'the token alone, deep in the body',
      (req) => ({
        text: `${'.'.repeat(150)} token ${decodeURIComponent(req.headers.cookie ?? '').split('::')[1]}`,
      }),
    ],
  ];

  it.each(echoes)('a 200 non-JSON body echoing %s: text and JSON', async (_, echo) => {
    const { token, pieces } = await appSession();
    const account = proAccount([token.cookieValue], 'echo@example.com', { usageSummary: echo });
    const text = await usage(account, ['--verbose']);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(
      /^Error: Could not parse Cursor usage: GET \/api\/usage-summary: JSON decode failed: .*Raw: /m,
    );
    expect(text.stderr).toContain('[REDACTED]');
    expectNoPiece(text.stdout + text.stderr, pieces);

    const json = await usage(account, ['--json', '--verbose']);
    expect(json.code).toBe(1);
    const row = JSON.parse(json.stdout)[0];
    expect(row.error.message).toMatch(
      /^Could not parse Cursor usage: GET \/api\/usage-summary: .*\[REDACTED\]/,
    );
    expectNoPiece(json.stdout + json.stderr, pieces);
  });

  it('a manual cookie echoed by the events endpoint: cost text and JSON', async () => {
    const secret = 'user_01JMANUALSECRET%3A%3Aopaque-session-value-0123456789';
    const account: FakeAccount = {
      cookies: [secret],
      events: (req) => ({ text: `Invalid session: ${req.headers.cookie}` }),
    };
    const options = { now: NOW, cookie: `WorkosCursorSessionToken=${secret}` };
    const [text, json] = await Promise.all([
      runCost([account], ['--days', '7'], options),
      runCost([account], ['--days', '7', '--json'], options),
    ]);
    expect(text.code).toBe(1);
    expect(json.code).toBe(1);
    for (const output of [text.stdout + text.stderr, json.stdout + json.stderr]) {
      expect(output).toContain('[REDACTED]');
      expect(output).not.toContain('opaque-session-value');
      expect(output).not.toContain('user_01JMANUALSECRET');
    }
  });
});

describe('impossible figures print as unknown in text, and JSON keeps them', () => {
  const VALUE = 'user_odd%3A%3Amanual';
  const cookie = { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${VALUE}` };
  const odd = (summary: Record<string, unknown>, legacy: Record<string, unknown> = {}): FakeAccount =>
    proAccount([VALUE], 'dev@example.com', {
      usageSummary: { json: { membershipType: 'pro', ...summary } },
      legacyUsage: { json: { 'gpt-4': legacy } },
    });

  it('a negative on-demand amount and a reset 8000 years away', async () => {
    const account = odd({
      billingCycleStart: '2026-11-15T00:00:00.000Z',
      billingCycleEnd: '9999-12-31T00:00:00.000Z',
      individualUsage: {
        plan: { used: 900, limit: 2000, totalPercentUsed: 45 },
        onDemand: { used: -1000, limit: 5000 },
      },
    });
    const text = await usage(account, ['--verbose'], cookie);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toContain('On-demand: — / $50.00');
    expect(lines).toContain('Resets —');
    expect(text.stdout).not.toContain('-$');
    expect(text.stdout).not.toMatch(/Resets in \d{4,}d/);
    expect(text.stderr).toContain(
      '[cursor] cursor.com sent an impossible figure: a reset more than 400 days away is shown as unknown',
    );
    expect(text.stderr).toContain(
      '[cursor] cursor.com sent an impossible figure: a negative on-demand amount is shown as unknown',
    );

    const json = await usage(account, ['--json', '--verbose'], cookie);
    const row = JSON.parse(json.stdout)[0];
    expect(row.usage.providerCost).toMatchObject({ used: -10, limit: 50 });
    expect(row.usage.primary.resetsAt).toBe('9999-12-31T00:00:00Z');
    expect(json.stderr).not.toContain('impossible figure');
  });

  it('a negative request quota, with and without billing dates', async () => {
    for (const dates of [
      {},
      { billingCycleStart: '2026-11-15T00:00:00.000Z', billingCycleEnd: '2026-12-15T00:00:00.000Z' },
    ]) {
      const account = odd(dates, { numRequests: -5, maxRequestUsage: 500 });
      const text = await usage(account, ['--verbose'], cookie);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout.split('\n')).toContain('Request quota: —');
      expect(text.stdout).not.toContain('-5');
      expect(text.stderr).toContain(
        '[cursor] cursor.com sent an impossible figure: a negative request count is shown as unknown',
      );

      const json = await usage(account, ['--json'], cookie);
      const row = JSON.parse(json.stdout)[0];
      expect(row.usage.details[0].rows[0].value).toBe('-5 / 500');
      expect(row.usage.primary.usedPercent).toBe(-1);
    }
  });

  it('plausible figures print as they are, with no note', async () => {
    const account = odd(
      {
        billingCycleStart: '2026-11-15T00:00:00.000Z',
        billingCycleEnd: '2026-12-15T00:00:00.000Z',
        individualUsage: {
          plan: { used: 900, limit: 2000, totalPercentUsed: 45 },
          onDemand: { used: 1000, limit: 5000 },
        },
      },
      { numRequests: 5, maxRequestUsage: 500 },
    );
    const text = await usage(account, ['--verbose'], cookie);
    expect(text.stdout.split('\n')).toEqual(
      expect.arrayContaining(['On-demand: $10.00 / $50.00', 'Request quota: 5 / 500']),
    );
    expect(text.stdout).toContain('Resets in 24d');
    expect(text.stderr).not.toContain('impossible figure');
  });
});
