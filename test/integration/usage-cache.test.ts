import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { snapshotTree } from '../helpers/home.js';
import { cookieHeader, later, usePromptWorld } from '../helpers/prompt-world.js';
import { usageJson } from '../helpers/usage-cli.js';

/** docs/behaviour.md §26.2–26.3: the usage snapshot cache and `usage --max-age`. */

const world = usePromptWorld();
const keyA = accountKey({ userId: 'user_prompt_a' });
const keyB = accountKey({ userId: 'user_prompt_b' });

function mode(file: string): string {
  return (fs.statSync(file).mode & 0o777).toString(8);
}

describe('the snapshot a live run saves', () => {
  it('is the account key’s file, 0600 in 0700 directories, and holds no token or cookie', async () => {
    const w = world();
    const result = await w.run(['usage', '--json']);

    expect(result.code, result.stderr).toBe(0);
    expect(w.usageFiles()).toEqual(expect.arrayContaining([`${keyA}.json`]));
    for (const dir of [path.dirname(w.usageDir), w.usageDir]) expect(mode(dir)).toBe('700');
    for (const file of w.usageFiles()) {
      expect(mode(path.join(w.usageDir, file))).toBe('600');
      const text = fs.readFileSync(path.join(w.usageDir, file), 'utf8');
      for (const secret of [w.a.jwt, w.a.jwt.split('.')[1]!, w.a.jwt.split('.')[2]!, w.a.cookieValue]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('writes nothing outside <cache dir>/codexbar', async () => {
    const w = world();
    const before = snapshotTree(w.home);

    await w.run(['usage', '--json']);
    await w.run(['statusline'], { now: later(600) });

    const added = [...snapshotTree(w.home).keys()].filter((file) => !before.has(file));
    expect(added.length).toBeGreaterThan(0);
    for (const file of added) expect(file.startsWith(path.join('.cache', 'codexbar') + path.sep)).toBe(true);
    for (const [file, bytes] of before) expect(snapshotTree(w.home).get(file)).toBe(bytes);
  });
});

describe('temporary files of killed writers', () => {
  it('are removed by the next write once they are old; a fresh one (a writer at work) is left alone', async () => {
    const w = world();
    await w.run(['usage', '--json']);
    const abandoned = path.join(w.usageDir, `.${keyA}.json.0123456789ab.tmp`);
    const inFlight = path.join(w.usageDir, `.${keyA}.json.ba9876543210.tmp`);
    fs.writeFileSync(abandoned, '{"version":1,');
    fs.writeFileSync(inFlight, '{"version":1,');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(abandoned, hourAgo, hourAgo);

    await w.run(['usage', '--json'], { now: later(1) });

    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(inFlight)).toBe(true);
  });
});

describe('usage --max-age', () => {
  it('uses a snapshot young enough without a request, with the same usage row', async () => {
    const w = world();
    const live = usageJson(await w.run(['usage', '--json']));

    const cached = await w.run(['usage', '--json', '--max-age', '5m'], { now: later(299) });

    expect(cached.code, cached.stderr).toBe(0);
    expect(w.summaryRequests()).toBe(1);
    expect(usageJson(cached).usage).toEqual(live.usage);
  });

  it('says in text that the figures come from the cache, and how old they are', async () => {
    const w = world();
    await w.run(['usage']);

    const cached = await w.run(['usage', '--max-age', '120', '--no-color'], { now: later(95) });

    expect(cached.stdout).toContain('Total: 55% left');
    expect(cached.stdout.trimEnd().split('\n').at(-1)).toBe('From the cache, fetched 1m 35s ago');
    expect(w.summaryRequests()).toBe(1);
  });

  it('fetches live and replaces a snapshot older than the maximum age', async () => {
    const w = world();
    await w.run(['usage', '--json']);

    const result = await w.run(['usage', '--json', '--max-age', '1m', '-v'], { now: later(61) });

    expect(w.summaryRequests()).toBe(2);
    expect(result.stderr).toContain('[cache] The snapshot is 61s old, older than --max-age 60s; fetching');
    const saved = JSON.parse(fs.readFileSync(path.join(w.usageDir, `${keyA}.json`), 'utf8'));
    expect(saved.fetchedAt).toBe(later(61).toISOString());
  });

  it('is 0 by default: every run fetches live, as CodexBar does', async () => {
    const w = world();
    await w.run(['usage', '--json']);
    await w.run(['usage', '--json'], { now: later(1) });
    await w.run(['usage', '--json', '--max-age', '0'], { now: later(2) });

    expect(w.summaryRequests()).toBe(3);
  });

  it.each([
    ['corrupt', (file: string) => fs.writeFileSync(file, '{"version":1,"acc')],
    ['not JSON at all', (file: string) => fs.writeFileSync(file, '\u0000\u0001garbage')],
    [
      'another version',
      (file: string) => {
        const json = JSON.parse(fs.readFileSync(file, 'utf8'));
        fs.writeFileSync(file, JSON.stringify({ ...json, version: 2 }));
      },
    ],
    [
      'missing a field',
      (file: string) => {
        const json = JSON.parse(fs.readFileSync(file, 'utf8'));
        delete json.snapshot.labels;
        fs.writeFileSync(file, JSON.stringify(json));
      },
    ],
    [
      'unreadable (a named pipe)',
      (file: string) => {
        fs.rmSync(file);
        execFileSync('mkfifo', [file]);
      },
    ],
  ])('a %s snapshot counts as missing, is replaced, and nothing crashes', async (_what, damage) => {
    const w = world();
    await w.run(['usage', '--json']);
    const file = path.join(w.usageDir, `${keyA}.json`);
    damage(file);

    const result = await w.run(['usage', '--json', '--max-age', '1h'], { now: later(10) });

    expect(result.code, result.stderr).toBe(0);
    expect(w.summaryRequests()).toBe(2);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).fetchedAt).toBe(later(10).toISOString());
  });
});

describe('accounts never share figures', () => {
  it("another account's snapshot is never shown, even with a long --max-age", async () => {
    const w = world();
    await w.run(['usage', '--json']);

    const b = await w.run(['usage', '--json', '--max-age', '1h'], {
      now: later(5),
      env: { CODEXBAR_CURSOR_COOKIE: cookieHeader(w.b) },
    });

    expect(w.summaryRequests()).toBe(2);
    expect(usageJson(b).usage.primary?.usedPercent).toBe(92);
    expect(w.usageFiles()).toEqual(expect.arrayContaining([`${keyA}.json`, `${keyB}.json`]));
  });

  it("a file copied to another account's name is refused by its content", async () => {
    const w = world();
    await w.run(['usage', '--json']);
    fs.copyFileSync(path.join(w.usageDir, `${keyA}.json`), path.join(w.usageDir, `${keyB}.json`));

    const b = await w.run(['usage', '--json', '--max-age', '1h', '-v'], {
      now: later(5),
      env: { CODEXBAR_CURSOR_COOKIE: cookieHeader(w.b) },
    });

    expect(b.stderr).toContain('(belongs to another account)');
    expect(usageJson(b).usage.primary?.usedPercent).toBe(92);
  });

  it('a snapshot fetched from another base URL is not used', async () => {
    const w = world();
    await w.run(['usage', '--json']);
    const file = path.join(w.usageDir, `${keyA}.json`);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...json, baseUrl: 'https://cursor.com' }));

    await w.run(['usage', '--json', '--max-age', '1h'], { now: later(5) });

    expect(w.summaryRequests()).toBe(2);
  });
});

