// `npm test`'s checks: the typecheck, Biome and knip, side by side instead of one after another. On a fresh
// clone of this 2-core machine the part of `npm test` before vitest went from ~8.9 s to ~7.8 s (bench/README.md,
// "npm test", "The checks side by side").
//
// Each one's output is held and printed whole, to the stream it was written to, in the order below, so the
// report reads as it did when they ran in turn. The exit code is the first failing check's; `npm run
// typecheck` and `npm run lint` run them alone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (relative) => path.join(root, 'node_modules', relative);
// Their output is a pipe here, so each would turn its colours off; a terminal still gets them.
const colour = process.stdout.isTTY === true;

const CHECKS = [
  // One checker thread: alone on two cores it takes the same time as tsc's default of several, and ~3 s
  // less CPU, which here would come out of Biome's and knip's share.
  {
    name: 'tsc',
    script: bin('typescript/bin/tsc'),
    args: ['--noEmit', '--singleThreaded', ...(colour ? ['--pretty'] : [])],
  },
  {
    name: 'biome',
    script: bin('@biomejs/biome/bin/biome'),
    args: ['check', '--error-on-warnings', ...(colour ? ['--colors=force'] : []), '.'],
  },
  { name: 'knip', script: bin('knip/bin/knip.js'), args: ['--cache'] },
];

/** Runs one check to its end: its exit code (1 for a signal or a failure to start) and what it wrote where. */
function runCheck({ name, script, args }) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      env: colour ? { ...process.env, FORCE_COLOR: '1' } : process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => output.push([process.stdout, chunk]));
    child.stderr.on('data', (chunk) => output.push([process.stderr, chunk]));
    child.on('error', (error) => {
      output.push([process.stderr, `${name}: ${error.message}\n`]);
      resolve({ code: 1, output });
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const results = await Promise.all(CHECKS.map(runCheck));
for (const { output } of results) for (const [stream, chunk] of output) stream.write(chunk);
const failed = results.find(({ code }) => code !== 0);
process.exitCode = failed ? failed.code : 0;
