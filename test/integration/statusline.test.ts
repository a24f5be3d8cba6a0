import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { fastStatusline } from '../../src/statusline/fast-path.js';
import { startFakeCursor } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { makeToken, writeAppToken } from '../helpers/home.js';
import {
  cookieHeader,
  later,
  PROMPT_NOW,
  promptScene,
  runPastDeadline,
  summaryRequests,
  usageDir,
  usageFiles,
} from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/**
 * `codexbar statusline`, stale-while-revalidate, and the fast path
 * (docs/invariants.md, "When a snapshot may be trusted").
 */

const scene = useScene(promptScene());
const keyA = accountKey({ userId: 'user_prompt_a' });
const LINE_A = 'Cursor 55% left · 14d 9h · $12.34/$50';

/** Records the refreshes a run would start; each "process" stays alive (this test's pid). */
function refreshRecorder() {
  const started: string[][] = [];
  const spawnRefresh = (args: readonly string[]) => {
    started.push([...args]);
    return process.pid;
  };
  return { started, spawnRefresh };
}

/** A stdout for fastStatusline; lastCaptured() is what the last one received. */
let capturedText = '';
function captured() {
  capturedText = '';
  return {
    write: (text: string) => {
      capturedText += text;
    },
    isTTY: false,
  };
}
const lastCaptured = () => capturedText;

async function liveOnce(): Promise<void> {
  const result = await scene.run(['statusline']);
  expect(result.stdout).toBe(`${LINE_A}\n`);
}

describe('where the line comes from', () => {
  it('no snapshot: cursor.com is asked, the line printed and the snapshot saved', async () => {
    const result = await scene.run(['statusline']);

    expect(result).toMatchObject({ code: 0, stdout: `${LINE_A}\n`, stderr: '' });
    expect(summaryRequests(scene)).toBe(1);
    expect(usageFiles(scene)).toContain(`${keyA}.json`);
  });

  it('a fresh snapshot: printed with no request and no refresh', async () => {
    await liveOnce();
    const recorder = refreshRecorder();

    const result = await scene.run(['statusline'], { now: later(60), spawnRefresh: recorder.spawnRefresh });

    expect(result.stdout).toBe(`${LINE_A}\n`);
    expect(summaryRequests(scene)).toBe(1);
    expect(recorder.started).toEqual([]);
  });

  it('a stale snapshot: printed at once with ~, and one refresh started that gets no secret', async () => {
    await liveOnce();
    const recorder = refreshRecorder();

    const first = await scene.run(['statusline'], { now: later(61), spawnRefresh: recorder.spawnRefresh });
    const second = await scene.run(['statusline'], { now: later(62), spawnRefresh: recorder.spawnRefresh });

    expect(first.stdout).toBe(`~${LINE_A}\n`);
    expect(second.stdout).toBe(`~${LINE_A}\n`);
    expect(summaryRequests(scene)).toBe(1);
    expect(recorder.started).toHaveLength(1);
    const [args] = recorder.started;
    expect(args!.slice(0, 3)).toEqual(['__refresh', '--account', keyA]);
    expect(args!.slice(3, 4)).toEqual(['--lock']);
    expect(args!.slice(5)).toEqual(['--source', 'auto']);
    for (const secret of [scene.given.a.jwt, scene.given.a.cookieValue, scene.given.a.jwt.split('.')[1]!]) {
      expect(args!.join(' ')).not.toContain(secret);
    }
    const lock = JSON.parse(fs.readFileSync(path.join(usageDir(scene), `${keyA}.lock`), 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, nonce: args![4] });
  });

  it('the refresh fetches, saves, releases the lock, and the next line is fresh', async () => {
    await liveOnce();
    const recorder = refreshRecorder();
    await scene.run(['statusline'], { now: later(300), spawnRefresh: recorder.spawnRefresh });

    const refresh = await scene.run(recorder.started[0]!, { now: later(301) });
    const next = await scene.run(['statusline', '--json'], {
      now: later(302),
      spawnRefresh: recorder.spawnRefresh,
    });

    expect(refresh).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(summaryRequests(scene)).toBe(2);
    expect(fs.existsSync(path.join(usageDir(scene), `${keyA}.lock`))).toBe(false);
    expect(JSON.parse(next.stdout)).toMatchObject({ stale: false, ageSeconds: 1, text: LINE_A });
    expect(recorder.started).toHaveLength(1);
  });

  it('a refresh whose lock was taken over does nothing', async () => {
    await liveOnce();
    const recorder = refreshRecorder();
    await scene.run(['statusline'], { now: later(300), spawnRefresh: recorder.spawnRefresh });
    const args = [...recorder.started[0]!];
    args[4] = 'another-nonce';

    expect(await scene.run(args, { now: later(301) })).toMatchObject({ code: 0, stdout: '' });
    expect(summaryRequests(scene)).toBe(1);
  });

  it('a stale lock left by a dead process is taken over', async () => {
    await liveOnce();
    const deadPid = spawnSync(process.execPath, ['--version']).pid!;
    const lockPath = path.join(usageDir(scene), `${keyA}.lock`);
    fs.writeFileSync(
      lockPath,
      JSON.stringify({ pid: deadPid, nonce: 'old', startedAt: later(100).getTime() }),
    );
    const recorder = refreshRecorder();

    await scene.run(['statusline'], { now: later(101), spawnRefresh: recorder.spawnRefresh });

    expect(recorder.started).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(lockPath, 'utf8')).nonce).toBe(recorder.started[0]![4]);
  });

  it('a failed refresh holds off the next one for a minute, while the stale line is still shown', async () => {
    await liveOnce();
    const recorder = refreshRecorder();
    await scene.run(['statusline'], { now: later(300), spawnRefresh: recorder.spawnRefresh });
    await scene.fake!.close();

    const failed = await scene.run(recorder.started[0]!, { now: later(301) });
    const during = await scene.run(['statusline'], { now: later(360), spawnRefresh: recorder.spawnRefresh });
    const after = await scene.run(['statusline'], { now: later(361), spawnRefresh: recorder.spawnRefresh });

    expect(failed.code).toBe(1);
    expect(during.stdout).toBe(`~${LINE_A}\n`);
    expect(after.stdout).toBe(`~${LINE_A}\n`);
    expect(recorder.started).toHaveLength(2);
  });
});

