#!/usr/bin/env node
// --version skips loading the bundle, so `codexbar --version` starts about as fast as bare node.
const argv = process.argv.slice(2);
if (argv.includes('--version') || argv.includes('-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`codexbar ${pkg.version}\n`);
} else {
  const { run } = await import('../dist/cli.js');
  process.exitCode = await run(argv);
}
