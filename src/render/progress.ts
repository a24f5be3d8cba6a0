/**
 * One progress line on stderr, rewritten in place (`\r` + clear line) and erased when done, e.g.
 * `Fetching usage events… page 12/150`. The caller enables it only for a TTY stderr in text mode, so
 * pipes, logs and JSON output never see it.
 */

export interface ProgressStream {
  write(chunk: string): unknown;
}

export interface ProgressLine {
  update(message: string): void;
  /** Erases the line if anything was drawn; safe to call more than once. */
  finish(): void;
}

export interface ProgressOptions {
  enabled: boolean;
  stream: ProgressStream;
}

// Carriage return, then ESC[2K: erase the whole current line.
const CLEAR_LINE = '\r\u001b[2K';

export function createProgressLine({ enabled, stream }: ProgressOptions): ProgressLine {
  if (!enabled) return { update: () => {}, finish: () => {} };
  let drawn = false;
  let last: string | undefined;
  return {
    update(message) {
      if (message === last) return;
      stream.write(CLEAR_LINE + message);
      drawn = true;
      last = message;
    },
    finish() {
      if (drawn) stream.write(CLEAR_LINE);
      drawn = false;
      last = undefined;
    },
  };
}

/** `Fetching usage events… page 12/150`, or `… page 12` while the total is unknown. */
export function eventsPageMessage(page: number, totalPages?: number): string {
  const of = totalPages === undefined ? '' : `/${totalPages}`;
  return `Fetching usage events… page ${page}${of}`;
}
