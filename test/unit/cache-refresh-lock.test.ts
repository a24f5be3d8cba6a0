import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireRefreshLock,
  handOverRefreshLock,
  holdRefreshLock,
  holdsRefreshLock,
  LOCK_MAX_AGE_MS,
  releaseRefreshLock,
} from '../../src/statusline/refresh-lock.js';
import { makeFifo, startFifoRescue } from '../helpers/fifo.js';
import { useScene } from '../helpers/scene.js';

/** One refresh per account, and no lock a crashed process holds forever. */

const scene = useScene();
let dir: string;
let lock: string;
const T0 = Date.UTC(2026, 10, 30, 15);
const alive = () => true;
const dead = () => false;

beforeEach(() => {
  dir = scene.home;
  lock = path.join(dir, 'account.lock');
});

const content = () => JSON.parse(fs.readFileSync(lock, 'utf8'));

describe('acquiring', () => {
  it('the first caller gets the lock, 0600 and with its pid; the next one finds it busy', () => {
    const first = acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const second = acquireRefreshLock(lock, { now: T0 + 1000, isAlive: alive }, 4343);

    expect(first.kind).toBe('acquired');
    expect(second.kind).toBe('busy');
    expect(content()).toMatchObject({ pid: 4242, startedAt: T0 });
    expect(fs.statSync(lock).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });
});

describe('a stale lock is taken over', () => {
  it('when its process is gone', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);

    const taken = acquireRefreshLock(lock, { now: T0 + 1000, isAlive: dead }, 4343);

    expect(taken.kind).toBe('acquired');
    expect(content()).toMatchObject({ pid: 4343, startedAt: T0 + 1000 });
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });

  it('when it is older than the longest refresh, even if its pid is alive (a reused pid)', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);

    const early = acquireRefreshLock(lock, { now: T0 + LOCK_MAX_AGE_MS, isAlive: alive }, 4343);
    const late = acquireRefreshLock(lock, { now: T0 + LOCK_MAX_AGE_MS + 1, isAlive: alive }, 4343);

    expect(early.kind).toBe('busy');
    expect(late.kind).toBe('acquired');
  });

  it('when it is dated more than the longest refresh ahead (the clock set back), even if its pid is alive', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);

    const early = acquireRefreshLock(lock, { now: T0 - LOCK_MAX_AGE_MS, isAlive: alive }, 4343);
    const late = acquireRefreshLock(lock, { now: T0 - LOCK_MAX_AGE_MS - 1, isAlive: alive }, 4343);

    expect(early.kind).toBe('busy');
    expect(late.kind).toBe('acquired');
  });

  it('when its content is unreadable', () => {
    fs.writeFileSync(lock, '{"pid":');

    expect(acquireRefreshLock(lock, { now: T0, isAlive: alive }).kind).toBe('acquired');
  });

  it('by the first caller only: to the next ones the new lock is alive', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const isAlive = (pid: number) => pid !== 4242;
    const attempts = Array.from({ length: 5 }, (_, i) =>
      acquireRefreshLock(lock, { now: T0 + 5000, isAlive }, 5000 + i),
    );

    expect(attempts.map((attempt) => attempt.kind)).toEqual(['acquired', 'busy', 'busy', 'busy', 'busy']);
    expect(content()).toMatchObject({ pid: 5000 });
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });

  it('after a takeover that died half-way: its claim is cleared and the next caller takes over', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    fs.writeFileSync(`${lock}.claim`, JSON.stringify({ pid: 4343, nonce: 'claim', startedAt: T0 + 1000 }));

    const blocked = acquireRefreshLock(lock, { now: T0 + 2000, isAlive: (pid) => pid === 4343 }, 4444);
    const cleared = acquireRefreshLock(
      lock,
      { now: T0 + 3000, isAlive: (pid) => pid !== 4343 && pid !== 4242 },
      4545,
    );
    const next = acquireRefreshLock(
      lock,
      { now: T0 + 4000, isAlive: (pid) => (pid === 4545 ? false : pid !== 4242) },
      4646,
    );

    expect(blocked.kind).toBe('busy');
    expect(cleared.kind).toBe('busy');
    expect(next.kind).toBe('acquired');
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });
});

describe('a named pipe at the lock or its claim never blocks the prompt', () => {
  let stopRescue: (() => void) | undefined;
  afterEach(() => {
    stopRescue?.();
    stopRescue = undefined;
  });

  /** A FIFO at `file`; a caller blocked on it is let go after 2 s, and `rescued()` then names it. */
  function fifo(file: string): () => Promise<string[]> {
    makeFifo(file);
    const rescue = startFifoRescue([file], path.join(scene.root, 'rescued-fifos'));
    stopRescue = rescue.stop;
    return rescue.rescued;
  }

  it('at the lock: it names no owner, so it is taken over at once and replaced by a real lock', async () => {
    const rescued = fifo(lock);

    expect(acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242).kind).toBe('acquired');
    expect(fs.lstatSync(lock).isFile()).toBe(true);
    expect(content()).toMatchObject({ pid: 4242, startedAt: T0 });
    expect(await rescued()).toEqual([]);
  });

  it('at the claim: this caller finds it busy and clears the claim, and the next one takes over', async () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const rescued = fifo(`${lock}.claim`);

    expect(acquireRefreshLock(lock, { now: T0 + 1000, isAlive: dead }, 4343).kind).toBe('busy');
    expect(fs.existsSync(`${lock}.claim`)).toBe(false);
    expect(acquireRefreshLock(lock, { now: T0 + 2000, isAlive: dead }, 4444).kind).toBe('acquired');
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
    expect(await rescued()).toEqual([]);
  });
});

