/**
 * The BUILT `codexbar serve` as a child process, for the tests that need the process itself (signals,
 * the bundled page in a real browser) and for bench/serve.ts. Resolves once the banner is on stderr.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

export interface ServeProcess {
  child: ChildProcess;
  /** The port from the banner. */
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * `nodeArgs` go before the script; `ipc` opens a message channel to the child (bench/serve.ts reads memory);
 * `executable` says `bin` is the single executable (dist-sea/codexbar), run without node.
 */
export async function spawnServe(
  bin: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { nodeArgs?: readonly string[]; ipc?: boolean; executable?: boolean } = {},
): Promise<ServeProcess> {
  const argv = options.executable
    ? [bin, 'serve', ...args]
    : [process.execPath, ...(options.nodeArgs ?? []), bin, 'serve', ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    env,
    stdio: options.ipc ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe'],
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

/** A port nothing listens on right now (serve's --port must be 1–65535, so tests cannot pass 0). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
