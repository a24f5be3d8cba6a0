/**
 * Config reads shared by the requests waiting for them, and never a read that
 * began before the request arrived.
 */
import { describe, expect, it } from 'vitest';
import { NextLoad } from '../../src/serve/next-load.js';

/** A load whose reads the test finishes one by one, in order. */
function controlledLoads() {
  const pending: Array<{ resolve(value: number): void; reject(error: Error): void }> = [];
  let started = 0;
  return {
    load: () =>
      new Promise<number>((resolve, reject) => {
        started++;
        pending.push({ resolve, reject });
      }),
    started: () => started,
    finish(index: number, value: number) {
      pending[index]!.resolve(value);
    },
    fail(index: number, error: Error) {
      pending[index]!.reject(error);
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const HOUR_MS = 3_600_000;

describe('NextLoad', () => {
  it('callers that arrive while a read runs share the next read, which starts when the running one ends', async () => {
    const reads = controlledLoads();
    const loads = new NextLoad(reads.load, HOUR_MS);
    const first = loads.get();
    await turn();
    const later = [loads.get(), loads.get(), loads.get()];
    await turn();
    // The running read began before these callers arrived: they may not take its answer.
    expect(reads.started()).toBe(1);
    reads.finish(0, 1);
    expect(await first).toBe(1);
    await turn();
    expect(reads.started()).toBe(2);
    reads.finish(1, 2);
    expect(await Promise.all(later)).toEqual([2, 2, 2]);
    // Nothing runs now: the next caller starts its own read at once.
    const alone = loads.get();
    await turn();
    expect(reads.started()).toBe(3);
    reads.finish(2, 3);
    expect(await alone).toBe(3);
  });

  it('a caller that arrives once the next read has begun waits for the one after it', async () => {
    const reads = controlledLoads();
    const loads = new NextLoad(reads.load, HOUR_MS);
    void loads.get();
    await turn();
    const second = loads.get();
    reads.finish(0, 1);
    await turn();
    expect(reads.started()).toBe(2);
    const third = loads.get();
    reads.finish(1, 2);
    expect(await second).toBe(2);
    await turn();
    expect(reads.started()).toBe(3);
    reads.finish(2, 3);
    expect(await third).toBe(3);
  });

  it('a failed read fails every caller that shared it; the next caller reads again', async () => {
    const reads = controlledLoads();
    const loads = new NextLoad(reads.load, HOUR_MS);
    const first = loads.get();
    await turn();
    const shared = [loads.get(), loads.get()];
    reads.fail(0, new Error('first read failed'));
    await expect(first).rejects.toThrow('first read failed');
    await turn();
    reads.fail(1, new Error('config unreadable'));
    for (const caller of shared) await expect(caller).rejects.toThrow('config unreadable');
    const retry = loads.get();
    await turn();
    reads.finish(2, 7);
    expect(await retry).toBe(7);
  });

  it('a read that never ends holds the next one back only for the stall time', async () => {
    const reads = controlledLoads();
    const loads = new NextLoad(reads.load, 0);
    void loads.get();
    await turn();
    const behind = loads.get();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await turn();
    expect(reads.started()).toBe(2);
    reads.finish(1, 5);
    expect(await behind).toBe(5);
    // The hung read ending late changes nothing for callers after it.
    reads.finish(0, 1);
    const after = loads.get();
    await turn();
    expect(reads.started()).toBe(3);
    reads.finish(2, 6);
    expect(await after).toBe(6);
  });
});
