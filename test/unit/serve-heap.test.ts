/**
 * The young generation may grow to 8 MB and no further, and may grow back
 * after V8 shrank it; the old generation is collected at 1.2 × live.
 */
import { describe, expect, it } from 'vitest';
import { heapGovernor } from '../../src/server/heap.js';

const MB = 1024 * 1024;

function fakeHeap(youngMb: number) {
  const heap = {
    young: youngMb * MB,
    flags: [] as string[],
    youngBytes: () => heap.young,
    setFlag: (flag: string) => heap.flags.push(flag),
  };
  return heap;
}

describe('heapGovernor', () => {
  it('bounds the old generation once, at start', () => {
    const heap = fakeHeap(8);
    heapGovernor(heap);
    expect(heap.flags).toEqual(['--heap-growing-percent=20']);
  });

  it('stops the young generation growing at 8 MB and lets it grow back after V8 shrank it', () => {
    const heap = fakeHeap(2);
    const adjust = heapGovernor(heap);
    heap.flags.length = 0;
    adjust();
    expect(heap.flags).toEqual(['--semi-space-growth-factor=2']);
    heap.young = 4 * MB;
    adjust();
    // Nothing changed: no flag is set again.
    expect(heap.flags).toEqual(['--semi-space-growth-factor=2']);
    heap.young = 8 * MB;
    adjust();
    expect(heap.flags.at(-1)).toBe('--semi-space-growth-factor=1');
    // V8 shrinks an idle server's young generation; under load again it may grow back to 8 MB.
    heap.young = 1 * MB;
    adjust();
    expect(heap.flags.at(-1)).toBe('--semi-space-growth-factor=2');
    expect(heap.flags).toHaveLength(3);
  });
});
