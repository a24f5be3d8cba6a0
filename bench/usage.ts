/**
 * `npm run bench:usage`: start-up and critical-path figures of `codexbar usage` (bench/README.md). Prints medians and whether each target was met; asserts nothing. Talks only to the fake cursor.com
 * on 127.0.0.1, and removes its temp dirs and stops the server whatever happens.
 */
import { readAppAccessToken } from '../src/auth/app-db.js';
import type { FakeAccount, FakeCursor } from '../test/fake-cursor/server.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { expectSuccess, runNode } from './lib/child.js';
import { cliEnv, jsonRow, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { ensureLargeVscdb, largeDbToken, sidecarsOf } from './lib/large-vscdb.js';
import { ms } from './lib/measure.js';
import { medianRuns, type Paired, pairedRuns, spread } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';
import { countWaves, describeWaves, type Exchange, timedAccount, type WaveReport } from './lib/waves.js';

const RUNS = 11;
/** Pairs for the start-up figure: it is small against the noise, so it gets more samples. */
const STARTUP_RUNS = 21;
const STARTUP_BUDGET_MS = 150;
/** `npm run bench:usage -- --startup`: only the start-up figures (for other Node versions, see README). */
const STARTUP_ONLY = process.argv.includes('--startup');
const LATENCY_MS = 50;
const SIZE_GB = 1;
const READER_BUDGET_MS = 50;

const rows: TargetRow[] = [];
const exchanges: Exchange[] = [];
let latencyMs = 0;
/** bin/codexbar.js of a private copy of the build (snapshotBuild). */
let cli = '';

// --- Accounts -----------------------------------------------------------------------------------------

const TEAM_EMAIL = 'dev@acme.com';
const TEAM_SPEND = { overallSpendCents: 8421, effectivePerUserLimitDollars: 150 };
const TEAM_PERCENT = (TEAM_SPEND.overallSpendCents / (TEAM_SPEND.effectivePerUserLimitDollars * 100)) * 100;
const PAGE_ROWS = [50, 50, 20];

/** 120 seats over pages of 50/50/20; the signed-in member is row 17 of page 2. */
function teamSpendPage(page: number) {
  const count = PAGE_ROWS[page - 1] ?? 0;
  const teamMemberSpend = Array.from({ length: count }, (_, i) =>
    page === 2 && i === 17
      ? { email: 'Dev@Acme.com', name: 'Dev', role: 'member', ...TEAM_SPEND }
      : {
          email: `colleague${(page - 1) * 50 + i}@acme.com`,
          role: 'member',
          overallSpendCents: 5000 + i,
          monthlyLimitDollars: 200,
        },
  );
  return { teamMemberSpend, totalMembers: 120, totalPages: PAGE_ROWS.length };
}

function teamAccount(cookie: string): FakeAccount {
  return proAccount([cookie], TEAM_EMAIL, {
    usageSummary: {
      json: {
        billingCycleStart: '2026-11-05T00:00:00.000Z',
        billingCycleEnd: '2026-12-05T00:00:00.000Z',
        membershipType: 'enterprise',
        limitType: 'team',
        individualUsage: { overall: { used: 7384, limit: 10000 }, onDemand: { used: 500, limit: 2000 } },
      },
    },
    teams: { json: { teams: [{ id: 4211, name: 'Acme', role: 'member', seats: 120, hasBilling: true }] } },
    teamSpend: (req) => ({ json: teamSpendPage(Number((req.body as { page?: unknown }).page)) }),
  });
}

// --- Scenarios ----------------------------------------------------------------------------------------

interface ScenarioResult {
  runs: Paired;
  waves: WaveReport;
  row: Record<string, unknown>;
}

/**
 * `codexbar usage --json` at 0 ms and at LATENCY_MS per request, alternated so load drift hits both, with
 * the request waves of every latency run.
 */
async function scenario(env: NodeJS.ProcessEnv, what: string): Promise<ScenarioResult> {
  let row: Record<string, unknown> = {};
  const waveRuns: WaveReport[] = [];
  const runAt = (latency: number) => async () => {
    latencyMs = latency;
    exchanges.length = 0;
    const run = expectSuccess(await runNode([cli, 'usage', '--json'], { env }), what);
    row = jsonRow(run.stdout, what);
    if (latency > 0) waveRuns.push(countWaves(exchanges));
    return run.ms;
  };
  const runs = await pairedRuns(RUNS, runAt(0), runAt(LATENCY_MS));
  latencyMs = 0;
  // The worst run is the honest figure: one extra wave in any run is a real sequential dependency.
  const waves = waveRuns.reduce((worst, run) => (run.waves > worst.waves ? run : worst));
  console.log(`  usage --json, 0 ms latency:  ${ms(runs.a.median)} (${spread(runs.a.samples)})`);
  console.log(`  usage --json, ${LATENCY_MS} ms latency: ${ms(runs.b.median)} (${spread(runs.b.samples)})`);
  console.log(`  waves (worst of ${waveRuns.length} runs): ${describeWaves(waves)}`);
  return { runs, waves, row };
}

function criticalPathRows(name: string, result: ScenarioResult, maxTrips: number, node: number): void {
  const { a: zero, b: slow, difference } = result.runs;
  // Median of the paired differences: the same (t50 − t0) / 50, but robust to load drift.
  const derived = difference.median / LATENCY_MS;
  const noisy = difference.iqr > LATENCY_MS;
  const budget = node + (maxTrips + 1) * LATENCY_MS;
  console.log(
    `  critical path: derived ${derived.toFixed(2)} RT (paired t50 − t0: median ${ms(difference.median)}, ` +
      `IQR ${ms(difference.iqr)}), measured ${result.waves.waves} waves`,
  );
  rows.push(
    { figure: `${name}: t0`, value: ms(zero.median), target: '(start-up + processing)' },
    {
      figure: `${name}: round trips, (t50 − t0) / 50`,
      value: `${derived.toFixed(2)}${noisy ? ` (IQR ${ms(difference.iqr)})` : ''}`,
      target: `≤ ${maxTrips}`,
      met: noisy ? 'noisy' : derived <= maxTrips,
    },
    {
      figure: `${name}: round trips, request waves`,
      value: String(result.waves.waves),
      target: `≤ ${maxTrips}`,
      met: result.waves.waves <= maxTrips,
    },
    {
      figure: `${name}: t50`,
      value: ms(slow.median),
      target: `≤ node -e 0 + ${maxTrips + 1} × 50 ms = ${ms(budget)}`,
      met: slow.median <= budget,
    },
  );
}

// --- Start-up -----------------------------------------------------------------------------------------

/**
 * Zero-latency `usage --json` minus `node -e 0`, paired so load drifting during the run hits both sides
 * (bench/README.md, Start-up), once with `TZ=UTC` and once in the machine's own zone (TZ unset), which a real
 * user's run pays for: `TZ=UTC` is answered without Intl, and the first Intl date formatter costs ~25–30 ms of
 * ICU set-up. Also the compile cache's share: the same run with NODE_DISABLE_COMPILE_CACHE=1, paired against
 * the default (cache on and warm).
 */
async function startupRows(env: NodeJS.ProcessEnv, bareEnv: NodeJS.ProcessEnv): Promise<void> {
  latencyMs = 0;
  const usageJson = (extra: NodeJS.ProcessEnv) => async () => {
    const runEnv = { ...env, ...extra };
    for (const [name, value] of Object.entries(extra)) if (value === undefined) delete runEnv[name];
    const run = expectSuccess(await runNode([cli, 'usage', '--json'], { env: runEnv }), 'usage');
    jsonRow(run.stdout, 'usage');
    return run.ms;
  };
  const bare = async () => expectSuccess(await runNode(['-e', '0'], { env: bareEnv }), 'node').ms;
  const machineZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const [zone, extra] of [
    ['TZ=UTC', {}],
    [`TZ unset: the machine's zone, ${machineZone}`, { TZ: undefined }],
  ] as const) {
    const paired = await pairedRuns(STARTUP_RUNS, bare, usageJson(extra));
    const over = paired.difference.median;
    console.log(
      `\n(s) ${zone}: usage --json at 0 ms latency: ${ms(paired.b.median)}; node -e 0: ${ms(paired.a.median)}; ` +
        `paired difference: median ${ms(over)}, IQR ${ms(paired.difference.iqr)}`,
    );
    rows.push({
      figure: `zero-latency usage --json − node -e 0 (${zone})`,
      value: ms(over),
      target: `≤ ${STARTUP_BUDGET_MS} ms`,
      met: over <= STARTUP_BUDGET_MS,
    });
  }
  const cache = await pairedRuns(STARTUP_RUNS, usageJson({ NODE_DISABLE_COMPILE_CACHE: '1' }), usageJson({}));
  console.log(
    `(s) compile cache off: ${ms(cache.a.median)}, on: ${ms(cache.b.median)}; paired on − off: median ` +
      `${ms(cache.difference.median)}, IQR ${ms(cache.difference.iqr)}`,
  );
  rows.push({
    figure: 'compile cache: on − off (usage --json)',
    value: `${ms(cache.difference.median)} (IQR ${ms(cache.difference.iqr)})`,
    target: '< 0 (it helps)',
    met: cache.difference.iqr > Math.abs(cache.difference.median) ? 'noisy' : cache.difference.median < 0,
  });
}

