import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { inject } from 'vitest';

/**
 * A named pipe at `file` (its directories created), in place of a file the CLI reads. Like `mkfifo`, it
 * fails when `file` exists. The FIFOs are made ahead, a batch at a time by one `mkfifo` in a directory of
 * this worker's, and linked into place (then unlinked there): each `mkfifo` spawned from a worker cost it
 * the fork of a process of a few hundred MB (bench/README.md, "npm test"). Without that directory (a suite
 * whose global setup has none), or on another file system (EXDEV), the FIFO is made in place.
 */
export function makeFifo(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const made = madeAhead();
  if (made !== undefined) {
    try {
      fs.linkSync(made, file);
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    } finally {
      fs.unlinkSync(made);
    }
  }
  execFileSync('mkfifo', ['-m', '600', file]);
  return file;
}

const BATCH = 32;
let ahead: { dir: string; free: string[]; next: number } | undefined;

function madeAhead(): string | undefined {
  // In the run's own directory (test/setup/fifos.ts), which the run removes however this worker ends.
  const root = inject('fifoDir');
  if (root === undefined) return undefined;
  ahead ??= { dir: fs.mkdtempSync(path.join(root, 'worker-')), free: [], next: 0 };
  const pool = ahead;
  if (pool.free.length === 0) {
    const names = Array.from({ length: BATCH }, (_, i) => path.join(pool.dir, `fifo-${pool.next + i}`));
    pool.next += BATCH;
    execFileSync('mkfifo', ['-m', '600', ...names]);
    pool.free = names.reverse();
  }
  return pool.free.pop();
}

export interface FifoRescue {
  /** The FIFOs a reader was found blocked on, i.e. that the CLI waited on for longer than the grace period. */
  rescued(): Promise<string[]>;
  stop(): void;
}

/**
 * A CLI that opens a FIFO with a blocking open waits for a writer forever, and a synchronous open blocks the
 * test's own thread, so no timer on that thread could end the test. So a worker thread per FIFO (its own
 * event loop, which a blocked main thread does not stop) waits `graceMs`, then keeps trying to open it for
 * writing without blocking: a reader blocked on it is let go (and gets end-of-file), as often as it blocks,
 * and the FIFO is written down in `marks` each time the open succeeds. A CLI that never blocks leaves these
 * writers polling; they are stopped when the test ends. Threads, not processes: each spawned Node cost the
 * suite ~0.1 s of CPU, and the test needs nothing a process would isolate (bench/README.md, "npm test").
 */
export function startFifoRescue(fifos: readonly string[], marks: string, graceMs = 2000): FifoRescue {
  const script = `
    const fs = require('node:fs');
    const { workerData: [fifo, marks, grace] } = require('node:worker_threads');
    // A non-blocking open for writing succeeds only while a reader has the FIFO open or waits in open(): so a
    // CLI that opened it without blocking and let go long ago is never mistaken for one that hangs, however
    // late (on a loaded machine) it got round to the file.
    const poll = () => {
      let fd;
      try {
        fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
      } catch {
        setTimeout(poll, 10);
        return;
      }
      try {
        fs.appendFileSync(marks, fifo + '\\n');
      } finally {
        fs.closeSync(fd);
      }
      // A CLI that opens the FIFO again blocks again: let it go each time, so the test fails, never hangs.
      setTimeout(poll, 10);
    };
    setTimeout(poll, grace);`;
  const writers = fifos.map((fifo) => {
    const writer = new Worker(script, { eval: true, workerData: [fifo, marks, graceMs] });
    // A test that removed its directory before stop() leaves a writer whose mark cannot be written: that
    // thread's error is no failure of the test.
    writer.on('error', () => {});
    // Never what keeps a worker process alive: stop() ends them, and a forgotten one dies with its process.
    writer.unref();
    return writer;
  });
  return {
    async rescued() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return fs.existsSync(marks)
        ? [...new Set(fs.readFileSync(marks, 'utf8').split('\n').filter(Boolean))]
        : [];
    },
    stop() {
      for (const writer of writers) void writer.terminate();
    },
  };
}
