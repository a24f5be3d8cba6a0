/**
 * `npm run bench:statusline`: how close a fresh-cache `codexbar statusline` comes to bare `node -e 0`. Prints
 * medians and whether the target was met; asserts nothing. Talks only to the fake cursor.com on 127.0.0.1,
 * and removes its temp dirs and stops the server whatever happens.
 */
import type { FakeCursor } from '../test/fake-cursor/server.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { fakeFor, makeTokenAccounts, writeTokenAccountsConfig } from '../test/helpers/token-accounts.js';
import { expectSuccess, runNode } from './lib/child.js';
import { cliEnv, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { ms } from './lib/measure.js';
import { pairedRuns, spread } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const RUNS = 25;
const TARGET_RATIO = 1.3;
/** Long enough that the snapshot stays fresh for the whole benchmark. */
const FRESH = ['statusline', '--max-age', '1h'];

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  const cli = snapshotBuild();
  console.log(
    `codexbar statusline benchmark: ${RUNS} pairs after one warm-up each (node ${process.version})\n`,
  );
  const token = await makeToken('user_bench_statusline');
  const tokenAccounts = await makeTokenAccounts(['work', 'personal']);
  const fake = await startFakeCursor({
    accounts: [proAccount([token.cookieValue]), ...tokenAccounts.map((account) => fakeFor(account))],
  });
  fakeRef.fake = fake;
  const home = makeTempDir('codexbar-bench-statusline-');
  writeAppToken(home, token.jwt);
  const env = cliEnv(home, fake.url);
  // A second home whose config holds two token accounts, for `statusline --account work`.
  const accountsHome = makeTempDir('codexbar-bench-statusline-accounts-');
  writeTokenAccountsConfig(accountsHome, tokenAccounts);
  const accountsEnv = cliEnv(accountsHome, fake.url);

  // One live run saves the snapshot and the account record the fast path vouches with.
  const live = expectSuccess(await runNode([cli, 'statusline'], { env }), 'live statusline');
  console.log(`live run (no snapshot yet): ${live.stdout.trim()}`);
  const named = [...FRESH, '--account', 'work'];
  expectSuccess(await runNode([cli, ...named], { env: accountsEnv }), 'live statusline --account work');
  const requestsAfterLive = fake.requests.length;

  const statusline =
    (args: string[], what: string, runEnv = env, starts = 'Cursor ') =>
    async () => {
      const run = expectSuccess(await runNode([cli, ...args], { env: runEnv }), what);
      if (!run.stdout.startsWith(starts)) throw new Error(`${what}: unexpected output ${run.stdout}`);
      return run.ms;
    };
  const node = async () => expectSuccess(await runNode(['-e', '0'], { env }), 'node -e 0').ms;

  const fast = await pairedRuns(RUNS, node, statusline(FRESH, 'fresh statusline'));
  const ratio = fast.b.median / fast.a.median;
  console.log(`(a) node -e 0:                ${ms(fast.a.median)} (${spread(fast.a.samples)})`);
  console.log(`(b) statusline, fresh cache:  ${ms(fast.b.median)} (${spread(fast.b.samples)})`);
  console.log(`    ratio ${ratio.toFixed(2)}×, paired b − a: median ${ms(fast.difference.median)}`);

  // A status bar's format on the same fast path: Waybar's JSON object (issue 25).
  const waybar = await pairedRuns(
    RUNS,
    node,
    statusline([...FRESH, '--format', 'waybar'], 'statusline --format waybar', env, '{"text":"Cursor '),
  );
  const waybarRatio = waybar.b.median / waybar.a.median;
  console.log(
    `(b') statusline --format waybar, fresh cache: ${ms(waybar.b.median)}, ${waybarRatio.toFixed(2)}×, paired b − a: median ${ms(waybar.difference.median)}`,
  );

  // For comparison: the same answer through the full CLI (--verbose is a flag the fast path leaves to it).
  const full = await pairedRuns(RUNS, node, statusline([...FRESH, '--verbose'], 'full-CLI statusline'));
  console.log(
    `(c) statusline --verbose (full CLI, same cache): ${ms(full.b.median)}, ${(full.b.median / full.a.median).toFixed(2)}×`,
  );

  // An account flag is always left to the full CLI: a cached named account.
  const account = await pairedRuns(RUNS, node, statusline(named, 'statusline --account work', accountsEnv));
  const accountRatio = account.b.median / account.a.median;
  console.log(
    `(d) statusline --account work (full CLI, cached): ${ms(account.b.median)}, ${accountRatio.toFixed(2)}×, paired b − a: median ${ms(account.difference.median)}`,
  );

  const requests = fake.requests.length - requestsAfterLive;
  console.log(`requests to the fake during the cached runs: ${requests}`);
  const rows: TargetRow[] = [
    { figure: 'node -e 0', value: ms(fast.a.median), target: '(baseline)' },
    { figure: 'statusline (fresh cache)', value: ms(fast.b.median), target: '(fast path)' },
    {
      figure: 'statusline / node -e 0',
      value: `${ratio.toFixed(2)}×`,
      target: `≤ ${TARGET_RATIO}×`,
      met: ratio <= TARGET_RATIO,
    },
    {
      figure: 'statusline --format waybar / node -e 0',
      value: `${waybarRatio.toFixed(2)}× (${ms(waybar.b.median)})`,
      target: `≤ ${TARGET_RATIO}×`,
      met: waybarRatio <= TARGET_RATIO,
    },
    {
      figure: 'statusline --verbose (full CLI) / node -e 0',
      value: `${(full.b.median / full.a.median).toFixed(2)}×`,
      target: '(for comparison)',
    },
    {
      figure: 'statusline --account work (full CLI) / node -e 0',
      value: `${accountRatio.toFixed(2)}× (${ms(account.b.median)})`,
      target: '(for comparison)',
    },
    { figure: 'requests during cached runs', value: String(requests), target: '0', met: requests === 0 },
  ];
  printSummary('codexbar statusline: summary', rows);
}

await runBench(main);
