/**
 * `npm run bench:engines`: `usage --json` with its session from a Firefox cookie database, by SQLite engine
 * (docs/invariants.md, "SQLite engines"): the install with better-sqlite3 against one without the addon, each
 * as a ratio to `node -e 0` in the same run. Without the addon the running Node decides: node:sqlite on
 * 22.13 and later (`npm run test:node -- 26 bench/engines.ts`), codexbar's page reader on Node 20 (no engine).
 * Prints; asserts nothing. Talks only to the fake cursor.com on 127.0.0.1.
 */
import { createFirefoxCookies } from '../fixtures/builders/browser-db.js';
import { firefoxRoot, writeFirefoxProfiles } from '../fixtures/builders/browser-tree.js';
import type { FakeCursor } from '../test/fake-cursor/server.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken } from '../test/helpers/home.js';
import { expectSuccess, runNode } from './lib/child.js';
import { cliEnv, jsonRow, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { ms } from './lib/measure.js';
import { pairedRuns } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const RUNS = 20;

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  const token = await makeToken('user_bench_engines');
  const fake = await startFakeCursor({ accounts: [proAccount([token.cookieValue])] });
  fakeRef.fake = fake;
  const home = makeTempDir('codexbar-bench-engines-');
  const dbs = writeFirefoxProfiles(firefoxRoot(home, 'linux'), 'linux', [
    { name: 'default-release', folder: 'x.default-release' },
  ]);
  const created = new Date(Date.now() - 86_400_000);
  const expires = new Date(Date.now() + 30 * 86_400_000);
  // A profile's worth of other sites' cookies around cursor.com's, as a real cookies.sqlite has.
  const others = Array.from({ length: 2000 }, (_, i) => ({
    name: `c${i}`,
    value: 'x'.repeat(40),
    host: `site${i % 300}.example`,
    created,
    expires,
  }));
  createFirefoxCookies(dbs['default-release']!, [
    ...others,
    { name: 'WorkosCursorSessionToken', value: token.cookieValue, created, expires },
  ]);
  const env = cliEnv(home, fake.url);
  const installs = {
    'better-sqlite3': snapshotBuild(),
    'without the addon': snapshotBuild({ withoutAddon: true }),
  };

  console.log(
    `codexbar usage --json by SQLite engine: ${RUNS} pairs after one warm-up each (node ${process.version})\n`,
  );
  const bare = async () => expectSuccess(await runNode(['-e', '0'], { env }), 'node -e 0').ms;
  const rows: TargetRow[] = [];
  for (const [what, bin] of Object.entries(installs)) {
    const doctor = expectSuccess(await runNode([bin, 'doctor', '--json'], { env }), 'doctor');
    const engine = (JSON.parse(doctor.stdout) as { sqlite: { engine: string } }).sqlite.engine;
    const usage = async () => {
      const run = expectSuccess(await runNode([bin, 'usage', '--json'], { env }), `usage (${what})`);
      if (jsonRow(run.stdout, what).provider !== 'cursor') throw new Error(`${what}: no usage row`);
      return run.ms;
    };
    const paired = await pairedRuns(RUNS, bare, usage);
    const ratio = paired.b.median / paired.a.median;
    const label = engine === 'none' ? 'no engine (page reader)' : engine;
    console.log(
      `${what} (${label}): ${ms(paired.b.median)}, ${ratio.toFixed(2)}× of node -e 0 ${ms(paired.a.median)}`,
    );
    rows.push({
      figure: `usage --json, ${label} / node -e 0`,
      value: `${ratio.toFixed(2)}×`,
      target: '(measured)',
    });
  }
  printSummary(`codexbar usage by SQLite engine (node ${process.version})`, rows);
}

await runBench(main);
