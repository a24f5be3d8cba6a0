/**
 * `npm run bench:sea` (after `npm run build:sea`): the single executable (docs/single-executable.md) against
 * the npm install on the same Node 26, in start-up: `--version` and a fresh-snapshot `statusline`, each as a
 * ratio to that Node's `node -e 0` in the same run, and the executable's size. Prints; asserts nothing. Talks
 * only to the fake cursor.com on 127.0.0.1, and removes its temp dirs whatever happens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { installNode, nodeBinary } from '../scripts/lib/node-dist.js';
import type { FakeCursor } from '../test/fake-cursor/server.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { type ChildRun, expectSuccess, runCommand } from './lib/child.js';
import { cliEnv, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { ms, repoRoot } from './lib/measure.js';
import { pairedRuns } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const RUNS = 25;
const EXECUTABLE = path.join(
  repoRoot,
  'dist-sea',
  process.platform === 'win32' ? 'codexbar.exe' : 'codexbar',
);
/** Long enough that the snapshot stays fresh for the whole benchmark. */
const FRESH = ['statusline', '--max-age', '1h'];

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  if (!fs.existsSync(EXECUTABLE))
    throw new Error(`${EXECUTABLE} is missing: run \`npm run build:sea\` first`);
  const node = nodeBinary(installNode(path.join(repoRoot, '.test-node'), '26', console.log));
  const bin = snapshotBuild();
  const token = await makeToken('user_bench_sea');
  const fake = await startFakeCursor({ accounts: [proAccount([token.cookieValue])] });
  fakeRef.fake = fake;
  const home = makeTempDir('codexbar-bench-sea-');
  writeAppToken(home, token.jwt);
  const env = cliEnv(home, fake.url);
  const npm = (args: string[]) => runCommand(node, [bin, ...args], { env });
  const sea = (args: string[]) => runCommand(EXECUTABLE, args, { env });
  // One live run saves the snapshot both read; the npm install's compile cache is written by the warm-ups.
  expectSuccess(await npm(['statusline']), 'live statusline');
  const version = (await runCommand(node, ['--version'], { env })).stdout.trim();
  console.log(
    `codexbar single-executable benchmark: ${RUNS} pairs after one warm-up each, Node ${version}\n`,
  );

  const timed = (run: (args: string[]) => Promise<ChildRun>, args: string[], starts: string) => async () => {
    const result = expectSuccess(await run(args), args.join(' '));
    if (!result.stdout.startsWith(starts))
      throw new Error(`${args.join(' ')}: unexpected output ${result.stdout}`);
    return result.ms;
  };
  const bare = async () => expectSuccess(await runCommand(node, ['-e', '0'], { env }), 'node -e 0').ms;
  const rows: TargetRow[] = [];
  for (const [what, args, starts] of [
    ['--version', ['--version'], 'codexbar '],
    ['statusline (fresh snapshot)', FRESH, 'Cursor '],
  ] as const) {
    const viaNpm = await pairedRuns(RUNS, bare, timed(npm, [...args], starts));
    const viaSea = await pairedRuns(RUNS, bare, timed(sea, [...args], starts));
    const npmRatio = viaNpm.b.median / viaNpm.a.median;
    const seaRatio = viaSea.b.median / viaSea.a.median;
    console.log(
      `${what}: npm install ${ms(viaNpm.b.median)} (${npmRatio.toFixed(2)}× of node -e 0 ${ms(viaNpm.a.median)})`,
    );
    console.log(
      `${what}: executable  ${ms(viaSea.b.median)} (${seaRatio.toFixed(2)}× of node -e 0 ${ms(viaSea.a.median)})`,
    );
    rows.push(
      {
        figure: `${what}, npm install on Node 26 / node -e 0`,
        value: `${npmRatio.toFixed(2)}×`,
        target: '(for comparison)',
      },
      { figure: `${what}, executable / node -e 0`, value: `${seaRatio.toFixed(2)}×`, target: '(measured)' },
    );
  }
  const mib = fs.statSync(EXECUTABLE).size / 1024 / 1024;
  rows.push({ figure: 'executable size', value: `${mib.toFixed(1)} MiB`, target: '(measured)' });
  printSummary('codexbar single executable: summary', rows);
}

await runBench(main);
