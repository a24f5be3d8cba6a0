/**
 * `npm run bench:cost`: `codexbar cost` over 150,000 generated events (150 full pages of 1,000, so the empty
 * page 151 proves completion), at 40 ms per request and at zero latency, cold (an empty event store, which the
 * run then fills) and warm (bench/README.md). Prints figures and whether each target was met; asserts
 * nothing. The machine may be shared, so CPU time (user + system of the CLI process) is reported beside wall
 * time, as medians of several runs. Talks only to the fake cursor.com on 127.0.0.1, and removes its temp dirs
 * and stops the server whatever happens.
 */
import { generateEvents } from '../test/fake-cursor/events.js';
import { type FakeCursor, startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { peakRssMethod } from './lib/child.js';
import { cliEnv, makeTempDir, runBench, snapshotBuild } from './lib/cli-env.js';
import { aggregate, decodePages, timeCollectCost } from './lib/cost-in-process.js';
import { type CostSample, costRunner, cpuOf, peakOf } from './lib/cost-runs.js';
import { pageTexts, staticEventsHandler } from './lib/events-pages.js';
import { median, ms } from './lib/measure.js';
import { medianRuns, pairedRuns, spread } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const EVENT_COUNT = 150_000;
const PAGE_SIZE = 1000;
const LATENCY_MS = 40;
const DEFAULT_CONCURRENCY = 6;
/** Pairs of (concurrency 1, default) runs at 40 ms; a concurrency-1 run alone takes 151 × 40 ms. */
const SLOW_PAIRS = 3;
const FAST_RUNS = 7;
const WARM_RUNS = 5;
const IN_PROCESS_RUNS = 10;
const DAY_MS = 86_400_000;
/** Cold CPU over 150,000 events with `--no-cache`, on Node 20 (bench/README.md). */
const CPU_TARGET_MS = 1300;

const rows: TargetRow[] = [];
const MB = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} MB`;
const cpuText = (samples: CostSample[]) => {
  const cpu = cpuOf(samples);
  return `median ${ms(median(cpu))} (${spread(cpu)})`;
};
const same = (samples: CostSample[]) =>
  samples.every((run) => JSON.stringify(run.figures) === JSON.stringify(samples[0]!.figures));

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  const cli = snapshotBuild();
  console.log(`codexbar cost benchmark (node ${process.version}, peak RSS via ${peakRssMethod()})\n`);

  const now = new Date();
  let started = performance.now();
  // 60 days ending a minute ago: all inside `--all` and `--days 90`, whose windows end at each run's "now".
  const events = generateEvents({
    count: EVENT_COUNT,
    start: new Date(now.getTime() - 60 * DAY_MS),
    end: new Date(now.getTime() - 60_000),
    seed: 150,
  });
  const recent = events.filter((event) => Number(event.timestamp) >= now.getTime() - 2 * DAY_MS).length;
  console.log(
    `generated ${EVENT_COUNT} events in ${ms(performance.now() - started)} (${recent} in the last 48 h)`,
  );

  const token = await makeToken('user_bench_cost');
  const home = makeTempDir('codexbar-bench-cost-');
  writeAppToken(home, token.jwt);
  const texts = pageTexts(events);
  const account = proAccount([token.cookieValue], 'cost@example.com', {
    events: staticEventsHandler(events, texts),
  });
  const fake = await startFakeCursor({ accounts: [account], latencyMs: LATENCY_MS });
  fakeRef.fake = fake;
  const env = cliEnv(home, fake.url);
  const runner = (label: string, args: string[], cacheDir?: string) =>
    costRunner({ cli, env, fake, args, cacheDir, label });

  // --- 40 ms per request: concurrency 1 against the default, alternated, each cold -------------------
  console.log(
    `\n${LATENCY_MS} ms per request, cold codexbar cost --json --all (${SLOW_PAIRS} pairs after a warm-up pair)`,
  );
  const sequential = runner('cost --concurrency 1', ['--all', '--concurrency', '1']);
  const concurrent = runner('cost --concurrency default', ['--all']);
  const slow = await pairedRuns(SLOW_PAIRS, sequential.sample, concurrent.sample);
  const speedUp = slow.a.median / slow.b.median;
  console.log(
    `  --concurrency 1: ${ms(slow.a.median)} (${spread(slow.a.samples)}), peak RSS ${MB(peakOf(sequential.samples))}`,
  );
  console.log(
    `  default (${DEFAULT_CONCURRENCY}):     ${ms(slow.b.median)} (${spread(slow.b.samples)}), peak RSS ${MB(peakOf(concurrent.samples))}`,
  );
  console.log(`  speed-up: ${speedUp.toFixed(2)}×`);
  const slowRuns = [...sequential.samples, ...concurrent.samples];
  const complete = slowRuns.every((run) => run.figures.events === EVENT_COUNT);
  console.log(
    `  JSON figures identical across all ${slowRuns.length} runs: ${same(slowRuns) ? 'yes' : 'NO'}`,
  );
  console.log(
    `  last events page requested: ${[...new Set(slowRuns.map((run) => run.lastPage))].join(', ')} (${EVENT_COUNT / PAGE_SIZE} full pages)`,
  );

  // --- warm --days 90 at 40 ms: the store holds all but the last 48 hours ------------------------------
  console.log(
    `\n${LATENCY_MS} ms per request, codexbar cost --json --days 90: cold, then warm (${WARM_RUNS} runs)`,
  );
  const coldDays = runner('cold cost --days 90', ['--days', '90']);
  const cold90 = await medianRuns(3, coldDays.sample);
  const warmDir = makeTempDir('codexbar-bench-warm-');
  await runner('filling the store', ['--days', '90'], warmDir).sample();
  const warmDays = runner('warm cost --days 90', ['--days', '90'], warmDir);
  const warm90 = await medianRuns(WARM_RUNS, warmDays.sample);
  const warmRequests = median(warmDays.samples.map((run) => run.requests));
  const coldRequests = median(coldDays.samples.map((run) => run.requests));
  const warmEqual = warmDays.samples.every(
    (run) =>
      run.figures.events === EVENT_COUNT &&
      JSON.stringify(run.figures) === JSON.stringify(coldDays.samples[0]!.figures),
  );
  const bound = 3 + Math.ceil(recent / PAGE_SIZE);
  console.log(
    `  cold: ${ms(cold90.median)} wall (${spread(cold90.samples)}), ${coldRequests} requests, CPU ${cpuText(coldDays.samples)}`,
  );
  console.log(
    `  warm: ${ms(warm90.median)} wall (${spread(warm90.samples)}), ${warmRequests} requests (bound ${bound}), CPU ${cpuText(warmDays.samples)}`,
  );
  console.log(`  warm figures equal the cold run's: ${warmEqual ? 'yes' : 'NO'}`);

  // --- zero latency: CPU of a cold run, with and without the store ---------------------------------------
  fake.setLatency(0);
  console.log(`\n0 ms latency, cold codexbar cost --json --all (${FAST_RUNS} runs after a warm-up)`);
  const zeroRunner = runner('cost (cold, 0 ms)', ['--all']);
  const zero = await medianRuns(FAST_RUNS, zeroRunner.sample);
  const noCacheRunner = runner('cost --no-cache (0 ms)', ['--all', '--no-cache']);
  await medianRuns(FAST_RUNS, noCacheRunner.sample);
  const coldCpu = median(cpuOf(zeroRunner.samples));
  const noCacheCpu = median(cpuOf(noCacheRunner.samples));
  console.log(
    `  cold, writing the store: ${ms(zero.median)} wall (${spread(zero.samples)}), CPU ${cpuText(zeroRunner.samples)}, peak RSS ${MB(peakOf(zeroRunner.samples))}`,
  );
  console.log(`  --no-cache:              CPU ${cpuText(noCacheRunner.samples)}`);

  // --- the pieces in process ---------------------------------------------------------------------------
  const cookieHeader = `WorkosCursorSessionToken=${token.cookieValue}`;
  const collect = await medianRuns(IN_PROCESS_RUNS, () =>
    timeCollectCost(fake.url, cookieHeader, EVENT_COUNT),
  );
  console.log(
    `  collectCost in process (fetch + decode + aggregate): ${ms(collect.median)} (${spread(collect.samples)})`,
  );
  let decoded = decodePages(texts);
  const decode = await medianRuns(IN_PROCESS_RUNS, async () => {
    started = performance.now();
    decoded = decodePages(texts);
    return performance.now() - started;
  });
  console.log(`  fast decoder over ${texts.length} pages: ${ms(decode.median)} (${spread(decode.samples)})`);
  const aggregation = await medianRuns(IN_PROCESS_RUNS, async () => {
    started = performance.now();
    const report = aggregate(decoded, now);
    const elapsed = performance.now() - started;
    if (report.eventCount !== EVENT_COUNT) throw new Error(`aggregator counted ${report.eventCount} events`);
    return elapsed;
  });
  console.log(
    `  aggregator alone over the ${EVENT_COUNT} decoded events of ${decoded.length} pages: ${ms(aggregation.median)} (${spread(aggregation.samples)})`,
  );

  const peak = Math.max(peakOf(slowRuns), peakOf(zeroRunner.samples), peakOf(warmDays.samples));
  rows.push(
    { figure: 'CPU, cold run, 0 ms (store written)', value: ms(coldCpu), target: '-' },
    {
      figure: 'CPU, cold run, 0 ms, --no-cache',
      value: ms(noCacheCpu),
      target: `≤ ${CPU_TARGET_MS} ms`,
      met: noCacheCpu <= CPU_TARGET_MS,
    },
    { figure: `wall, ${LATENCY_MS} ms, --concurrency 1`, value: ms(slow.a.median), target: '-' },
    {
      figure: `wall, ${LATENCY_MS} ms, default (${DEFAULT_CONCURRENCY})`,
      value: ms(slow.b.median),
      target: '-',
    },
    { figure: 'speed-up, default vs 1', value: `${speedUp.toFixed(2)}×`, target: '≥ 5×', met: speedUp >= 5 },
    { figure: 'peak RSS, any run', value: MB(peak), target: '< 300 MB', met: peak < 300 },
    {
      figure: `warm --days 90: requests (${recent} events in 48 h)`,
      value: String(warmRequests),
      target: `≤ ${bound}`,
      met: warmRequests <= bound,
    },
    { figure: `cold --days 90: requests`, value: String(coldRequests), target: '-' },
    { figure: `warm --days 90: wall, ${LATENCY_MS} ms`, value: ms(warm90.median), target: '-' },
    { figure: `cold --days 90: wall, ${LATENCY_MS} ms`, value: ms(cold90.median), target: '-' },
    { figure: 'warm --days 90: CPU', value: ms(median(cpuOf(warmDays.samples))), target: '-' },
    {
      figure: 'warm JSON figures equal cold',
      value: warmEqual ? 'yes' : 'no',
      target: 'yes',
      met: warmEqual,
    },
    { figure: 'all 150,000 events counted', value: complete ? 'yes' : 'no', target: 'yes', met: complete },
    {
      figure: 'JSON equal at concurrency 1 and 6',
      value: same(slowRuns) ? 'yes' : 'no',
      target: 'yes',
      met: same(slowRuns),
    },
    { figure: 'collectCost in process, 0 ms', value: ms(collect.median), target: '-' },
    { figure: 'decode 150 pages in process', value: ms(decode.median), target: '-' },
    { figure: 'aggregator alone, 150k events', value: ms(aggregation.median), target: '-' },
  );
  printSummary('codexbar cost: summary', rows);
}

await runBench(main);
