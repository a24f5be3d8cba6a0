/**
 * `npm run bench:doors`: `codexbar usage --json` through each door (bench/README.md): the web door
 * (cursor.com's usage-summary and its best-effort lookups, with the cookie) and the rpc door (`--source rpc`:
 * api2's GetCurrentPeriodUsage with GetPlanInfo and GetHardLimit, with the Bearer token), for one account the
 * fake serves through both, at 0 ms and 50 ms per request. Prints requests made and wall time, as medians and
 * as ratios against `node -e 0` in the same run; asserts nothing. Talks only to the fake on 127.0.0.1.
 */

import { bothDoors } from '../test/fake-cursor/api2-usage.js';
import type { FakeCursor } from '../test/fake-cursor/server.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { expectSuccess, runNode } from './lib/child.js';
import { cliEnv, jsonRow, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { ms } from './lib/measure.js';
import { medianRuns, spread } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const RUNS = 11;
const LATENCIES = [0, 50] as const;

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  const cli = snapshotBuild();
  const bareEnv = { PATH: process.env.PATH ?? '' };
  console.log(
    `codexbar door benchmark: medians of ${RUNS} runs after one warm-up (node ${process.version})\n`,
  );
  const token = await makeToken('user_bench_doors', { email: 'dev@example.com' });
  const fake = await startFakeCursor({ accounts: [bothDoors([token.cookieValue], [token.jwt])] });
  fakeRef.fake = fake;
  const home = makeTempDir('codexbar-bench-doors-');
  writeAppToken(home, token.jwt);
  const env = cliEnv(home, fake.url, { CODEXBAR_CURSOR_API2_BASE_URL: fake.url });

  const rows: TargetRow[] = [];
  const node = await medianRuns(
    RUNS,
    async () => expectSuccess(await runNode(['-e', '0'], { env: bareEnv }), 'node').ms,
  );
  console.log(`node -e 0: ${ms(node.median)} (${spread(node.samples)})`);
  rows.push({ figure: 'node -e 0', value: ms(node.median), target: '(baseline)' });

  const doors = [
    // The app token is a Bearer source, so `--source web` skips it: `auto` reads cursor.com first.
    { name: 'web', args: ['usage', '--json'] },
    { name: 'rpc', args: ['usage', '--json', '--source', 'rpc'] },
  ];
  for (const latency of LATENCIES) {
    fake.setLatency(latency);
    for (const door of doors) {
      let requests = 0;
      const samples = await medianRuns(RUNS, async () => {
        const before = fake.requests.length;
        const run = expectSuccess(await runNode([cli, ...door.args], { env }), door.name);
        const row = jsonRow(run.stdout, door.name);
        if (row.source !== door.name)
          throw new Error(`${door.name}: the row says source ${String(row.source)}`);
        requests = fake.requests.length - before;
        return run.ms;
      });
      const ratio = samples.median / node.median;
      console.log(
        `${door.name} door, ${latency} ms: ${ms(samples.median)} (${spread(samples.samples)}), ` +
          `${ratio.toFixed(2)}× node -e 0, ${requests} requests`,
      );
      rows.push({
        figure: `${door.name} door at ${latency} ms: wall (× node -e 0), requests`,
        value: `${ms(samples.median)} (${ratio.toFixed(2)}×), ${requests}`,
        target: '(figure)',
      });
    }
  }
  printSummary('codexbar usage: the two doors', rows);
}

await runBench(main);
