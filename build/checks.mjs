// `npm test`'s checks: the typecheck, Biome and knip, side by side instead of one after another. Each is
// single-threaded for most of its run, so on a fresh clone of a 2-core machine (tsc 3.8 s, knip 2.5 s,
// Biome 1.5 s) they finished ~3 s sooner together (bench/README.md, "npm test").
//
// Each one's output is held and printed whole, in the order below, so the report reads as it did when they
// ran in turn. The exit code is the first failing check's; `npm run typecheck` and `npm run lint` run them
// alone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (relative) => path.join(root, 'node_modules', relative);
// Their output is a pipe here, so each would turn its colours off; a terminal still gets them.
const colour = process.stdout.isTTY === true;

const CHECKS = [
  { name: 'tsc', script: bin('typescript/bin/tsc'), args: ['--noEmit', ...(colour ? ['--pretty'] : [])] },
  {
    name: 'biome',
    script: bin('@biomejs/biome/bin/biome'),
    args: ['check', '--error-on-warnings', ...(colour ? ['--colors=force'] : []), '.'],
  },
  { name: 'knip', script: bin('knip/bin/knip.js'), args: ['--cache'] },
];

/** Runs one check to its end: its exit code (1 for a signal or a failure to start) and all it wrote. */
function runCheck({ name, script, args }) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      env: colour ? { ...process.env, FORCE_COLOR: '1' } : process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => {
      resolve({ code: 1, output: Buffer.concat([...chunks, Buffer.from(`${name}: ${error.message}\n`)]) });
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks) }));
  });
}

const results = await Promise.all(CHECKS.map(runCheck));
for (const { output } of results) process.stdout.write(output);
const failed = results.find(({ code }) => code !== 0);
process.exitCode = failed ? failed.code : 0;
