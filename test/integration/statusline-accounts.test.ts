import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastStatusline } from '../../src/statusline/fast-path.js';
import type { RunOptions } from '../helpers/cli.js';
import { writeConfig } from '../helpers/home.js';
import { waybarOutputSchema } from '../helpers/json-rows/prompt.js';
import { later, PROMPT_NOW } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';
import {
  ACCOUNT_FLAG_ERRORS,
  ACCOUNT_SELECTION_ERRORS,
  serveWorkBrokenPersonal,
  type TestTokenAccount,
  tokenAccountKey,
  writeTokenAccountsConfig,
} from '../helpers/token-accounts.js';

/** `statusline --account`, `--account-index` and `--all-accounts`. */

const scene = useScene({ now: PROMPT_NOW, frozen: true });

const WORK = 'Cursor (work) 55% left · 14d 9h · $12.34/$50';
const BROKEN = 'Cursor (broken): not logged in';
const PERSONAL = 'Cursor (personal) 8% left · 14d 9h';

function run(args: readonly string[], options: Partial<RunOptions> = {}) {
  return scene.run(['statusline', ...args], options);
}

/** Which token account's cookie reached usage-summary, in arrival order. */
function summaryCookies(): string[] {
  return (scene.fake?.requests ?? [])
    .filter((request) => request.path === '/api/usage-summary')
    .map((request) => request.headers.cookie ?? '');
}

/** Records the refreshes a run would start; each "process" stays alive (this test's pid). */
function refreshRecorder() {
  const started: string[][] = [];
  return {
    started,
    spawnRefresh: (args: readonly string[]) => {
      started.push([...args]);
      return process.pid;
    },
  };
}

describe('--all-accounts --no-wait', () => {
  it('an account with figures shows them; each without a snapshot is its placeholder, refreshed by label', async () => {
    await serveWorkBrokenPersonal(scene);
    await run(['--account', 'work']);
    const recorder = refreshRecorder();

    const text = await run(['--all-accounts', '--no-wait'], { spawnRefresh: recorder.spawnRefresh });
    const waybar = await run(['--all-accounts', '--no-wait', '--format', 'waybar']);

    expect(text).toEqual({
      code: 0,
      stdout: `${WORK}\nCursor (broken) …\nCursor (personal) …\n`,
      stderr: '',
    });
    expect(recorder.started.map((args) => args.at(-1))).toEqual(['--label=broken', '--label=personal']);
    expect(waybarOutputSchema.parse(JSON.parse(waybar.stdout))).toMatchObject({
      text: `${WORK} | Cursor (broken) … | Cursor (personal) …`,
      alt: 'ok',
      class: ['ok', 'pending'],
    });
  });
});

describe('--all-accounts: one line per account in config order', () => {
  it('text: each line names its account; the failing one is its marker; exit 0', async () => {
    await serveWorkBrokenPersonal(scene);
    const result = await run(['--all-accounts']);
    expect(result).toEqual({ code: 0, stdout: `${WORK}\n${BROKEN}\n${PERSONAL}\n`, stderr: '' });
  });

  it('--strict: the same lines, exit 1, and the failure on stderr labelled', async () => {
    await serveWorkBrokenPersonal(scene);
    const result = await run(['--all-accounts', '--strict']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`${WORK}\n${BROKEN}\n${PERSONAL}\n`);
    expect(result.stderr).toBe(
      'Error (cursor - broken): Not logged in to Cursor: cursor.com rejected the manual cookie header ' +
        '(config file, token account "broken") (HTTP 401).\n',
    );
  });

  it('--json: an array of the per-account objects, each with `account`', async () => {
    await serveWorkBrokenPersonal(scene);
    const result = await run(['--all-accounts', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        provider: 'cursor',
        account: 'work',
        text: WORK,
        leftPercent: 55,
        usedPercent: 45,
        resetsAt: '2026-12-15T00:00:00Z',
        stale: false,
        fetchedAt: '2026-11-30T14:30:00Z',
        ageSeconds: 0,
      },
      {
        provider: 'cursor',
        account: 'broken',
        text: BROKEN,
        stale: false,
        error: {
          code: 1,
          message: expect.stringMatching(/^Not logged in to Cursor: cursor\.com rejected/),
          kind: 'provider',
        },
      },
      expect.objectContaining({ provider: 'cursor', account: 'personal', text: PERSONAL, leftPercent: 8 }),
    ]);
  });

  it('--format waybar: one object for all of them, the worst class, and error for the failing one', async () => {
    await serveWorkBrokenPersonal(scene);
    const result = await run(['--all-accounts', '--format', 'waybar']);
    expect(result.code).toBe(0);
    expect(waybarOutputSchema.parse(JSON.parse(result.stdout))).toMatchObject({
      text: `${WORK} | ${BROKEN} | ${PERSONAL}`,
      alt: 'critical',
      class: ['critical', 'error'],
      percentage: 8,
    });
  });

  it('each account is cached on its own: the next run asks nothing', async () => {
    await serveWorkBrokenPersonal(scene);
    await run(['--all-accounts']);
    const before = summaryCookies().length;
    const again = await run(['--all-accounts', '--template', '{label} {left} ({age})'], { now: later(30) });

    expect(again.stdout).toBe(
      'Cursor (work) 55% left (30s)\nCursor (broken): not logged in\nCursor (personal) 8% left (30s)\n',
    );
    // Only the broken account, which has no snapshot, was asked again.
    expect(summaryCookies().length).toBe(before + 1);
  });
});

