/**
 * What every codexbar process does first, for the npm install's bin/codexbar.js and the single executable's
 * entry (src/boot/sea.ts) alike: `--version` without loading a bundle, `statusline` through its small fast
 * path first, then the CLI. Each caller says how its bundles load: bin/codexbar.js from dist/ through the
 * compile cache, the executable from what it carries (docs/single-executable.md).
 */

export interface Launcher {
  version(): string;
  fastPath(): Promise<{ fastStatusline(argv: string[]): Promise<number | undefined> }>;
  cli(): Promise<{ run(argv: string[]): Promise<number> }>;
}

export function launch(argv: string[], launcher: Launcher): void {
  // --version skips loading the bundles, so `codexbar --version` starts about as fast as bare node.
  if (argv.includes('--version') || argv.includes('-V')) {
    handleWriteErrors();
    process.stdout.write(`codexbar ${launcher.version()}\n`);
    return;
  }
  main(argv, launcher).catch((error: unknown) => {
    process.exitCode = 1;
    throw error;
  });
}

async function main(argv: string[], launcher: Launcher): Promise<void> {
  // `statusline` runs in prompts: a small bundle answers from the cache without loading the CLI (it writes
  // with its own EPIPE handling), and says (undefined) when the full CLI must take over.
  if (argv[0] === 'statusline') {
    const code = await (await launcher.fastPath()).fastStatusline(argv);
    if (code !== undefined) {
      process.exitCode = code;
      return;
    }
  }
  handleWriteErrors();
  // undici parses HTTP with a WebAssembly module. V8 recompiles it in the background with its optimising
  // tier, and a process cannot exit until that compile finishes: ~150 ms added to every short run. The
  // baseline tier parses our few requests just as well. Node 22 and later no longer honour --liftoff-only
  // set at run time (~80 ms back on Node 24), but they do read the tier-up budget, which this makes too
  // large to ever reach. The servers (`serve`, `proxy`) run until stopped, so their exit time is no cost,
  // and they parse every request and answer with it: they keep V8's default tiering (bench/README.md, proxy).
  if (argv[0] !== 'serve' && argv[0] !== 'proxy') {
    const v8 = process.getBuiltinModule('node:v8');
    v8.setFlagsFromString('--liftoff-only');
    v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
  }
  process.exitCode = await (await launcher.cli()).run(argv);
}

/**
 * `codexbar … | head` closes the pipe early: stop quietly on EPIPE. Any other write error (a full disk,
 * `> /dev/full`) is one line on stderr and exit 1, never a stack trace. Not for the statusline fast path,
 * which writes without these streams and handles both itself.
 */
function handleWriteErrors(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (stream !== process.stderr) {
        try {
          process.stderr.write(`Error: cannot write output: ${error.code ?? error.message}\n`);
        } catch {}
      }
      process.exit(1);
    });
  }
}