describe('accounts', () => {
  it('when the app signs in as another account, that account’s figures are fetched, not the cached ones', async () => {
    await liveOnce();
    const dbPath = path.join(scene.home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb');
    fs.rmSync(dbPath);
    writeAppToken(scene.home, scene.given.b.jwt);

    const result = await scene.run(['statusline'], { now: later(5) });

    expect(result.stdout).toBe('Cursor 8% left · 14d 9h\n');
    expect(summaryRequests(scene)).toBe(2);
  });
});

describe('failures never break a prompt', () => {
  it('no session: a short marker and exit 0; --strict exits 1 and says why on stderr', async () => {
    fs.rmSync(path.join(scene.home, '.config'), { recursive: true });

    const quiet = await scene.run(['statusline']);
    const strict = await scene.run(['statusline', '--strict']);
    const json = await scene.run(['statusline', '--json']);

    expect(quiet).toEqual({ code: 0, stdout: 'Cursor: not logged in\n', stderr: '' });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('Cursor: not logged in\n');
    expect(strict.stderr).toMatch(/^Error: No Cursor session found\./);
    expect(JSON.parse(json.stdout)).toMatchObject({
      provider: 'cursor',
      text: 'Cursor: not logged in',
      stale: false,
      error: { code: 1, kind: 'provider' },
    });
    expect(scene.fake!.requests).toEqual([]);
  });

  it('cursor.com rejecting the session is "not logged in" too', async () => {
    const result = await scene.run(['statusline'], {
      env: { CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=nobody' },
    });
    expect(result).toEqual({ code: 0, stdout: 'Cursor: not logged in\n', stderr: '' });
  });

  it('no snapshot and cursor.com too slow: the fetch gives up at --timeout (default 3 s)', async () => {
    const strict = await runPastDeadline(scene, ['statusline', '--timeout', '1.5s', '--strict']);
    const quiet = await runPastDeadline(scene, ['statusline']);

    expect(strict.deadlines).toEqual([1500]);
    expect(strict.result).toEqual({
      code: 4,
      stdout: 'Cursor: timed out\n',
      stderr: 'Error: Cursor API error: cursor.com timed out after 1.5 s\n',
    });
    expect(quiet.deadlines).toEqual([3000]);
    expect(quiet.result).toEqual({ code: 0, stdout: 'Cursor: timed out\n', stderr: '' });
  });
});

describe('output forms', () => {
  it('--json: one object', async () => {
    const live = JSON.parse((await scene.run(['statusline', '--json'])).stdout);
    const stale = JSON.parse((await scene.run(['statusline', '--json'], { now: later(125) })).stdout);

    expect(live).toEqual({
      provider: 'cursor',
      text: LINE_A,
      leftPercent: 55,
      usedPercent: 45,
      resetsAt: '2026-12-15T00:00:00Z',
      stale: false,
      fetchedAt: '2026-11-30T14:30:00Z',
      ageSeconds: 0,
    });
    expect(stale).toMatchObject({ text: `~${LINE_A}`, stale: true, ageSeconds: 125 });
  });

  it('--template, and colour only on a TTY or with --color, NO_COLOR winning', async () => {
    await liveOnce();
    const green = (text: string) => `\u001b[32m${text}\u001b[39m\n`;

    expect(
      (await scene.run(['statusline', '--template', '{left} ({age}) {account}'], { now: later(30) })).stdout,
    ).toBe('55% left (30s) a@example.com\n');
    expect((await scene.run(['statusline', '--color'], { now: later(1) })).stdout).toBe(green(LINE_A));
    expect((await scene.run(['statusline'], { now: later(1), stdoutTTY: { columns: 80 } })).stdout).toBe(
      green(LINE_A),
    );
    expect(
      (await scene.run(['statusline', '--color'], { now: later(1), env: { NO_COLOR: '1' } })).stdout,
    ).toBe(`${LINE_A}\n`);
  });
});

describe('argument errors: one line naming the flag and the accepted form, exit 1', () => {
  it.each([
    [
      ['--template', '{left} {bogus}'],
      '--template has unknown token {bogus} (tokens: {label} {left} {used} {reset} {pace} {ondemand} {plan} {account} {age}).',
    ],
    [
      ['--max-age', '1w'],
      "--max-age must be a duration from 0 s to 86400 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '1w').",
    ],
    [
      ['--timeout', '0'],
      "--timeout must be a duration from 1 s to 600 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '0').",
    ],
  ])('%j', async (args, message) => {
    const text = await scene.run(['statusline', ...args]);
    const json = await scene.run(['statusline', '--json', ...args]);

    expect(text).toEqual({ code: 1, stdout: '', stderr: `Error: ${message}\n` });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
    ]);
  });
});

