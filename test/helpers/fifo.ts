import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A named pipe at `file` (its directories created), in place of a file the CLI reads. */
export function makeFifo(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', ['-m', '600', file]);
  return file;
}

export interface FifoRescue {
  /** The FIFOs a reader was found blocked on, i.e. that the CLI waited on for longer than the grace period. */
  rescued(): Promise<string[]>;
  stop(): void;
}

/**
 * A CLI that opens a FIFO with a blocking open waits for a writer forever, and a synchronous open blocks the
 * test's own thread, so no timer in this process could end the test. So a separate process per FIFO waits
 * `graceMs`, then opens it for writing: a reader blocked on it is let go (and gets end-of-file), and the FIFO
 * is written down in `marks` the moment the open succeeds, before the reader can have done anything with it.
 * A CLI that never blocks leaves these writers waiting for a reader; they are killed when the test ends.
 */
export function startFifoRescue(fifos: readonly string[], marks: string, graceMs = 2000): FifoRescue {
  const script = `
    const fs = require('node:fs');
    const [fifo, marks, grace] = process.argv.slice(1);
    setTimeout(() => {
      const fd = fs.openSync(fifo, 'w');
      fs.appendFileSync(marks, fifo + '\\n');
      fs.closeSync(fd);
    }, Number(grace));`;
  const children: ChildProcess[] = fifos.map((fifo) =>
    spawn(process.execPath, ['-e', script, fifo, marks, String(graceMs)], { stdio: 'ignore' }),
  );
  return {
    async rescued() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return fs.existsSync(marks) ? fs.readFileSync(marks, 'utf8').split('\n').filter(Boolean) : [];
    },
    stop() {
      // Each killed by its own id; a writer still waiting in open() dies with it.
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
