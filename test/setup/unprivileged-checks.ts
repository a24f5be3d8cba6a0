/**
 * Global setup: the checks test/helpers/unprivileged.ts runs as another user, bundled once for the whole run
 * (unprivileged-child.ts and all it imports, in one CommonJS file; the native SQLite addon stays outside).
 * Each test file that uses them copies the bundle beside its copy of the addon; bundling there instead,
 * once per file, cost ~0.6 s of CPU a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import type { TestProject } from 'vitest/node';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled checks (`checks.cjs`). */
    unprivilegedChecks: string;
  }
}

export async function bundleUnprivilegedChecks(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-checks-'));
  await build({
    entry: { checks: path.join(repoRoot, 'test', 'helpers', 'unprivileged-child.ts') },
    outDir: dir,
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    config: false,
    silent: true,
    sourcemap: false,
    removeNodeProtocol: false,
    noExternal: [/^(?!better-sqlite3$).*/],
    external: ['better-sqlite3'],
  });
  project.provide('unprivilegedChecks', path.join(dir, 'checks.cjs'));
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
