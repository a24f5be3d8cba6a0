/**
 * What only the built CLI's own process can show:
 * - a 50 MB answer fails at the 2 MiB cap while the process's peak RSS stays under 100 MB, and an endless
 *   events page fails at its 64 MiB cap under 300 MB (docs/invariants.md, "Every read is bounded");
 * - a write error on stdout other than EPIPE (`> /dev/full`) is one line, `Error: cannot write output:
 *   <code>`, and exit 1, never a stack trace.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { proAccount } from '../helpers/accounts.js';
import { type CliResult, outputOf, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { PEAK_RSS_PRELOAD, readPeakRssMB } from '../helpers/peak-rss.js';
import { useScene } from '../helpers/scene.js';

const BIN = path.join(repoRoot, 'bin', 'codexbar.js');
const VALUE = 'user_process%3A%3Amanual';
const MB = 1024 * 1024;

const scene = useScene();

interface BinRun extends CliResult {
  /** Peak resident set size in MB, when measured. */
  peakRssMB?: number;
}

/**
 * The built CLI in its own process, with only the given environment (plus PATH, HOME and TZ). `stdout` or
 * `stderr` may be a file to write to (e.g. /dev/full) instead of a pipe.
 */
async function runBin(
  args: string[],
  options: { env?: Record<string, string>; stdoutFile?: string; stderrFile?: string; peakRss?: boolean } = {},
): Promise<BinRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    TZ: 'UTC',
    ...options.env,
  };
  const nodeArgs: string[] = [];
  const rssFile = path.join(scene.home, 'peak-rss');
  if (options.peakRss) {
    nodeArgs.push('--import', PEAK_RSS_PRELOAD);
    env.PEAK_RSS_FILE = rssFile;
  }
  const out = options.stdoutFile ? fs.openSync(options.stdoutFile, 'w') : 'pipe';
  const err = options.stderrFile ? fs.openSync(options.stderrFile, 'w') : 'pipe';
  seedCompileCache(scene.home);
  const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
    env,
    cwd: scene.home,
    stdio: ['ignore', out, err],
  });
  const { code, stdout, stderr } = await outputOf(child).finally(() => {
    for (const fd of [out, err]) if (typeof fd === 'number') fs.closeSync(fd);
  });
  const run: BinRun = { code, stdout, stderr };
  if (options.peakRss) run.peakRssMB = readPeakRssMB(rssFile);
  return run;
}

const cursorEnv = () => ({
  CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
  CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${VALUE}`,
});

describe('a huge answer costs at most its cap in memory', () => {
  it('a 50 MB usage-summary fails at the 2 MiB cap with a peak RSS under 100 MB', async () => {
    await scene.serve([
      proAccount([VALUE], 'dev@example.com', {
        usageSummary: { stream: { chunk: 'x'.repeat(MB), bytes: 50 * MB } },
      }),
    ]);
    const run = await runBin(['usage'], { env: cursorEnv(), peakRss: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: Cursor API error: response larger than 2 MiB (GET /api/usage-summary)\n');
    expect(run.peakRssMB).toBeGreaterThan(0);
    expect(run.peakRssMB).toBeLessThan(100);
  });

  it('an endless events page fails at the 64 MiB cap with a peak RSS under 300 MB', async () => {
    await scene.serve([{ cookies: [VALUE], events: { stream: { chunk: `[${'0,'.repeat(MB / 2 - 1)}` } } }]);
    const run = await runBin(['cost', '--json'], { env: cursorEnv(), peakRss: true });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)[0].error.message).toBe(
      'Cursor API error: response larger than 64 MiB (POST /api/dashboard/get-filtered-usage-events)',
    );
    expect(run.peakRssMB).toBeLessThan(300);
  });
});

describe('a write error on the output is one line and exit 1', () => {
  it('--help > /dev/full', async () => {
    const run = await runBin(['--help'], { stdoutFile: '/dev/full' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: cannot write output: ENOSPC\n');
  });

  it('usage --json > /dev/full', async () => {
    await scene.serve([proAccount([VALUE])]);
    const run = await runBin(['usage', '--json'], { env: cursorEnv(), stdoutFile: '/dev/full' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: cannot write output: ENOSPC\n');
  });

  it('an error message to a stderr on /dev/full: exit 1, nothing else', async () => {
    const run = await runBin(['usage', '--cookie', 'x\r\ny'], { stderrFile: '/dev/full' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });
});
