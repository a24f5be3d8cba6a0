import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateEvents } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE } from '../helpers/cost-cli.js';
import { writeCachedCookie } from '../helpers/home.js';
import { promptScene, usageFiles } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';
import { storeHarness } from '../helpers/store-cli.js';

/** `codexbar cache clear`, CodexBar's command with our usage snapshots added. */

const scene = useScene(promptScene());
const cookieFile = (home: string) => path.join(home, '.local', 'share', 'CodexBar', 'cursor-cookie.json');

describe('cache clear', () => {
  it('--usage removes every snapshot, record and lock; a second run has nothing to clear', async () => {
    await scene.run(['usage', '--json']);
    expect(usageFiles(scene).length).toBeGreaterThan(0);

    const first = await scene.run(['cache', 'clear', '--usage']);
    const second = await scene.run(['cache', 'clear', '--usage', '--json']);

    expect(first).toEqual({ code: 0, stdout: 'usage: cleared (all providers)\n', stderr: '' });
    expect(usageFiles(scene)).toEqual([]);
    expect(JSON.parse(second.stdout)).toEqual([{ cache: 'usage', cleared: 0 }]);
  });

  it('--cookies deletes CodexBar’s legacy cursor-cookie.json, only on this request', async () => {
    writeCachedCookie(scene.home, 'a=1');
    await scene.run(['usage', '--json']);
    expect(fs.existsSync(cookieFile(scene.home))).toBe(true);

    const result = await scene.run(['cache', 'clear', '--cookies', '--provider', 'cursor', '--json']);

    expect(JSON.parse(result.stdout)).toEqual([{ cache: 'cookies', provider: 'cursor', cleared: 1 }]);
    expect(fs.existsSync(cookieFile(scene.home))).toBe(false);
  });

  it('--cost deletes the cost event stores; a second run has nothing to clear', async () => {
    const now = new Date('2026-11-30T12:00:00Z');
    const events = generateEvents({ count: 40, start: new Date('2026-11-01T00:00:00Z'), end: now, seed: 7 });
    const store = await storeHarness(events, now, [MANUAL_COOKIE_VALUE]);
    try {
      expect((await store.cost(['--days', '30', '--json'])).code).toBe(0);
      expect(store.storeFiles().some((name) => name.endsWith('.sqlite'))).toBe(true);
      const clear = (args: string[]) => store.run(['cache', 'clear', '--cost', ...args]);

      const first = await clear([]);
      const second = await clear(['--json']);

      expect(first).toEqual({ code: 0, stdout: 'cost: cleared (all providers)\n', stderr: '' });
      expect(store.storeFiles()).toEqual([]);
      expect(JSON.parse(second.stdout)).toEqual([{ cache: 'cost', cleared: 0 }]);
    } finally {
      await store.close();
    }
  });

  it('--all: every cache, one line each, in CodexBar’s order with ours last', async () => {
    await scene.run(['usage', '--json']);
    writeCachedCookie(scene.home, 'a=1');

    const result = await scene.run(['cache', 'clear', '--all']);

    expect(result.stdout).toBe(
      'cookies: cleared (all providers)\ncost: nothing to clear (all providers)\nusage: cleared (all providers)\n' +
        'models: nothing to clear (all providers)\n',
    );
  });

  it('a cache that cannot be removed: the failure is its line and the run exits 1', async () => {
    // <cache dir>/codexbar is a file, so its usage directory cannot even be looked at (even by root).
    fs.mkdirSync(path.join(scene.home, '.cache'), { recursive: true });
    fs.writeFileSync(path.join(scene.home, '.cache', 'codexbar'), '');

    const text = await scene.run(['cache', 'clear', '--usage']);
    const json = await scene.run(['cache', 'clear', '--usage', '--json']);

    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^usage: failed to clear \(all providers\) - ENOTDIR: .*\n$/);
    expect(JSON.parse(json.stdout)).toEqual([
      { cache: 'usage', cleared: 0, error: expect.stringContaining('ENOTDIR') },
    ]);
  });

  it.each([
    [[], 'Specify --usage, --cost, --models, --cookies, or --all.'],
    [
      ['--usage', '--provider', 'cursor'],
      '--provider only scopes cookie caches. Use --cookies --provider <name>, or omit --provider.',
    ],
    [
      ['--models', '--provider', 'cursor'],
      '--provider only scopes cookie caches. Use --cookies --provider <name>, or omit --provider.',
    ],
    [
      ['--all', '--provider', 'cursor'],
      '--provider only scopes cookie caches. Use --cookies --provider <name>, or omit --provider.',
    ],
    [['--cookies', '--provider', 'claude'], "unknown provider 'claude' (supported: cursor)"],
  ])('%j is refused in one line, exit 1', async (args, message) => {
    const text = await scene.run(['cache', 'clear', ...args]);
    const json = await scene.run(['cache', 'clear', '--json', ...args]);

    expect(text).toEqual({ code: 1, stdout: '', stderr: `Error: ${message}\n` });
    expect(JSON.parse(json.stdout)).toEqual([
      { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
    ]);
  });

  it('`cache` alone means `cache clear`', async () => {
    expect((await scene.run(['cache', '--cost'])).stdout).toBe('cost: nothing to clear (all providers)\n');
  });
});
