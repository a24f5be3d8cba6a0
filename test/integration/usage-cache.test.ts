import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { makeFifo } from '../helpers/fifo.js';
import { snapshotTree } from '../helpers/home.js';
import {
  cookieHeader,
  later,
  promptScene,
  summaryRequests,
  usageDir,
  usageFiles,
} from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';
import { usageJson } from '../helpers/usage-cli.js';

/**
 * The usage snapshot cache (docs/invariants.md, "When a snapshot may be trusted") and `usage --max-age`
 * (docs/invariants.md, "No cached figure as fresh").
 */

const scene = useScene(promptScene());
const keyA = accountKey({ userId: 'user_prompt_a' });
const keyB = accountKey({ userId: 'user_prompt_b' });

function mode(file: string): string {
  return (fs.statSync(file).mode & 0o777).toString(8);
}

describe('the snapshot a live run saves', () => {
  it('is the account key’s file, 0600 in 0700 directories, and holds no token or cookie', async () => {
    const result = await scene.run(['usage', '--json']);

    expect(result.code, result.stderr).toBe(0);
    expect(usageFiles(scene)).toEqual(expect.arrayContaining([`${keyA}.json`]));
    for (const dir of [path.dirname(usageDir(scene)), usageDir(scene)]) expect(mode(dir)).toBe('700');
    for (const file of usageFiles(scene)) {
      expect(mode(path.join(usageDir(scene), file))).toBe('600');
      const text = fs.readFileSync(path.join(usageDir(scene), file), 'utf8');
      for (const secret of [
        scene.given.a.jwt,
        scene.given.a.jwt.split('.')[1]!,
        scene.given.a.jwt.split('.')[2]!,
        scene.given.a.cookieValue,
      ]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('writes nothing outside <cache dir>/codexbar', async () => {
    const before = snapshotTree(scene.home);

    await scene.run(['usage', '--json']);
    await scene.run(['statusline'], { now: later(600) });

    const added = [...snapshotTree(scene.home).keys()].filter((file) => !before.has(file));
    expect(added.length).toBeGreaterThan(0);
    for (const file of added) expect(file.startsWith(path.join('.cache', 'codexbar') + path.sep)).toBe(true);
    for (const [file, bytes] of before) expect(snapshotTree(scene.home).get(file)).toBe(bytes);
  });
});

describe('temporary files of killed writers', () => {
  it('are removed by the next write once they are old; a fresh one (a writer at work) is left alone', async () => {
    await scene.run(['usage', '--json']);
    const abandoned = path.join(usageDir(scene), `.${keyA}.json.0123456789ab.tmp`);
    const inFlight = path.join(usageDir(scene), `.${keyA}.json.ba9876543210.tmp`);
    fs.writeFileSync(abandoned, '{"version":1,');
    fs.writeFileSync(inFlight, '{"version":1,');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(abandoned, hourAgo, hourAgo);

    await scene.run(['usage', '--json'], { now: later(1) });

    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(inFlight)).toBe(true);
  });
});

describe('usage --max-age', () => {
  it('uses a snapshot young enough without a request, with the same usage row', async () => {
    const live = usageJson(await scene.run(['usage', '--json']));

    const cached = await scene.run(['usage', '--json', '--max-age', '5m'], { now: later(299) });

    expect(cached.code, cached.stderr).toBe(0);
    expect(summaryRequests(scene)).toBe(1);
    expect(usageJson(cached).usage).toEqual(live.usage);
  });

  it('says in text that the figures come from the cache, and how old they are', async () => {
    await scene.run(['usage']);

    const cached = await scene.run(['usage', '--max-age', '120', '--no-color'], { now: later(95) });

    expect(cached.stdout).toContain('Total: 55% left');
    expect(cached.stdout.trimEnd().split('\n').at(-1)).toBe('From the cache, fetched 1m 35s ago');
    expect(summaryRequests(scene)).toBe(1);
  });

  it('fetches live and replaces a snapshot older than the maximum age', async () => {
    await scene.run(['usage', '--json']);

    const result = await scene.run(['usage', '--json', '--max-age', '1m', '-v'], { now: later(61) });

    expect(summaryRequests(scene)).toBe(2);
    expect(result.stderr).toContain('[cache] The snapshot is 61s old, older than --max-age 60s; fetching');
    const saved = JSON.parse(fs.readFileSync(path.join(usageDir(scene), `${keyA}.json`), 'utf8'));
    expect(saved.fetchedAt).toBe(later(61).toISOString());
  });

  it('a snapshot dated in the future (the clock set back) is not fresh: fetched live; one dated now is used', async () => {
    await scene.run(['usage', '--json'], { now: later(10) });

    await scene.run(['usage', '--json', '--max-age', '1h'], { now: later(10) });
    expect(summaryRequests(scene)).toBe(1);
    const result = await scene.run(['usage', '--json', '--max-age', '1h', '-v'], { now: later(9) });
    expect(summaryRequests(scene)).toBe(2);
    expect(result.stderr).toContain('[cache] The snapshot is dated 1s ahead of this clock; fetching');
  });

  it('is 0 by default: every run fetches live, as CodexBar does', async () => {
    await scene.run(['usage', '--json']);
    await scene.run(['usage', '--json'], { now: later(1) });
    await scene.run(['usage', '--json', '--max-age', '0'], { now: later(2) });

    expect(summaryRequests(scene)).toBe(3);
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
        makeFifo(file);
      },
    ],
  ])('a %s snapshot counts as missing, is replaced, and nothing crashes', async (_what, damage) => {
    await scene.run(['usage', '--json']);
    const file = path.join(usageDir(scene), `${keyA}.json`);
    damage(file);

    const result = await scene.run(['usage', '--json', '--max-age', '1h'], { now: later(10) });

    expect(result.code, result.stderr).toBe(0);
    expect(summaryRequests(scene)).toBe(2);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).fetchedAt).toBe(later(10).toISOString());
  });
});

