import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeSnapshot } from '../../src/cache/snapshot-codec.js';
import { lockPathFor, startBackgroundRefresh } from '../../src/statusline/background-refresh.js';
import { useScene } from '../helpers/scene.js';
import { workedExampleSnapshot } from '../helpers/usage-sample.js';

/** Who starts the one background refresh, and when nobody needs to. */

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const T0 = new Date('2026-11-30T15:00:00Z');
const scene = useScene();
let dir: string;

beforeEach(() => {
  dir = scene.home;
});

function saveFetchedAt(fetchedAt: Date): void {
  const file = encodeSnapshot(workedExampleSnapshot(), {
    account: ACCOUNT,
    fetchedAt,
    baseUrl: 'https://cursor.com',
    timeZone: 'UTC',
  });
  fs.writeFileSync(path.join(dir, `${ACCOUNT}.json`), JSON.stringify(file));
}

/** `pid: null`: the refresh process could not be started. */
function start(seenFetchedAt: Date | undefined, now: Date, pid: number | null = process.pid) {
  const started: string[][] = [];
  const result = startBackgroundRefresh(
    { usageDir: dir, account: ACCOUNT, seenFetchedAt, now, sourceArgs: ['--source', 'web'] },
    (args) => {
      started.push([...args]);
      return pid ?? undefined;
    },
  );
  return result.then((outcome) => ({ outcome, started }));
}

describe('startBackgroundRefresh', () => {
  it('starts one refresh with the account, the lock nonce and the source flags, and hands it the lock', async () => {
    saveFetchedAt(T0);
    const { outcome, started } = await start(T0, new Date(T0.getTime() + 120_000), 31337);

    expect(outcome).toBe('started');
    const lock = JSON.parse(fs.readFileSync(lockPathFor(dir, ACCOUNT), 'utf8'));
    expect(started).toEqual([['__refresh', '--account', ACCOUNT, '--lock', lock.nonce, '--source', 'web']]);
    expect(lock.pid).toBe(31337);
  });

  it('starts nothing when a newer snapshot landed after ours was read, whatever our clock says', async () => {
    saveFetchedAt(new Date(T0.getTime() + 5000));
    const { outcome, started } = await start(T0, new Date(T0.getTime() + 1000));

    expect(outcome).toBe('fresh');
    expect(started).toEqual([]);
    expect(fs.existsSync(lockPathFor(dir, ACCOUNT))).toBe(false);
  });

  it('releases the lock when the refresh cannot start', async () => {
    saveFetchedAt(T0);
    const { outcome } = await start(T0, new Date(T0.getTime() + 120_000), null);

    expect(outcome).toBe('failed');
    expect(fs.existsSync(lockPathFor(dir, ACCOUNT))).toBe(false);
  });

  it('is busy while another refresh holds the lock', async () => {
    saveFetchedAt(T0);
    await start(T0, new Date(T0.getTime() + 120_000));
    const second = await start(T0, new Date(T0.getTime() + 121_000));

    expect(second).toEqual({ outcome: 'busy', started: [] });
  });

  describe("after --no-wait's placeholder (nothing seen)", () => {
    it('starts the refresh when there is still no snapshot', async () => {
      const { outcome, started } = await start(undefined, T0);
      expect(outcome).toBe('started');
      expect(started).toHaveLength(1);
    });

    it('starts nothing once any snapshot has landed, even one dated before our clock', async () => {
      saveFetchedAt(new Date(T0.getTime() - 3_600_000));
      const { outcome, started } = await start(undefined, T0);
      expect(outcome).toBe('fresh');
      expect(started).toEqual([]);
    });
  });
});
