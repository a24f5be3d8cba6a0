import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const binPath = path.join(repoRoot, 'bin', 'codexbar.js');

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/** Wall time of one child process, in milliseconds; throws when it exits non-zero. */
export function timeProcess(args: readonly string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return elapsed;
}

/** Median over `runs` runs of an async action, after one warm-up run. */
export async function medianOf(runs: number, action: () => Promise<number> | number): Promise<number> {
  await action();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await action());
  return median(samples);
}