describe('a cache that cannot be written', () => {
  it.each([
    [
      'a cache directory open to others',
      (home: string) => fs.mkdirSync(path.join(home, '.cache', 'codexbar'), { recursive: true, mode: 0o755 }),
    ],
    [
      'a file where the cache directory should be',
      (home: string) => {
        fs.mkdirSync(path.join(home, '.cache'), { recursive: true });
        fs.writeFileSync(path.join(home, '.cache', 'codexbar'), '');
      },
    ],
  ])('%s: usage still works live and --verbose says why nothing was cached', async (_what, spoil) => {
    const w = world();
    spoil(w.home);
    fs.chmodSync(path.join(w.home, '.cache', 'codexbar'), 0o755);

    const result = await w.run(['usage', '--json', '--verbose']);

    expect(result.code, result.stderr).toBe(0);
    expect(usageJson(result).usage.primary?.usedPercent).toBe(45);
    expect(result.stderr).toMatch(/^\[cache\] Not cached: .*codexbar.*$/m);
  });
});

describe('--max-age refuses what is not a duration', () => {
  it.each(['5x', '-1', '2d', '25h', '1.5.1', ''])(
    "'%s': one line naming the flag and the forms, exit 1",
    async (value) => {
      const w = world();
      const text = await w.run(['usage', '--max-age', value]);
      const json = await w.run(['usage', '--json', `--max-age=${value}`]);

      const message = `--max-age must be a duration from 0 s to 86400 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '${value}').`;
      expect(text.code).toBe(1);
      expect(text.stderr).toBe(`Error: ${message}\n`);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual([
        { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
      ]);
      expect(w.fake.requests).toEqual([]);
    },
  );
});
