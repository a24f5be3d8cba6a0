#!/usr/bin/env node
// CommonJS (bin/package.json), like the bundles it loads: nothing here starts Node's ES module loader, which
// costs every short run several milliseconds (bench/README.md, Start-up).
'use strict';

const argv = process.argv.slice(2);

// `codexbar … | head` closes the pipe early: stop quietly on EPIPE. Any other write error (a full disk,
// `> /dev/full`) is one line on stderr and exit 1, never a stack trace. Not for the statusline fast path,
// which writes without these streams and handles both itself.
function handleWriteErrors() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
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

async function main() {
  // V8's code cache for the bundles in codexbar's cache dir, so later runs skip compiling them
  // (bench/README.md, Start-up). NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
  const { compileCacheDir, requireBundle } = require('../dist/compile-cache.cjs');
  const dir = compileCacheDir();
  const load = (file) => requireBundle(require.resolve(file), dir, require);
  // `statusline` runs in prompts: a small bundle answers from the cache without loading the CLI (it writes
  // with its own EPIPE handling), and says (undefined) when the full CLI must take over.
  if (argv[0] === 'statusline') {
    const code = await load('../dist/statusline.cjs').fastStatusline(argv);
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
    const v8 = require('node:v8');
    v8.setFlagsFromString('--liftoff-only');
    v8.setFlagsFromString('--wasm-tiering-budget=1000000000');
  }
  const { run } = load('../dist/cli.cjs');
  process.exitCode = await run(argv);
}

// --version skips loading the bundle, so `codexbar --version` starts about as fast as bare node.
if (argv.includes('--version') || argv.includes('-V')) {
  handleWriteErrors();
  const pkg = JSON.parse(
    require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8'),
  );
  process.stdout.write(`codexbar ${pkg.version}\n`);
} else {
  main().catch((error) => {
    process.exitCode = 1;
    throw error;
  });
}
