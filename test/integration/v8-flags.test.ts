/**
 * The V8 flags the launcher (src/boot/launch.ts, for bin/codexbar.js and the single executable) sets at run time keep undici's WebAssembly HTTP parser on V8's baseline tier:
 * a process cannot exit while its optimising compile runs, ~150 ms of every network run (bench/README.md).
 * Node 22 stopped honouring `--liftoff-only` set at run time, and a Node upgrade can drop the tier-up budget
 * too, silently. So this runs the flags as the launcher sets them, in a child of the Node under test, on a
 * small WebAssembly function called a million times (more work than a run's few HTTP answers): it must stay
 * on the baseline tier. The same work without the flags must tier up, so the check can see the difference.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const BIN_FLAGS = [
  ...fs
    .readFileSync(path.join(repoRoot, 'src', 'boot', 'launch.ts'), 'utf8')
    .matchAll(/v8\.setFlagsFromString\('([^']+)'\)/g),
].map((match) => match[1]!);

/**
 * Sets the flags, then calls a one-instruction WebAssembly function (i32 + 1) a million times and says
 * whether V8 has optimised it. Node 22 and later can tier up synchronously (`--wasm-sync-tier-up`, set at
 * start-up), so the answer is final at once; Node 20 cannot, so it waits up to `waitMs` for the background
 * compile.
 */
const CHILD = `
const [flags, waitMs] = JSON.parse(process.argv[1]);
const v8 = require('node:v8');
for (const flag of flags) v8.setFlagsFromString(flag);
const bytes = new Uint8Array([0,97,115,109,1,0,0,0,1,6,1,96,1,127,1,127,3,2,1,0,7,5,1,1,102,0,0,10,9,1,7,0,32,0,65,1,106,11]);
const { f } = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports;
let x = 0;
for (let i = 0; i < 1e6; i++) x = f(x);
const deadline = Date.now() + waitMs;
(function answer() {
  if (%IsTurboFanFunction(f) || Date.now() >= deadline) console.log(JSON.stringify({ optimised: %IsTurboFanFunction(f), x }));
  else setTimeout(answer, 5);
})();
`;

const syncTierUp = spawnSync(process.execPath, ['--wasm-sync-tier-up', '-e', '0']).status === 0;

function optimisedAfterWork(flags: readonly string[], waitMs: number): boolean {
  const startUp = ['--allow-natives-syntax', ...(syncTierUp ? ['--wasm-sync-tier-up'] : [])];
  const child = spawnSync(process.execPath, [...startUp, '-e', CHILD, JSON.stringify([flags, waitMs])], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr, 'V8 refused a flag').toBe('');
  const answer = JSON.parse(child.stdout) as { optimised: boolean; x: number };
  expect(answer.x).toBe(1e6);
  return answer.optimised;
}

describe(`the V8 flags of the launcher on Node ${process.versions.node}`, () => {
  it('are there: src/boot/launch.ts sets them', () => {
    expect(BIN_FLAGS.length).toBeGreaterThan(0);
  });

  it('without them, a million calls of a WebAssembly function optimise it', () => {
    expect(optimisedAfterWork([], 20_000)).toBe(true);
  });

  it('set at run time as the launcher sets them, the same work leaves it on the baseline tier', () => {
    expect(optimisedAfterWork(BIN_FLAGS, syncTierUp ? 0 : 300)).toBe(false);
  });
});