describe('accounts never share figures', () => {
  it("another account's snapshot is never shown, even with a long --max-age", async () => {
    await scene.run(['usage', '--json']);

    const b = await scene.run(['usage', '--json', '--max-age', '1h'], {
      now: later(5),
      env: { CODEXBAR_CURSOR_COOKIE: cookieHeader(scene.given.b) },
    });

    expect(summaryRequests(scene)).toBe(2);
    expect(usageJson(b).usage.primary?.usedPercent).toBe(92);
    expect(usageFiles(scene)).toEqual(expect.arrayContaining([`${keyA}.json`, `${keyB}.json`]));
  });

  it("a file copied to another account's name is refused by its content", async () => {
    await scene.run(['usage', '--json']);
    fs.copyFileSync(path.join(usageDir(scene), `${keyA}.json`), path.join(usageDir(scene), `${keyB}.json`));

    const b = await scene.run(['usage', '--json', '--max-age', '1h', '-v'], {
      now: later(5),
      env: { CODEXBAR_CURSOR_COOKIE: cookieHeader(scene.given.b) },
    });

    expect(b.stderr).toContain('(belongs to another account)');
    expect(usageJson(b).usage.primary?.usedPercent).toBe(92);
  });

  it('a snapshot fetched from another base URL is not used', async () => {
    await scene.run(['usage', '--json']);
    const file = path.join(usageDir(scene), `${keyA}.json`);
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...json, baseUrl: 'https://cursor.com' }));

    await scene.run(['usage', '--json', '--max-age', '1h'], { now: later(5) });

    expect(summaryRequests(scene)).toBe(2);
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
    spoil(scene.home);
    fs.chmodSync(path.join(scene.home, '.cache', 'codexbar'), 0o755);

    const result = await scene.run(['usage', '--json', '--verbose']);

    expect(result.code, result.stderr).toBe(0);
    expect(usageJson(result).usage.primary?.usedPercent).toBe(45);
    expect(result.stderr).toMatch(/^\[cache\] Not cached: .*codexbar.*$/m);
  });
});

describe('--max-age refuses what is not a duration', () => {
  it.each(['5x', '-1', '2d', '25h', '1.5.1', ''])(
    "'%s': one line naming the flag and the forms, exit 1",
    async (value) => {
      const text = await scene.run(['usage', '--max-age', value]);
      const json = await scene.run(['usage', '--json', `--max-age=${value}`]);

      const message = `--max-age must be a duration from 0 s to 86400 s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '${value}').`;
      expect(text.code).toBe(1);
      expect(text.stderr).toBe(`Error: ${message}\n`);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual([
        { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
      ]);
      expect(scene.fake!.requests).toEqual([]);
    },
  );
});
