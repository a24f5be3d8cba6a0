/**
 * The BUILT `codexbar serve` as a child process, for the tests that need the process itself (signals,
 * the bundled page in a real browser) and for bench/serve.ts. Resolves once the banner is on stderr.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface ServeProcess {
  child: ChildProcess;
  /** The port from the banner. */
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export async function spawnServe(
  bin: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on http:\/\/[\d.]+:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(({ code }) =>
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`)),
    );
  });
  return { child, port, exited, stderr: () => stderr };
}
