/**
 * V8's heap sizing for the long-running servers, `serve` and `proxy`.
 *
 * Under steady load V8 doubles its young generation until it holds two 16 MB semi-spaces, and lets the old
 * generation grow to up to four times what is live before it collects it. For a server whose live data is
 * a few cached answers, that is 40–60 MB of resident memory holding garbage. `--max-semi-space-size` is
 * fixed when V8 starts, so it could only come from the node command line; these two flags are read at
 * every collection and can be set from inside the process:
 * - `--semi-space-growth-factor`: 2 (V8's default) while the young generation is below YOUNG_LIMIT_BYTES,
 *   1 (no growth) from there on. Set after every collection, because V8 shrinks the young generation when
 *   the server has been idle for a while and it must be able to grow back.
 * - `--heap-growing-percent=20`: the old generation is collected once it passes 1.2 × what is live (V8
 *   still adds its minimum step of 8 MB), instead of up to 4 × when allocation is fast.
 * bench/serve.ts measures what this costs in throughput and what it saves in RSS.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/** Both semi-spaces: 2 × 4 MB, the size start-up leaves the young generation at. */
const YOUNG_LIMIT_BYTES = 8 * 1024 * 1024;
const OLD_GROWING_PERCENT = 20;

export interface HeapAccess {
  /** The young generation's reserved size in bytes. */
  youngBytes(): number;
  setFlag(flag: string): void;
}

/** Bounds the old generation; the function returned sets the young one's growth, after each collection. */
export function heapGovernor(heap: HeapAccess): () => void {
  heap.setFlag(`--heap-growing-percent=${OLD_GROWING_PERCENT}`);
  let factor: number | undefined;
  return () => {
    const wanted = heap.youngBytes() < YOUNG_LIMIT_BYTES ? 2 : 1;
    if (wanted === factor) return;
    factor = wanted;
    heap.setFlag(`--semi-space-growth-factor=${wanted}`);
  };
}

const processHeap: HeapAccess = {
  youngBytes: () =>
    v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0,
  setFlag: (flag) => v8.setFlagsFromString(flag),
};

/**
 * For a process that runs nothing but the server: the flags hold for the whole process. Returns the
 * function that stops watching collections.
 */
export function limitHeapGrowth(): () => void {
  const adjust = heapGovernor(processHeap);
  adjust();
  const observer = new PerformanceObserver(adjust);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}
