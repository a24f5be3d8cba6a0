import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { proAccount, summaryWithPercent } from '../helpers/accounts.js';
import { later, promptScene, runPastDeadline, summaryRequests } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/** `codexbar guard`, CodexBar's quota gate: exits 0, 1, 64, 69. */

// Account A: Total (primary, "session") 45 % used, Cursor (secondary, "weekly") 30 % used.
const scene = useScene(
  promptScene((a, b) => [
    proAccount([a.cookieValue], 'a@example.com'),
    proAccount([b.cookieValue], 'b@example.com', { usageSummary: summaryWithPercent(100) }),
  ]),
);

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('the decision', () => {
  it.each([
    [['--min-remaining', '50'], 0, 'ok', 55],
    [['--min-remaining', '55'], 0, 'ok', 55],
    [['--min-remaining', '55.5'], 1, 'blocked', 55],
    [['--min-remaining', '80', '--window', 'weekly'], 1, 'blocked', 70],
    [['--window', 'WEEKLY', '--min-remaining', '70'], 0, 'ok', 70],
    [[], 0, 'ok', 55],
  ])('%j: exit %i, %s with %i %% left', async (args, code, decision, left) => {
    const result = await scene.run(['guard', '--json', ...args]);

    expect(result.code).toBe(code);
    expect(json(result.stdout)).toEqual({
      provider: 'cursor',
      window: args.includes('--window') ? 'weekly' : 'session',
      remainingPercent: left,
      minimumRemainingPercent: Number(args[args.indexOf('--min-remaining') + 1] ?? 10) || 10,
      decision,
      exitCode: code,
    });
  });

  it('a fully used window leaves 0 % and blocks any minimum above 0', async () => {
    const env = { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${scene.given.b.cookieValue}` };
    const blocked = await scene.run(['guard', '--json', '--min-remaining', '1'], { env });
    const zero = await scene.run(['guard', '--json', '--min-remaining', '0'], { env });

    expect(json(blocked.stdout)).toMatchObject({ remainingPercent: 0, decision: 'blocked', exitCode: 1 });
    expect(zero.code).toBe(0);
  });

  it('text: one line saying what was decided and why', async () => {
    const ok = await scene.run(['guard']);
    const blocked = await scene.run(['guard', '--min-remaining', '60']);

    expect(ok).toEqual({
      code: 0,
      stdout: 'ok: Cursor session window has 55% left (minimum 10%)\n',
      stderr: '',
    });
    expect(blocked.stdout).toBe('blocked: Cursor session window has 55% left (minimum 60%)\n');
    expect(blocked.code).toBe(1);
  });
});

describe('unavailable: 69, or 0 with --fail-open', () => {
  it('no account: account-resolution', async () => {
    fs.rmSync(path.join(scene.home, '.config'), { recursive: true });

    const closed = await scene.run(['guard', '--json']);
    const open = await scene.run(['guard', '--json', '--fail-open']);
    const text = await scene.run(['guard']);

    expect(closed.code).toBe(69);
    expect(json(closed.stdout)).toEqual({
      provider: 'cursor',
      window: 'session',
      minimumRemainingPercent: 10,
      decision: 'unknown',
      exitCode: 69,
      unavailableReason: 'account-resolution',
    });
    expect(open.code).toBe(0);
    expect(json(open.stdout)).toMatchObject({ decision: 'unknown', exitCode: 0 });
    expect(text.stdout).toBe('unknown: Cursor session window is unavailable (account-resolution)\n');
    expect(text.stderr).toMatch(/^Error: No Cursor session found\./);
  });

  it('cursor.com failing: fetch-failed', async () => {
    await scene.fake!.close();
    const result = await scene.run(['guard', '--json']);
    expect(json(result.stdout)).toMatchObject({ decision: 'unknown', unavailableReason: 'fetch-failed' });
    expect(result.code).toBe(69);
  });

  it('cursor.com too slow: timeout (default 60 s)', async () => {
    const { result, deadlines } = await runPastDeadline(scene, ['guard', '--json']);
    expect(deadlines).toEqual([60_000]);
    expect(json(result.stdout)).toMatchObject({
      decision: 'unknown',
      unavailableReason: 'timeout',
      exitCode: 69,
    });
  });

  it('no such window: window-unavailable', async () => {
    const env = { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${scene.given.b.cookieValue}` };
    // B's summary has no auto/api split, so there is no weekly (secondary) window.
    const result = await scene.run(['guard', '--json', '--window', 'weekly'], { env });
    expect(json(result.stdout)).toMatchObject({ unavailableReason: 'window-unavailable', exitCode: 69 });
  });
});

describe('--max-age', () => {
  it('decides from a snapshot young enough, without a request', async () => {
    await scene.run(['usage', '--json']);
    const result = await scene.run(['guard', '--json', '--max-age', '5m'], { now: later(120) });
    expect(json(result.stdout)).toMatchObject({ decision: 'ok', remainingPercent: 55 });
    expect(summaryRequests(scene)).toBe(1);
  });
});

describe('bad arguments exit 64', () => {
  it.each([
    [['--min-remaining', '101'], "--min-remaining must be a number from 0 to 100 (got '101')."],
    [['--min-remaining', '-5'], "--min-remaining must be a number from 0 to 100 (got '-5')."],
    [
      ['--timeout', '86401'],
      "--timeout must be a duration from 0 s to 86400 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '86401').",
    ],
    [['--window', 'daily'], "--window must be one of session, weekly (got 'daily')."],
    [
      ['--max-age', 'x'],
      "--max-age must be a duration from 0 s to 86400 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got 'x').",
    ],
    [['--provider', 'claude'], "unknown provider 'claude' (supported: cursor)"],
    [['--bogus'], "unknown option '--bogus'"],
  ])('%j', async (args, message) => {
    const text = await scene.run(['guard', ...args]);
    const asJson = await scene.run(['guard', '--json', ...args]);

    expect(text).toEqual({ code: 64, stdout: '', stderr: `Error: ${message}\n` });
    expect(asJson.code).toBe(64);
    expect(JSON.parse(asJson.stdout)).toEqual([
      { provider: 'cli', source: 'cli', error: { code: 64, message, kind: 'args' } },
    ]);
    expect(scene.fake!.requests).toEqual([]);
  });
});
