/**
 * docs/invariants.md, "Regular files only, never a blocking read", for the files the process itself opens
 * before and beside the CLI's own reads: the zone file the C library reads for TZ (opened the first time a
 * date is formatted) and the compile cache bin/codexbar.js loads the bundles through. The BUILT CLI in its
 * own process, since both belong to the process; real FIFOs, each watched by a rescue that lets a blocked
 * reader go after 2 s so that the test fails rather than hangs. Needs `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { proAccount } from '../helpers/accounts.js';
import { builtCliExists, type SpawnOptions, spawnCli } from '../helpers/cli.js';
import { makeFifo, startFifoRescue } from '../helpers/fifo.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-30T14:30:00Z');
const COOKIE = 'user_zone%3A%3Azone-session';
const scene = useScene();
let stopRescue: (() => void) | undefined;

beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: run `npm run build` before these tests');
});
afterEach(() => {
  stopRescue?.();
  stopRescue = undefined;
});

/** A FIFO at `file`, watched: a process blocked on it is let go after 2 s, and `rescued()` names it. */
function fifoAt(file: string): () => Promise<string[]> {
  makeFifo(file);
  const rescue = startFifoRescue([file], path.join(scene.home, 'rescued-fifos'));
  stopRescue = rescue.stop;
  return rescue.rescued;
}

async function options(env: Record<string, string> = {}): Promise<SpawnOptions> {
  const fake = await scene.serve([proAccount([COOKIE])]);
  return {
    home: scene.home,
    now: NOW,
    frozen: true,
    env: {
      CODEXBAR_CURSOR_BASE_URL: fake.url,
      CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${COOKIE}`,
      ...env,
    },
  };
}

describe('a TZ whose zone file is a FIFO never hangs the process', () => {
  // Which file TZ names (after a colon, climbing out of the zone directory) is pinned in
  // unit/zone-file.test.ts; here the process itself, end to end.
  it('TZ names a path: usage finishes in UTC, and --verbose says TZ is not a zone', async () => {
    const fifo = path.join(scene.home, 'zone');
    const rescued = fifoAt(fifo);
    const run = await spawnCli(['usage', '--json', '--verbose'], await options({ TZ: fifo }));
    expect(await rescued()).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`[cursor] TZ=${fifo} is not a time zone this system knows; using UTC`);
    // The billing cycle ends at midnight UTC: in UTC that reads 12:00AM.
    expect(JSON.parse(run.stdout)[0].usage.primary.resetDescription).toBe('Resets Dec 15 at 12:00AM');
  });

  it('TZ names a zone that is a FIFO under TZDIR: the zone is still used, from Intl', async () => {
    const zones = path.join(scene.home, 'zones');
    const rescued = fifoAt(path.join(zones, 'Asia', 'Tokyo'));
    const run = await spawnCli(
      ['usage', '--json', '--verbose'],
      await options({ TZ: 'Asia/Tokyo', TZDIR: zones }),
    );
    expect(await rescued()).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('time zone');
    expect(JSON.parse(run.stdout)[0].usage.primary.resetDescription).toBe('Resets Dec 15 at 9:00AM');
  });

  it('the statusline fast path answers from its snapshot', async () => {
    const spawned = await options();
    const first = await spawnCli(['usage', '--json'], spawned);
    expect(first.code, first.stderr).toBe(0);
    const requests = scene.fake!.requests.length;
    const fifo = path.join(scene.home, 'zone');
    const rescued = fifoAt(fifo);
    const run = await spawnCli(['statusline'], { ...spawned, env: { ...spawned.env, TZ: fifo } });
    expect(await rescued()).toEqual([]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('55%');
    expect(scene.fake!.requests.length).toBe(requests);
  });
});

describe('a FIFO where a compile cache file goes', () => {
  it('is not waited on, and a real cache replaces it', async () => {
    const spawned = { ...(await options()), coldCompileCache: true };
    expect((await spawnCli(['usage', '--json'], spawned)).code).toBe(0);
    const dir = path.join(scene.home, '.cache', 'codexbar', 'compile-cache');
    const name = fs.readdirSync(dir).find((entry) => /^cli\.cjs-.*\.v8$/.test(entry))!;
    fs.rmSync(path.join(dir, name));
    const rescued = fifoAt(path.join(dir, name));
    const run = await spawnCli(['usage', '--json'], spawned);
    expect(await rescued()).toEqual([]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(fs.lstatSync(path.join(dir, name)).isFile()).toBe(true);
  });
});
