#!/usr/bin/env node
// --version skips loading the bundle, so `codexbar --version` starts about as fast as bare node.
const argv = process.argv.slice(2);
// `codexbar … | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}
if (argv.includes('--version') || argv.includes('-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`codexbar ${pkg.version}\n`);
} else {
  // Node >= 22.1 keeps the compiled bundle in codexbar's cache dir, so later runs skip compiling it
  // (docs/behaviour.md §26.10). NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
  const { enableCompileCache } = await import('node:module');
  if (typeof enableCompileCache === 'function') {
    const dir = (await import('../dist/compile-cache.js')).compileCacheDir();
    if (dir !== undefined) enableCompileCache(dir);
  }
  // `statusline` runs in prompts: a small bundle answers from the cache without loading the CLI, and says
  // (undefined) when the full CLI must take over (docs/behaviour.md §26.7).
  let code;
  if (argv[0] === 'statusline') code = await (await import('../dist/statusline.js')).fastStatusline(argv);
  if (code === undefined) {
    // undici parses HTTP with a WebAssembly module. V8 recompiles it in the background with its
    // optimising tier, and a process cannot exit until that compile finishes: ~150 ms added to every
    // short run. The baseline tier parses our few requests just as well.
    const v8 = await import('node:v8');
    v8.setFlagsFromString('--liftoff-only');
    const { run } = await import('../dist/cli.js');
    code = await run(argv);
  }
  process.exitCode = code;
}
