import type { ChildProcess } from 'node:child_process';

/** What the CLI writes to stderr when it reaches the held open. */
const HELD = 'HELD';

/**
 * A preload (`NODE_OPTIONS=--import=<HOLD_OPEN_PRELOAD>`) that stops the BUILT CLI at a chosen file, so a test
 * can act on the process at that point without racing it: when the CLI opens $HOLD_OPEN_PATH (through
 * node:fs/promises, as the bundles do), it writes HELD to stderr and that open never settles; a timer keeps
 * the process alive until the test ends it. With $HOLD_OPEN_EXIT set, it calls process.exit with that code
 * instead. Nothing else is changed: every other open is Node's own.
 */
const SOURCE = [
  "import fsp from 'node:fs/promises';",
  "import { writeSync } from 'node:fs';",
  'const held = process.env.HOLD_OPEN_PATH;',
  'const open = fsp.open;',
  'fsp.open = function (file, ...rest) {',
  '  if (held === undefined || String(file) !== held) return open.call(this, file, ...rest);',
  `  writeSync(2, ${JSON.stringify(`${HELD}\n`)});`,
  '  if (process.env.HOLD_OPEN_EXIT !== undefined) process.exit(Number(process.env.HOLD_OPEN_EXIT));',
  '  setInterval(() => {}, 2 ** 30);',
  '  return new Promise(() => {});',
  '};',
].join('\n');

const HOLD_OPEN_PRELOAD = `data:text/javascript,${encodeURIComponent(SOURCE)}`;

/** The environment that holds the CLI at `file` (then exits with `exitCode`, when given). */
export function holdOpenEnv(file: string, exitCode?: number): Record<string, string> {
  const env: Record<string, string> = { NODE_OPTIONS: `--import=${HOLD_OPEN_PRELOAD}`, HOLD_OPEN_PATH: file };
  if (exitCode !== undefined) env.HOLD_OPEN_EXIT = String(exitCode);
  return env;
}

/** Resolves once the child has reached the held open; rejects if it ends before. */
export function reachedHold(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onData = (chunk: Buffer | string) => {
      stderr += chunk.toString();
      if (stderr.includes(`${HELD}\n`)) {
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    // 'close', not 'exit': by then every byte of stderr has been read.
    child.once('close', () => reject(new Error(`the CLI ended before the held open: ${stderr}`)));
  });
}
