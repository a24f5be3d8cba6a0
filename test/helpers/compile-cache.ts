/**
 * Gives a spawned CLI's HOME the run's warm compile cache (test/setup/compile-cache.ts), as any user's
 * machine has after its first run. Only where HOME has no cache yet; the directories are made as the CLI
 * makes them (0700, files 0600), so the CLI trusts and keeps them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export function seedCompileCache(home: string): void {
  const warm = inject('warmCompileCache');
  const dir = path.join(home, '.cache', 'codexbar', 'compile-cache');
  if (!warm || fs.existsSync(dir)) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const name of fs.readdirSync(warm)) {
    fs.copyFileSync(path.join(warm, name), path.join(dir, name));
    fs.chmodSync(path.join(dir, name), 0o600);
  }
}
