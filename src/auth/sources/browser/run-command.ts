import { spawn } from 'node:child_process';

export type CommandResult =
  | { kind: 'ok'; stdout: Buffer }
  /** The program is not installed (not on PATH). */
  | { kind: 'missing' }
  /** It ran and exited with a non-zero code or a signal. */
  | { kind: 'failed'; code: number | null }
  | { kind: 'timeout' };

export interface CommandOptions {
  /** The whole environment of the child; PATH in it is where the program is looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** Written to the child's stdin, which is then closed. Secrets go here, never into argv. */
  input?: string;
  timeoutMs: number;
}

/**
 * Runs a helper program (secret-tool, kwallet-query, security, powershell) without a shell. Its stdout is
 * returned to the caller only: it may hold a key, so it is never logged, and stderr is discarded because
 * nothing in it is needed for a reason.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    // The first answer wins: a promise settles once, so a later `close` after a timeout changes nothing.
    const finish = (result: CommandResult) => {
      clearTimeout(timer);
      resolve(result);
    };
    // spawn itself leaves out the variables whose value is undefined.
    const { env } = options;
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ kind: 'timeout' });
    }, options.timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish(error.code === 'ENOENT' ? { kind: 'missing' } : { kind: 'failed', code: null });
    });
    child.on('close', (code) => {
      finish(code === 0 ? { kind: 'ok', stdout: Buffer.concat(chunks) } : { kind: 'failed', code });
    });
    // A child that exits without reading its stdin makes the write fail with EPIPE; its exit code says why.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}