// --- Main ---------------------------------------------------------------------------------------------

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  cli = snapshotBuild();
  const bareEnv = { PATH: process.env.PATH ?? '' };
  console.log(
    `codexbar usage benchmark: medians of ${RUNS} runs after one warm-up (node ${process.version})\n`,
  );

  const node = await medianRuns(
    RUNS,
    async () => expectSuccess(await runNode(['-e', '0'], { env: bareEnv }), 'node').ms,
  );
  console.log(`(a) node -e 0: ${ms(node.median)} (${spread(node.samples)})`);
  const version = await medianRuns(
    RUNS,
    async () => expectSuccess(await runNode([cli, '--version'], { env: bareEnv }), '--version').ms,
  );
  const ratio = version.median / node.median;
  console.log(
    `(b) codexbar --version: ${ms(version.median)} (${spread(version.samples)}), ${ratio.toFixed(2)}×`,
  );
  rows.push(
    { figure: 'node -e 0', value: ms(node.median), target: '(baseline)' },
    {
      figure: 'codexbar --version / node -e 0',
      value: `${ratio.toFixed(2)}×`,
      target: '≤ 1.5×',
      met: ratio <= 1.5,
    },
  );

  const proToken = await makeToken('user_bench_pro');
  const teamToken = await makeToken('user_bench_team');
  const largeToken = await largeDbToken();
  const accounts = [
    proAccount([proToken.cookieValue]),
    teamAccount(teamToken.cookieValue),
    proAccount([largeToken.cookieValue], 'large@example.com'),
  ].map((account) => timedAccount(account, () => latencyMs, exchanges));
  const fake = await startFakeCursor({ accounts, latencyMs: 0 });
  fakeRef.fake = fake;

  const proHome = makeTempDir('codexbar-bench-pro-');
  writeAppToken(proHome, proToken.jwt);
  const proEnv = cliEnv(proHome, fake.url);
  await startupRows(proEnv, bareEnv);
  if (STARTUP_ONLY) {
    printSummary('codexbar usage: start-up summary', rows);
    return;
  }

  console.log('\n(c) Pro account, app token in a temp HOME state.vscdb');
  const pro = await scenario(proEnv, 'pro usage');
  criticalPathRows('Pro', pro, 2, node.median);

  const teamHome = makeTempDir('codexbar-bench-team-');
  writeAppToken(teamHome, teamToken.jwt);
  console.log('\n(d) Enterprise team member, 120 seats, get-team-spend pages 50/50/20, member on page 2');
  const team = await scenario(cliEnv(teamHome, fake.url), 'team usage');
  const primary = (team.row.usage as { primary?: { usedPercent?: number } } | undefined)?.primary;
  const applied = Math.abs((primary?.usedPercent ?? -1) - TEAM_PERCENT) < 0.01;
  console.log(
    `  team budget applied (primary ${primary?.usedPercent?.toFixed(2)}%): ${applied ? 'yes' : 'NO'}`,
  );
  criticalPathRows('Team', team, 3, node.median);
  rows.push({
    figure: 'Team: member budget in the row',
    value: applied ? 'yes' : 'no',
    target: 'yes',
    met: applied,
  });

  console.log(`\n(e) ${SIZE_GB} GB state.vscdb (ItemTable + large cursorDiskKV), cached under .bench-tmp/`);
  const large = await ensureLargeVscdb(SIZE_GB, largeToken);
  if (large.generatedInMs !== undefined)
    console.log(`  generated in ${(large.generatedInMs / 1000).toFixed(1)} s`);
  console.log(`  ${large.dbPath}: ${(large.sizeBytes / 1024 ** 3).toFixed(2)} GiB`);
  const read = await medianRuns(RUNS, async () => {
    const started = performance.now();
    const result = await readAppAccessToken(large.dbPath);
    const elapsed = performance.now() - started;
    if (result.kind !== 'token' || result.token !== largeToken.jwt)
      throw new Error(`token read: ${result.kind}`);
    return elapsed;
  });
  console.log(`  readAppAccessToken in process: ${ms(read.median)} (${spread(read.samples)})`);
  const largeEnv = cliEnv(makeTempDir('codexbar-bench-large-'), fake.url, {
    XDG_CONFIG_HOME: large.configHome,
  });
  const usageRun = (env: NodeJS.ProcessEnv, what: string) => async () => {
    const run = expectSuccess(await runNode([cli, 'usage', '--json'], { env }), what);
    jsonRow(run.stdout, what);
    return run.ms;
  };
  // Alternated with the small-database Pro run, so the difference is the reader's, not the load's.
  const compared = await pairedRuns(
    RUNS,
    usageRun(proEnv, 'small-db usage'),
    usageRun(largeEnv, 'large-db usage'),
  );
  const endToEnd = compared.b;
  const overhead = compared.difference.median;
  const overheadNoisy = compared.difference.iqr > READER_BUDGET_MS;
  const leftBehind = sidecarsOf(large.dbPath);
  console.log(
    `  usage --json against it, 0 ms latency: ${ms(endToEnd.median)} (${spread(endToEnd.samples)})`,
  );
  console.log(
    `  minus the small-database Pro run (paired): median ${ms(overhead)}, IQR ${ms(compared.difference.iqr)}`,
  );
  console.log(
    `  files left next to the database: ${leftBehind.length === 0 ? 'none' : leftBehind.join(', ')}`,
  );
  rows.push(
    {
      figure: `readAppAccessToken, ${SIZE_GB} GB db`,
      value: ms(read.median),
      target: `< ${READER_BUDGET_MS} ms`,
      met: read.median < READER_BUDGET_MS,
    },
    { figure: `usage --json, ${SIZE_GB} GB db`, value: ms(endToEnd.median), target: '(end to end)' },
    {
      figure: `${SIZE_GB} GB db run − small db run`,
      value: `${ms(overhead)}${overheadNoisy ? ` (IQR ${ms(compared.difference.iqr)})` : ''}`,
      target: `< ${READER_BUDGET_MS} ms (reader budget)`,
      met: overheadNoisy ? 'noisy' : overhead < READER_BUDGET_MS,
    },
    {
      figure: 'sidecars left by the CLI',
      value: String(leftBehind.length),
      target: '0',
      met: leftBehind.length === 0,
    },
  );

  printSummary('codexbar usage: summary', rows);
}

await runBench(main);
