/**
 * The suite's global setup: what the spawned processes and the workers share, made once before the first
 * test file, side by side (the bundling is mostly esbuild's own process, the warming two CLI runs).
 */
import type { TestProject } from 'vitest/node';
import { warmCompileCache } from './compile-cache.js';
import { fifoDir } from './fifos.js';
import { bundleUnprivilegedChecks } from './unprivileged-checks.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const teardowns = [
    fifoDir(project),
    ...(await Promise.all([warmCompileCache(project), bundleUnprivilegedChecks(project)])),
  ];
  return () => {
    for (const teardown of teardowns) teardown();
  };
}
