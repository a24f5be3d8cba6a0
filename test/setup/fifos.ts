/**
 * Global setup (test/setup/global.ts): the directory test/helpers/fifo.ts makes its FIFOs ahead in, one
 * subdirectory per worker, removed with everything in it when the run ends, however the workers ended. It is
 * on the workers' scratch file system (`TMPDIR` of vitest.config.ts), so a FIFO made there can be linked into
 * a test's HOME.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the workers make FIFOs ahead. */
    fifoDir: string;
  }
}

export function fifoDir(project: TestProject): () => void {
  const scratch = project.config.env.TMPDIR ?? os.tmpdir();
  const dir = fs.mkdtempSync(path.join(scratch, 'codexbar-fifos-'));
  project.provide('fifoDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
