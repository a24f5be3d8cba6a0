#!/usr/bin/env node
// --version skips loading the bundle, so `codexbar --version` starts about as fast as bare node.
const argv = process.argv.slice(2);
// `codexbar … | head` closes the pipe early: stop quietly on EPIPE. Any other write error (a full disk,
// `> /dev/full`) is one line on stderr and exit 1, never a stack trace (docs/behaviour.md §3.1).
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
if (argv.includes('--version') || argv.includes('-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`codexbar ${pkg.version}\n`);
} else {
  // undici parses HTTP with a WebAssembly module. V8 recompiles it in the background with its optimising
  // tier, and a process cannot exit until that compile finishes: ~150 ms added to every short run.
  // The baseline tier parses our few requests just as well.
  const v8 = await import('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  const { run } = await import('../dist/cli.js');
  process.exitCode = await run(argv);
}