describe('after acquiring', () => {
  it('hand-over gives the lock to another pid under the same nonce', () => {
    const attempt = acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const nonce = (attempt as { nonce: string }).nonce;

    handOverRefreshLock(lock, nonce, 5151);

    expect(content()).toMatchObject({ pid: 5151, nonce, startedAt: T0 });
    expect(holdsRefreshLock(lock, nonce)).toBe(true);
    expect(holdsRefreshLock(lock, 'someone-else')).toBe(false);
  });

  it('release removes only our own lock', () => {
    const attempt = acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);

    releaseRefreshLock(lock, 'not-ours');
    expect(fs.existsSync(lock)).toBe(true);
    releaseRefreshLock(lock, (attempt as { nonce: string }).nonce);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('a failed refresh holds the lock until its backoff ends, even once its process is gone', () => {
    const attempt = acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    holdRefreshLock(lock, (attempt as { nonce: string }).nonce, T0 + 60_000);

    expect(acquireRefreshLock(lock, { now: T0 + 59_999, isAlive: dead }).kind).toBe('busy');
    expect(acquireRefreshLock(lock, { now: T0 + 60_000, isAlive: dead }).kind).toBe('acquired');
  });

  it('a hold ending more than the longest refresh ahead (the clock set back) is stale; up to it, it holds', () => {
    const held = (until: number) => {
      fs.rmSync(lock, { force: true });
      const attempt = acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
      holdRefreshLock(lock, (attempt as { nonce: string }).nonce, until);
      return acquireRefreshLock(lock, { now: T0, isAlive: dead }).kind;
    };
    expect(held(T0 + LOCK_MAX_AGE_MS)).toBe('busy');
    expect(held(T0 + LOCK_MAX_AGE_MS + 1)).toBe('acquired');
    expect(held(T0 + 365 * 86_400_000)).toBe('acquired');
  });
});

describe('a lock is only ever replaced as it was judged', () => {
  const other = (pid: number, nonce: string) => JSON.stringify({ pid, nonce, startedAt: T0 + 1000 });

  it('a lock replaced while it was being judged stale is not overwritten: the new one is judged afresh', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const isAlive = (pid: number) => {
      if (pid !== 4242) return true;
      fs.writeFileSync(lock, other(7777, 'newcomer'));
      return false;
    };

    expect(acquireRefreshLock(lock, { now: T0 + 2000, isAlive }, 4343)).toEqual({ kind: 'busy' });
    expect(content()).toEqual({ pid: 7777, nonce: 'newcomer', startedAt: T0 + 1000 });
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });

  it('a replacement that is stale too is taken over on the next try', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const isAlive = (pid: number) => {
      if (pid === 4242) fs.writeFileSync(lock, other(7777, 'newcomer'));
      return false;
    };

    expect(acquireRefreshLock(lock, { now: T0 + 2000, isAlive }, 4343).kind).toBe('acquired');
    expect(content()).toMatchObject({ pid: 4343, startedAt: T0 + 2000 });
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });

  it('a lock that changes under every takeover is tried three times, then reported busy', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    let judged = 0;
    // Each judgement finds the owner gone and, before the swap, another process puts a new lock there. After
    // ten it stops, so a taker that retried without end still ends (busy) and the count shows it.
    const isAlive = () => {
      judged += 1;
      if (judged > 10) return true;
      fs.writeFileSync(lock, other(7000 + judged, `newcomer-${judged}`));
      return false;
    };

    expect(acquireRefreshLock(lock, { now: T0 + 2000, isAlive }, 4343)).toEqual({ kind: 'busy' });
    expect(judged).toBe(3);
    expect(content()).toMatchObject({ pid: 7003, nonce: 'newcomer-3' });
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });

  it('a lock path that exists but reads as gone (a dangling symlink) is retried a few times, then busy, and never written through', () => {
    const target = path.join(dir, 'elsewhere');
    fs.symlinkSync(target, lock);

    expect(acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242)).toEqual({ kind: 'busy' });
    expect(fs.lstatSync(lock).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['account.lock']);
  });
});

