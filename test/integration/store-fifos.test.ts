/**
 * docs/invariants.md, "Regular files only, never a blocking read", for the files SQLite opens itself: an
 * event store and its `-wal`, `-shm` and `-journal`. Unchecked, a FIFO at the journal of a store that holds
 * data made SQLite wait for a writer forever (it opens a journal it finds to see whether it is hot), one at
 * the `-shm` failed every open, and one at the `-wal` was used until the first write failed. Each is
 * checked first: anything but a regular file makes the store unusable, so it is set aside and a new one
 * started, and the run prints what a cold run does. Real FIFOs beside real stores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { teamStoreKey } from '../../src/team/store-key.js';
import { seedAdminEvents, seedMembers } from '../fake-cursor/admin-seed.js';
import { generateEvents } from '../fake-cursor/events.js';
import { MANUAL_COOKIE_VALUE } from '../helpers/cost-cli.js';
import { makeFifo, startFifoRescue } from '../helpers/fifo.js';
import { openScene } from '../helpers/scene.js';
import { newestFirst, type StoreHarness, storeHarness } from '../helpers/store-cli.js';
import { ADMIN_KEY, runTeam } from '../helpers/team-cli.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const DAY = 86_400_000;
/** Settled events (older than 48 h), so the first run leaves a store that holds them. */
const EVENTS = newestFirst(
  generateEvents({
    count: 40,
    start: new Date(NOW.getTime() - 9 * DAY),
    end: new Date(NOW.getTime() - 3 * DAY),
    seed: 7,
  }),
);
const STORE_FILE = `${accountKey({ userId: 'user_cost' })}.sqlite`;

let stopRescue: (() => void) | undefined;
let harness: StoreHarness | undefined;
afterEach(async () => {
  stopRescue?.();
  stopRescue = undefined;
  await harness?.close();
  harness = undefined;
});

/** A FIFO at `file` (whatever was there removed), watched: a run blocked on it is let go after 2 s. */
function fifoAt(file: string, marks: string): () => Promise<string[]> {
  fs.rmSync(file, { force: true });
  makeFifo(file);
  const rescue = startFifoRescue([file], marks);
  stopRescue = rescue.stop;
  return rescue.rescued;
}

const setAside = (shown: string, reason: string) =>
  `The event store ${shown} could not be used (${reason}); moved it to ${path.basename(shown)}.unusable and started a new one`;

describe('a FIFO at an event store or beside it never hangs `cost`', () => {
  it.each([
    ['the store itself', '', 'it is not a regular file'],
    ['its -wal', '-wal', 'its -wal is not a regular file'],
    ['its -shm', '-shm', 'its -shm is not a regular file'],
    ['its -journal', '-journal', 'its -journal is not a regular file'],
  ])(
    '%s: the store is set aside, a new one started, and the figures are a cold run’s',
    async (_what, suffix, reason) => {
      harness = await storeHarness(EVENTS, NOW, [MANUAL_COOKIE_VALUE]);
      const cold = await harness.cost(['--days', '10', '--json']);
      expect(cold.code, cold.stderr).toBe(0);
      const file = path.join(harness.storeDir, `${STORE_FILE}${suffix}`);
      const rescued = fifoAt(file, path.join(harness.home, 'rescued-fifos'));

      const run = await harness.cost(['--days', '10', '--json', '--verbose']);

      expect(await rescued()).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(cold.stdout);
      expect(run.stderr).toContain(setAside(`~/.cache/codexbar/cost/${STORE_FILE}`, reason));
      // The new store is regular files only: the FIFO was moved aside with the store, or removed.
      for (const name of harness.storeFiles().filter((name) => !name.endsWith('.unusable'))) {
        expect(fs.lstatSync(path.join(harness.storeDir, name)).isFile(), name).toBe(true);
      }
      const next = await harness.cost(['--days', '10', '--json', '--verbose']);
      expect(next.stderr).toContain('From the event store');
      expect(next.stdout).toBe(cold.stdout);
    },
  );
});

describe('a FIFO beside the team store never hangs `team cost`', () => {
  it('its -journal: the store is set aside and the run finishes', async () => {
    const scene = openScene();
    try {
      const members = seedMembers(3);
      const events = seedAdminEvents({
        members,
        count: 30,
        start: new Date(NOW.getTime() - 9 * DAY),
        end: new Date(NOW.getTime() - 3 * DAY),
        seed: 3,
      });
      const teamCost = (args: string[]) =>
        runTeam(['cost', '--days', '10', ...args], { now: NOW, home: scene.home, fake: { events } });
      const cold = await teamCost(['--json']);
      expect(cold.code, cold.stderr).toBe(0);
      const file = path.join(scene.home, '.cache', 'codexbar', 'cost', `${teamStoreKey(ADMIN_KEY)}.sqlite`);
      const rescued = fifoAt(`${file}-journal`, path.join(scene.home, 'rescued-fifos'));

      const run = await teamCost(['--json', '--verbose']);

      expect(await rescued()).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        setAside(`~/.cache/codexbar/cost/${path.basename(file)}`, 'its -journal is not a regular file'),
      );
    } finally {
      await scene.close();
    }
  });
});