describe('one account named by a flag', () => {
  it('--account: that account, `{label}` naming it; --json carries `account`', async () => {
    const accounts = await serveWorkBrokenPersonal(scene);
    const text = await run(['--account', ' PERSONAL ']);
    const json = await run(['--account', 'personal', '--json'], { now: later(1) });

    expect(text).toEqual({ code: 0, stdout: `${PERSONAL}\n`, stderr: '' });
    expect(JSON.parse(json.stdout)).toMatchObject({
      provider: 'cursor',
      account: 'personal',
      leftPercent: 8,
    });
    expect(summaryCookies()).toEqual([accounts[2]!.cookieHeader]);
  });

  it('--account-index: 1-based', async () => {
    const accounts = await serveWorkBrokenPersonal(scene);
    expect((await run(['--account-index', '1'])).stdout).toBe(`${WORK}\n`);
    expect(summaryCookies()).toEqual([accounts[0]!.cookieHeader]);
  });

  it('a failing named account is its marker line; --strict exits 1', async () => {
    await serveWorkBrokenPersonal(scene);
    expect(await run(['--account', 'broken'])).toEqual({ code: 0, stdout: `${BROKEN}\n`, stderr: '' });
    expect((await run(['--account', 'broken', '--strict'])).code).toBe(1);
  });

  it('without a flag the line is unchanged: `Cursor`, no `account` (the active account is used)', async () => {
    const accounts = await serveWorkBrokenPersonal(scene);
    const result = await run(['--json']);
    const line = JSON.parse(result.stdout);
    expect(line.text).toBe('Cursor 55% left · 14d 9h · $12.34/$50');
    expect(line).not.toHaveProperty('account');
    expect(summaryCookies()).toEqual([accounts[0]!.cookieHeader]);
  });
});

describe('the background refresh refreshes THAT account', () => {
  it('a stale named account starts a refresh that selects it by label, behind its own lock', async () => {
    const accounts = await serveWorkBrokenPersonal(scene);
    const [work, , personal] = accounts as [TestTokenAccount, TestTokenAccount, TestTokenAccount];
    await run(['--all-accounts']);
    const recorder = refreshRecorder();

    const stale = await run(['--all-accounts'], { now: later(90), spawnRefresh: recorder.spawnRefresh });

    expect(stale.stdout).toBe(`~${WORK}\n${BROKEN}\n~${PERSONAL}\n`);
    expect(recorder.started).toEqual([
      [
        '__refresh',
        '--account',
        tokenAccountKey(work),
        '--lock',
        expect.any(String),
        '--source',
        'auto',
        '--label=work',
      ],
      [
        '__refresh',
        '--account',
        tokenAccountKey(personal),
        '--lock',
        expect.any(String),
        '--source',
        'auto',
        '--label=personal',
      ],
    ]);
    for (const args of recorder.started) {
      for (const account of accounts) expect(args.join(' ')).not.toContain(account.token.cookieValue);
    }
    const usageDir = path.join(scene.home, '.cache', 'codexbar', 'usage');
    for (const account of [work, personal]) {
      expect(fs.existsSync(path.join(usageDir, `${tokenAccountKey(account)}.lock`))).toBe(true);
    }

    // The refresh for personal asks cursor.com as personal, and personal's next line is fresh.
    const before = summaryCookies().length;
    const refreshed = await scene.run(recorder.started[1]!, { now: later(91) });
    expect(refreshed).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(summaryCookies().slice(before)).toEqual([personal.cookieHeader]);
    const next = await run(['--account', 'personal', '--json'], { now: later(92) });
    expect(JSON.parse(next.stdout)).toMatchObject({ account: 'personal', stale: false, ageSeconds: 1 });
  });
});

