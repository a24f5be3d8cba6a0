import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError, withFileLock } from '../../src/config/lock.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
let dir: string;
let file: string;
beforeEach(() => {
  dir = scene.home;
  file = path.join(dir, 'config.json');
});

const lockFile = () => `${file}.lock`;
const noWait = async () => {};

function writeLock(holder: Record<string, unknown>, ageSeconds = 0): void {
  fs.writeFileSync(lockFile(), JSON.stringify(holder));
  const when = new Date(Date.now() - ageSeconds * 1000);
  fs.utimesSync(lockFile(), when, when);
}

describe('withFileLock', () => {
  it('holds an O_EXCL lock file (0600) while the work runs and removes it afterwards, even on failure', async () => {
    await withFileLock(file, async () => {
      expect(fs.statSync(lockFile()).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(lockFile(), 'utf8'))).toMatchObject({
        pid: process.pid,
        host: os.hostname(),
      });
    });
    expect(fs.existsSync(lockFile())).toBe(false);
    await expect(withFileLock(file, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('runs one holder at a time', async () => {
    const order: string[] = [];
    const work = (name: string) =>
      withFileLock(file, async () => {
        order.push(`${name}:in`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`${name}:out`);
      });
    await Promise.all([work('a'), work('b'), work('c')]);
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace(':in', ':out'));
  });

  it('a lock held by a live process is waited for, then given up on with its pid', async () => {
    writeLock({ pid: process.pid, host: os.hostname(), nonce: 'other' });
    const error = await withFileLock(file, async () => 'ran', { sleep: noWait, attempts: 5 }).catch((e) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(error.message).toBe(`locked by another process (pid ${process.pid})`);
    expect(fs.existsSync(lockFile())).toBe(true);
  });

  it('a lock whose process is gone is taken over', async () => {
    writeLock({ pid: 2 ** 22 + 12_345, host: os.hostname(), nonce: 'dead' });
    expect(await withFileLock(file, async () => 'ran', { sleep: noWait, attempts: 5 })).toBe('ran');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a lock older than staleMs is taken over whoever holds it; an unreadable fresh one is not', async () => {
    writeLock({ pid: process.pid, host: 'another-host', nonce: 'old' }, 120);
    expect(await withFileLock(file, async () => 'ran', { sleep: noWait, attempts: 5 })).toBe('ran');
    fs.writeFileSync(lockFile(), '');
    await expect(
      withFileLock(file, async () => 'ran', { sleep: noWait, attempts: 5 }),
    ).rejects.toBeInstanceOf(LockTimeoutError);
  });

  it('a process on another host is not judged by its pid', async () => {
    writeLock({ pid: 2 ** 22 + 12_345, host: 'another-host', nonce: 'remote' });
    await expect(
      withFileLock(file, async () => 'ran', { sleep: noWait, attempts: 3 }),
    ).rejects.toBeInstanceOf(LockTimeoutError);
  });
});