describe('a lock that does not name an owner is taken over, even with every pid alive', () => {
  const cases: [string, unknown][] = [
    ['JSON null', null],
    ['an empty object', {}],
    ['no pid', { nonce: 'n', startedAt: T0 }],
    ['a pid that is not a number', { pid: '4242', nonce: 'n', startedAt: T0 }],
    ['no nonce', { pid: 4242, startedAt: T0 }],
    ['a nonce that is not a string', { pid: 4242, nonce: 7, startedAt: T0 }],
    ['no start', { pid: 4242, nonce: 'n' }],
    ['a start that is not a number', { pid: 4242, nonce: 'n', startedAt: String(T0) }],
    ['only a start', { startedAt: T0 }],
    ['a hold that is not a number', { pid: 4242, nonce: 'n', startedAt: T0, holdUntil: String(T0 + 60_000) }],
  ];

  it.each(cases)('%s', (_, held) => {
    fs.writeFileSync(lock, JSON.stringify(held));

    expect(acquireRefreshLock(lock, { now: T0 + 1000, isAlive: alive }, 4343).kind).toBe('acquired');
    expect(content()).toMatchObject({ pid: 4343, startedAt: T0 + 1000 });
  });

  it('while a complete one, with or without a numeric hold, is respected', () => {
    fs.writeFileSync(lock, JSON.stringify({ pid: 4242, nonce: 'n', startedAt: T0 }));
    expect(acquireRefreshLock(lock, { now: T0 + 1000, isAlive: alive }, 4343).kind).toBe('busy');
    fs.writeFileSync(lock, JSON.stringify({ pid: 4242, nonce: 'n', startedAt: T0, holdUntil: T0 + 60_000 }));
    expect(acquireRefreshLock(lock, { now: T0 + 1000, isAlive: dead }, 4343).kind).toBe('busy');
  });
});

describe('a claim left by another taker', () => {
  /** A claim by a live process, dated `age` ms before now (negative: ahead); whether this caller kept it. */
  const claimKept = (age: number) => {
    fs.rmSync(lock, { force: true });
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const now = T0 + 60_000;
    fs.writeFileSync(`${lock}.claim`, JSON.stringify({ pid: 4343, nonce: 'claim', startedAt: now - age }));
    const attempt = acquireRefreshLock(lock, { now, isAlive: (pid) => pid === 4343 }, 4444);
    expect(attempt.kind).toBe('busy');
    return fs.existsSync(`${lock}.claim`);
  };

  it('by a live process is kept for ten seconds either way, and cleared once older or further ahead', () => {
    expect(claimKept(0)).toBe(true);
    expect(claimKept(10_000)).toBe(true);
    expect(claimKept(10_001)).toBe(false);
    expect(claimKept(-10_000)).toBe(true);
    expect(claimKept(-10_001)).toBe(false);
  });
});

describe('only the holder changes the lock, and a missing lock is left missing', () => {
  it('hand-over and hold with a nonce that is not ours leave the lock as it was', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const before = fs.readFileSync(lock, 'utf8');

    handOverRefreshLock(lock, 'not-ours', 5151);
    holdRefreshLock(lock, 'not-ours', T0 + 60_000);

    expect(fs.readFileSync(lock, 'utf8')).toBe(before);
  });

  it('with no lock at all, hand-over, hold and release do nothing and nobody holds it', () => {
    handOverRefreshLock(lock, 'gone', 5151);
    holdRefreshLock(lock, 'gone', T0 + 60_000);
    releaseRefreshLock(lock, 'gone');

    expect(holdsRefreshLock(lock, 'gone')).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('without an injected check, a pid is alive while the process runs', () => {
  /** Far above any pid_max, so no process has it: kill(pid, 0) answers ESRCH. */
  const NO_SUCH_PID = 2 ** 31 - 1;

  it('a lock held by a running process is busy; one whose process does not exist is taken over', () => {
    acquireRefreshLock(lock, { now: T0 }, process.pid);
    expect(acquireRefreshLock(lock, { now: T0 + 1000 }, 4343).kind).toBe('busy');

    fs.rmSync(lock);
    acquireRefreshLock(lock, { now: T0 }, NO_SUCH_PID);
    expect(acquireRefreshLock(lock, { now: T0 + 1000 }, 4343).kind).toBe('acquired');
    expect(content()).toMatchObject({ pid: 4343 });
  });
});

describe.skipIf(process.platform !== 'linux')('no file descriptor is left open', () => {
  /** The open descriptors of this process on files in the scene's HOME (/proc/self/fd names their paths). */
  const openHere = () =>
    fs
      .readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      })
      .filter((target) => target.startsWith(dir));

  it('by taking over, handing over, holding and releasing the lock', () => {
    acquireRefreshLock(lock, { now: T0, isAlive: alive }, 4242);
    const attempt = acquireRefreshLock(lock, { now: T0 + 1000, isAlive: dead }, 4343);
    const nonce = (attempt as { nonce: string }).nonce;
    handOverRefreshLock(lock, nonce, 5151);
    holdRefreshLock(lock, nonce, T0 + 60_000);
    releaseRefreshLock(lock, nonce);

    expect(openHere()).toEqual([]);
  });
});