describe('the fast path', () => {
  /** fastStatusline as bin/codexbar.js calls it, on this test's home and clock. */
  async function fast(args: string[], now: Date, extraEnv: Record<string, string> = {}) {
    let written = '';
    const stdout = {
      write: (text: string) => {
        written += text;
      },
      isTTY: false,
      text: () => written,
    };
    const recorder = refreshRecorder();
    const code = await fastStatusline(['statusline', ...args], {
      stdout,
      env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CURSOR_BASE_URL: scene.fake!.url, ...extraEnv },
      platform: 'linux',
      homeDir: scene.home,
      now: () => now,
      spawnRefresh: recorder.spawnRefresh,
    });
    return { code, stdout: stdout.text(), started: recorder.started };
  }

  it.each([
    ['fresh', [], 30],
    ['stale', [], 90],
    ['fresh, JSON', ['--json', '--pretty'], 30],
    ['stale, JSON', ['--json'], 90],
    ['a template', ['--template', '{used} {plan} {pace}', '--max-age=5m'], 200],
    ['with --color', ['--color', '--source', 'cli'], 10],
  ])('%s: the same bytes as the full command, with no request', async (_what, args, seconds) => {
    await liveOnce();

    const quick = await fast(args, later(seconds));
    const full = await scene.run(['statusline', ...args], { now: later(seconds) });

    expect(quick.code).toBe(0);
    expect(quick.stdout).toBe(full.stdout);
    expect(summaryRequests(scene)).toBe(1);
  });

  it('a stale line starts the same single refresh', async () => {
    await liveOnce();
    const quick = await fast([], later(90));
    expect(quick.started).toEqual([
      ['__refresh', '--account', keyA, '--lock', expect.any(String), '--source', 'auto'],
    ]);
  });

  it('a manual header from the environment names its account directly', async () => {
    const env = { CODEXBAR_CURSOR_COOKIE: cookieHeader(scene.given.b) };
    await scene.run(['statusline'], { env });

    expect((await fast([], later(10), env)).stdout).toBe('Cursor 8% left · 14d 9h\n');
    expect((await fast([], later(10))).stdout).toBe('');
  });

  it.each([
    ['no snapshot yet', [], false],
    ['a flag it does not know', ['--verbose'], true],
    ['an unknown template token', ['--template', '{nope}'], true],
    ['a bad --max-age', ['--max-age', 'soon'], true],
    ['--source oauth', ['--source', 'oauth'], true],
    ['a --flag=value for a boolean', ['--json=1'], true],
  ])('hands over to the full CLI on %s', async (_what, args, withSnapshot) => {
    if (withSnapshot) await liveOnce();
    const quick = await fast(args, later(10));
    expect(quick).toEqual({ code: undefined, stdout: '', started: [] });
  });

  it('hands over when the app now holds another account', async () => {
    await liveOnce();
    fs.rmSync(path.join(scene.home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'));
    writeAppToken(scene.home, (await makeToken('user_someone_else')).jwt);

    expect((await fast([], later(10))).code).toBeUndefined();
  });

  it('hands over when the snapshot came from another cursor.com', async () => {
    await liveOnce();
    expect(
      (await fast([], later(10), { CODEXBAR_CURSOR_BASE_URL: 'http://127.0.0.1:1' })).code,
    ).toBeUndefined();
  });
});

describe('--no-wait: the first prompt never waits for cursor.com', () => {
  it('no snapshot: the placeholder at once, no request, and one refresh that fetches the line', async () => {
    const recorder = refreshRecorder();

    const first = await scene.run(['statusline', '--no-wait'], { spawnRefresh: recorder.spawnRefresh });
    const second = await scene.run(['statusline', '--no-wait'], { spawnRefresh: recorder.spawnRefresh });

    expect(first).toMatchObject({ code: 0, stdout: 'Cursor …\n', stderr: '' });
    expect(second.stdout).toBe('Cursor …\n');
    expect(summaryRequests(scene)).toBe(0);
    expect(recorder.started).toEqual([
      ['__refresh', '--account', keyA, '--lock', expect.any(String), '--source', 'auto'],
    ]);

    const refresh = await scene.run(recorder.started[0]!);
    const next = await scene.run(['statusline', '--no-wait'], { spawnRefresh: recorder.spawnRefresh });

    expect(refresh).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(next.stdout).toBe(`${LINE_A}\n`);
    expect(summaryRequests(scene)).toBe(1);
    expect(recorder.started).toHaveLength(1);
  });

  it('--json, --verbose and --strict: the pending object, what happens, and still exit 0', async () => {
    const json = await scene.run(['statusline', '--no-wait', '--json', '--strict']);
    const verbose = await scene.run(['statusline', '--no-wait', '--verbose']);

    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      provider: 'cursor',
      text: 'Cursor …',
      stale: false,
      pending: true,
    });
    expect(verbose.stderr).toContain(
      '[cache] --no-wait: printing the placeholder; the background refresh fetches the figures',
    );
    expect(verbose.stderr).not.toContain('; fetching');
  });

  it.each([
    ['fresh', 30],
    ['stale', 90],
  ])('a %s snapshot: the same bytes as without --no-wait', async (_what, seconds) => {
    await liveOnce();
    const withFlag = await scene.run(['statusline', '--no-wait'], { now: later(seconds) });
    const without = await scene.run(['statusline'], { now: later(seconds) });
    expect(withFlag.stdout).toBe(without.stdout);
    expect(summaryRequests(scene)).toBe(1);
  });

  it('no session at all: the marker, as without it (there is nothing to refresh)', async () => {
    fs.rmSync(path.join(scene.home, '.config'), { recursive: true });
    const result = await scene.run(['statusline', '--no-wait']);
    expect(result).toMatchObject({ code: 0, stdout: 'Cursor: not logged in\n' });
  });

  it('a snapshot from another cursor.com is refreshed too, not trusted as the one that landed', async () => {
    await liveOnce();
    const other = await startFakeCursor({ accounts: [proAccount([scene.given.a.cookieValue])] });
    try {
      const recorder = refreshRecorder();
      const env = { CODEXBAR_CURSOR_BASE_URL: other.url, CODEXBAR_CURSOR_API2_BASE_URL: other.url };
      const result = await scene.run(['statusline', '--no-wait'], {
        env,
        spawnRefresh: recorder.spawnRefresh,
      });
      expect(result.stdout).toBe('Cursor …\n');
      expect(recorder.started).toHaveLength(1);
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['waybar', '{"text":"Cursor …","alt":"pending","tooltip":"Cursor …","class":"pending"}\n'],
    ['i3blocks', 'Cursor …\nCursor …\n'],
    [
      'swiftbar',
      'Cursor … | emojize=false symbolize=false\n---\nCursor … | emojize=false symbolize=false\n---\nRefresh | refresh=true\n',
    ],
  ])('--format %s shows the placeholder', async (format, output) => {
    expect((await scene.run(['statusline', '--no-wait', '--format', format])).stdout).toBe(output);
  });

  it('the fast path prints the same placeholder when the account is known but its snapshot is gone', async () => {
    await liveOnce();
    fs.rmSync(path.join(usageDir(scene), `${keyA}.json`));
    const recorder = refreshRecorder();

    const quick = await fastStatusline(['statusline', '--no-wait'], {
      stdout: captured(),
      env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CURSOR_BASE_URL: scene.fake!.url },
      platform: 'linux',
      homeDir: scene.home,
      now: () => later(10),
      spawnRefresh: recorder.spawnRefresh,
    });
    const full = await scene.run(['statusline', '--no-wait'], { now: later(11) });

    expect(quick).toBe(0);
    expect(lastCaptured()).toBe('Cursor …\n');
    expect(full.stdout).toBe('Cursor …\n');
    expect(recorder.started).toHaveLength(1);
    expect(summaryRequests(scene)).toBe(1);
  });
});

describe('a locale that is not UTF-8', () => {
  it('joins the line with " | " and writes the placeholder with three dots, on both paths', async () => {
    await liveOnce();
    const env = { LANG: 'C' };
    expect((await scene.run(['statusline'], { env, now: later(10) })).stdout).toBe(
      'Cursor 55% left | 14d 9h | $12.34/$50\n',
    );
    expect((await scene.run(['statusline'], { env, now: later(90) })).stdout).toBe(
      '~Cursor 55% left | 14d 9h | $12.34/$50\n',
    );
    fs.rmSync(path.join(usageDir(scene), `${keyA}.json`));
    expect(
      (await scene.run(['statusline', '--no-wait'], { env: { LC_ALL: 'POSIX', LANG: 'C.UTF-8' } })).stdout,
    ).toBe('Cursor ...\n');
  });
});

it('PROMPT_NOW is mid-cycle', () => {
  expect(PROMPT_NOW.toISOString()).toBe('2026-11-30T14:30:00.000Z');
});