describe('a refresh whose label no longer selects an account', () => {
  it('fetches nothing, exits 1 and keeps the lock for the back-off', async () => {
    const accounts = await serveWorkBrokenPersonal(scene);
    await run(['--account', 'personal']);
    const recorder = refreshRecorder();
    await run(['--account', 'personal'], { now: later(90), spawnRefresh: recorder.spawnRefresh });
    // personal is removed from the config before the refresh runs.
    writeTokenAccountsConfig(scene.home, [accounts[0]!, accounts[1]!]);
    const before = summaryCookies().length;

    const refreshed = await scene.run(recorder.started[0]!, { now: later(91) });

    expect(refreshed).toEqual({ code: 1, stdout: '', stderr: '' });
    expect(summaryCookies().length).toBe(before);
    const lock = path.join(
      scene.home,
      '.cache',
      'codexbar',
      'usage',
      `${tokenAccountKey(accounts[2]!)}.lock`,
    );
    expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({
      holdUntil: later(91).getTime() + 60_000,
    });
  });
});

describe('every account error of `usage`, worded the same', () => {
  it.each(ACCOUNT_FLAG_ERRORS)('%j: an argument error, exit 1, text and JSON', async (args, message) => {
    await serveWorkBrokenPersonal(scene);
    const text = await run(args);
    const json = await run([...args, '--json']);

    expect(text).toEqual({ code: 1, stdout: '', stderr: `Error: ${message}\n` });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
    ]);
    expect(summaryCookies()).toEqual([]);
  });

  it.each(ACCOUNT_SELECTION_ERRORS)(
    '%j with %i accounts: the marker line, exit 0; --strict and --json give the sentence',
    async (args, count, message) => {
      await serveWorkBrokenPersonal(scene);
      if (count === 0) writeConfig(scene.home, { version: 1, providers: [{ id: 'cursor' }] });
      const all = args.includes('--all-accounts');

      const quiet = await run(args);
      const strict = await run([...args, '--strict']);
      const json = await run([...args, '--json']);

      expect(quiet).toEqual({ code: 0, stdout: 'Cursor: no such account\n', stderr: '' });
      expect(strict).toEqual({ code: 1, stdout: 'Cursor: no such account\n', stderr: `Error: ${message}\n` });
      const object = {
        provider: 'cursor',
        text: 'Cursor: no such account',
        stale: false,
        error: { code: 1, message, kind: 'provider' },
      };
      expect(JSON.parse(json.stdout)).toEqual(all ? [object] : object);
      expect(summaryCookies()).toEqual([]);
    },
  );
});

describe('the fast path and the account flags', () => {
  async function fast(args: string[], now: Date) {
    let stdout = '';
    const code = await fastStatusline(['statusline', ...args], {
      stdout: {
        write: (text: string) => {
          stdout += text;
        },
        isTTY: false,
      },
      env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CURSOR_BASE_URL: scene.fake!.url },
      platform: 'linux',
      homeDir: scene.home,
      now: () => now,
      spawnRefresh: () => undefined,
    });
    return { code, stdout };
  }

  it.each([[['--account', 'work']], [['--account=work']], [['--account-index', '1']], [['--all-accounts']]])(
    '%j: handed to the full CLI even with a fresh snapshot',
    async (args) => {
      await serveWorkBrokenPersonal(scene);
      await run([]);
      await run(['--all-accounts']);
      // The plain line is answered fast; with an account flag it is not.
      expect((await fast(['--json'], later(5))).code).toBe(0);
      expect(await fast(args, later(5))).toEqual({ code: undefined, stdout: '' });
    },
  );

  it('an account named by a flag never becomes the account a plain prompt shows', async () => {
    await serveWorkBrokenPersonal(scene);
    await run([]);
    // Fetched live as personal (no snapshot of it yet): the plain set-up's record must still say work.
    await run(['--account', 'personal'], { now: later(1) });
    await scene.run(['usage', '--account-index', '3', '--json'], { now: later(2) });

    expect(await fast([], later(3))).toEqual({ code: 0, stdout: 'Cursor 55% left · 14d 9h · $12.34/$50\n' });
  });

  it('naming the active account by a flag records it like a plain run: the next plain prompt is fast', async () => {
    await serveWorkBrokenPersonal(scene);
    await run(['--account', 'work']);
    expect(await fast([], later(1))).toEqual({ code: 0, stdout: 'Cursor 55% left · 14d 9h · $12.34/$50\n' });
  });
});
