/**
 * The suite's global setup: what the spawned processes share, made once before the first test file, side
 * by side (the bundling is mostly esbuild's own process, the warming two CLI runs).
 */
import type { TestProject } from 'vitest/node';
import { warmCompileCache } from './compile-cache.js';
import { bundleUnprivilegedChecks } from './unprivileged-checks.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const teardowns = await Promise.all([warmCompileCache(project), bundleUnprivilegedChecks(project)]);
  return () => {
    for (const teardown of teardowns) teardown();
  };
}
