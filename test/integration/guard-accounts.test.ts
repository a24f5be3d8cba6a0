import { describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/home.js';
import { PROMPT_NOW } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';
import {
  ACCOUNT_FLAG_ERRORS,
  ACCOUNT_SELECTION_ERRORS,
  serveWorkBrokenPersonal,
} from '../helpers/token-accounts.js';

/**
 * `guard --account`, `--account-index` and `--all-accounts`. The accounts: work
 * (55 % left), broken (cursor.com rejects it) and personal (8 % left).
 */

const scene = useScene({ now: PROMPT_NOW, frozen: true });

const run = (args: readonly string[]) => scene.run(['guard', ...args]);

const result = (account: string | undefined, fields: Record<string, unknown>) => ({
  provider: 'cursor',
  ...(account === undefined ? {} : { account }),
  window: 'session',
  minimumRemainingPercent: 10,
  ...fields,
});

const WORK_OK = { remainingPercent: 55, decision: 'ok', exitCode: 0 };
const PERSONAL_BLOCKED = { remainingPercent: 8, decision: 'blocked', exitCode: 1 };
const BROKEN = { decision: 'unknown', exitCode: 69, unavailableReason: 'account-resolution' };

describe('--all-accounts: every account is gated', () => {
  it('JSON: an array of the results, each with `account`; one blocked account exits 1', async () => {
    await serveWorkBrokenPersonal(scene);
    const gated = await run(['--all-accounts', '--json']);

    expect(gated.code).toBe(1);
    expect(JSON.parse(gated.stdout)).toEqual([
      result('work', WORK_OK),
      result('broken', BROKEN),
      result('personal', PERSONAL_BLOCKED),
    ]);
    expect(gated.stderr).toBe('');
  });

  it('text: one line per account, prefixed with its label; the failure labelled on stderr', async () => {
    await serveWorkBrokenPersonal(scene);
    const gated = await run(['--all-accounts']);

    expect(gated.code).toBe(1);
    expect(gated.stdout).toBe(
      [
        'work: ok: Cursor session window has 55% left (minimum 10%)',
        'broken: unknown: Cursor session window is unavailable (account-resolution)',
        'personal: blocked: Cursor session window has 8% left (minimum 10%)',
        '',
      ].join('\n'),
    );
    expect(gated.stderr).toMatch(
      /^Error \(cursor - broken\): Not logged in to Cursor: cursor\.com rejected the manual cookie header/,
    );
  });

  it('none blocked but one unavailable: 69; --fail-open makes it 0', async () => {
    await serveWorkBrokenPersonal(scene);
    const closed = await run(['--all-accounts', '--min-remaining', '5', '--json']);
    const open = await run(['--all-accounts', '--min-remaining', '5', '--json', '--fail-open']);

    expect(closed.code).toBe(69);
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout).map((gate: { exitCode: number }) => gate.exitCode)).toEqual([0, 0, 0]);
  });

  it('blocked wins over unavailable, with --fail-open too', async () => {
    await serveWorkBrokenPersonal(scene);
    expect((await run(['--all-accounts', '--fail-open'])).code).toBe(1);
  });
});

describe('one account named by a flag gates as before, and is named', () => {
  it.each([
    [['--account', 'Work'], 0, result('work', WORK_OK)],
    [['--account-index', '3'], 1, result('personal', PERSONAL_BLOCKED)],
    [['--account', 'broken'], 69, result('broken', BROKEN)],
  ])('%j: exit %i', async (args, code, expected) => {
    await serveWorkBrokenPersonal(scene);
    const gated = await run([...args, '--json']);
    expect(gated.code).toBe(code);
    expect(JSON.parse(gated.stdout)).toEqual(expected);
  });

  it('text names the account too', async () => {
    await serveWorkBrokenPersonal(scene);
    expect((await run(['--account-index', '1'])).stdout).toBe(
      'work: ok: Cursor session window has 55% left (minimum 10%)\n',
    );
  });

  it('without a flag: the active account, and the result as before (no `account`)', async () => {
    await serveWorkBrokenPersonal(scene);
    const gated = await run(['--json']);
    expect(gated.code).toBe(0);
    expect(JSON.parse(gated.stdout)).toEqual(result(undefined, WORK_OK));
    expect(gated.stdout).not.toContain('"account"');
  });
});

describe('account errors: flags exit 64, an account that cannot be selected is unavailable (69)', () => {
  it.each(ACCOUNT_FLAG_ERRORS)('%j: exit 64, text and JSON', async (args, message) => {
    await serveWorkBrokenPersonal(scene);
    const text = await run(args);
    const json = await run([...args, '--json']);

    expect(text).toEqual({ code: 64, stdout: '', stderr: `Error: ${message}\n` });
    expect(json.code).toBe(64);
    expect(JSON.parse(json.stdout)).toEqual([
      { provider: 'cli', source: 'cli', error: { code: 64, message, kind: 'args' } },
    ]);
    expect(scene.fake?.requests).toEqual([]);
  });

  it.each(ACCOUNT_SELECTION_ERRORS)(
    '%j with %i accounts: account-resolution, 69 (0 with --fail-open)',
    async (args, count, message) => {
      await serveWorkBrokenPersonal(scene);
      if (count === 0) writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor' }] });

      const text = await run(args);
      const json = await run([...args, '--json']);
      const open = await run([...args, '--fail-open']);

      expect(text.code).toBe(69);
      expect(text.stdout).toBe('unknown: Cursor session window is unavailable (account-resolution)\n');
      expect(text.stderr.split('\n')[0]).toBe(`Error: ${message}`);
      const unknown = result(undefined, BROKEN);
      expect(JSON.parse(json.stdout)).toEqual(args.includes('--all-accounts') ? [unknown] : unknown);
      expect(open.code).toBe(0);
      expect(scene.fake?.requests).toEqual([]);
    },
  );
});
