/**
 * `npm run bench:cost`: `codexbar cost` over 150,000 generated events (150 full pages of 1,000, so the empty
 * page 151 proves completion), at 40 ms per request and at zero latency (docs/architecture.md, Tests). Prints
 * figures and whether each target was met; asserts nothing. Talks only to the fake cursor.com on 127.0.0.1,
 * and removes its temp dirs and stops the server whatever happens.
 */
import { generateEvents } from '../test/fake-cursor/events.js';
import { type FakeCursor, startFakeCursor } from '../test/fake-cursor/server.js';
import { proAccount } from '../test/helpers/accounts.js';
import { makeToken, writeAppToken } from '../test/helpers/home.js';
import { type ChildRun, expectSuccess, peakRssMethod, runNode } from './lib/child.js';
import { cleanupTempDirs, cliEnv, jsonRow, makeTempDir, snapshotBuild } from './lib/cli-env.js';
import { aggregate, decodePages, timeCollectCost } from './lib/cost-in-process.js';
import { pageTexts, staticEventsHandler } from './lib/events-pages.js';
import { ms } from './lib/measure.js';
import { medianRuns, pairedRuns, spread } from './lib/stats.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const EVENT_COUNT = 150_000;
const PAGE_SIZE = 1000;
const LATENCY_MS = 40;
const DEFAULT_CONCURRENCY = 6;
/** Pairs of (concurrency 1, default) runs at 40 ms; a concurrency-1 run alone takes 151 × 40 ms. */
const SLOW_PAIRS = 3;
const FAST_RUNS = 5;
const IN_PROCESS_RUNS = 10;
const DAY_MS = 86_400_000;
const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';

const rows: TargetRow[] = [];
const MB = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} MB`;

/** What must not depend on concurrency: counts and totals from the `cost --json` row. */
interface CostFigures {
  events: number;
  totalTokens: unknown;
  apiRateCostUSD: unknown;
  meteredCostUSD: unknown;
  days: number;
}

function figuresOf(row: Record<string, unknown>): CostFigures {
  const byModel = (row.byModel as Array<{ requests?: number }> | undefined) ?? [];
  return {
    events: byModel.reduce((sum, model) => sum + (model.requests ?? 0), 0),
    totalTokens: (row.totals as { totalTokens?: unknown } | undefined)?.totalTokens,
    apiRateCostUSD: row.apiRateCostUSD,
    meteredCostUSD: row.meteredCostUSD,
    days: (row.daily as unknown[] | undefined)?.length ?? 0,
  };
}

interface CostRuns {
  runs: ChildRun[];
  figures: CostFigures[];
  /** Highest events page requested in each run. */
  lastPages: number[];
}

function costRunner(cli: string, env: NodeJS.ProcessEnv, fake: FakeCursor, concurrency?: number) {
  const record: CostRuns = { runs: [], figures: [], lastPages: [] };
  const label = `cost --concurrency ${concurrency ?? 'default'}`;
  const flags = concurrency === undefined ? [] : ['--concurrency', String(concurrency)];
  const sample = async () => {
    const firstRequest = fake.requests.length;
    const run = expectSuccess(
      await runNode([cli, 'cost', '--json', '--all', ...flags], { env, peakRss: true, timeoutMs: 300_000 }),
      label,
    );
    const pages = fake.requests
      .slice(firstRequest)
      .filter((req) => req.path === EVENTS_PATH)
      .map((req) => Number((req.body as { page?: unknown }).page));
    record.runs.push(run);
    record.figures.push(figuresOf(jsonRow(run.stdout, label)));
    record.lastPages.push(Math.max(...pages));
    return run.ms;
  };
  return { record, sample };
}

const peakOf = (record: CostRuns) => Math.max(...record.runs.map((run) => run.peakRssMB ?? Number.NaN));

async function main(fakeRef: { fake?: FakeCursor }): Promise<void> {
  const cli = snapshotBuild();
  console.log(`codexbar cost benchmark (node ${process.version}, peak RSS via ${peakRssMethod()})\n`);

  const now = new Date();
  let started = performance.now();
  // 60 days ending a minute ago: all inside `--all`, whose window ends at each run's "now".
  const events = generateEvents({
    count: EVENT_COUNT,
    start: new Date(now.getTime() - 60 * DAY_MS),
    end: new Date(now.getTime() - 60_000),
    seed: 150,
  });
  console.log(`generated ${EVENT_COUNT} events in ${ms(performance.now() - started)}`);

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

  // --- 40 ms per request: concurrency 1 against the default, alternated -------------------------------
  console.log(
    `\n${LATENCY_MS} ms per request, codexbar cost --json --all (${SLOW_PAIRS} pairs after a warm-up pair)`,
  );
  const sequential = costRunner(cli, env, fake, 1);
  const concurrent = costRunner(cli, env, fake);
  const slow = await pairedRuns(SLOW_PAIRS, sequential.sample, concurrent.sample);
  const speedUp = slow.a.median / slow.b.median;
  const peakSequential = peakOf(sequential.record);
  const peakConcurrent = peakOf(concurrent.record);
  console.log(
    `  --concurrency 1: ${ms(slow.a.median)} (${spread(slow.a.samples)}), peak RSS ${MB(peakSequential)}`,
  );
  console.log(
    `  default (${DEFAULT_CONCURRENCY}):     ${ms(slow.b.median)} (${spread(slow.b.samples)}), peak RSS ${MB(peakConcurrent)}`,
  );
  console.log(`  speed-up: ${speedUp.toFixed(2)}×`);

  const allFigures = [...sequential.record.figures, ...concurrent.record.figures];
  const reference = allFigures[0];
  const match = allFigures.every((figures) => JSON.stringify(figures) === JSON.stringify(reference));
  const complete = allFigures.every((figures) => figures.events === EVENT_COUNT);
  const lastPages = [...new Set([...sequential.record.lastPages, ...concurrent.record.lastPages])];
  console.log(`  JSON figures, concurrency 1: ${JSON.stringify(sequential.record.figures[0])}`);
  console.log(`  JSON figures, default:       ${JSON.stringify(concurrent.record.figures[0])}`);
  console.log(`  identical across all ${allFigures.length} runs: ${match ? 'yes' : 'NO'}`);
  console.log(
    `  last events page requested: ${lastPages.join(', ')} (${EVENT_COUNT / PAGE_SIZE} full pages)`,
  );

  // --- zero latency: the CLI end to end, then the pieces in process -----------------------------------
  fake.setLatency(0);
  console.log(`\n0 ms latency (${FAST_RUNS} runs after a warm-up)`);
  const zeroRunner = costRunner(cli, env, fake);
  const zero = await medianRuns(FAST_RUNS, zeroRunner.sample);
  const peakZero = peakOf(zeroRunner.record);
  console.log(
    `  codexbar cost --json --all: ${ms(zero.median)} (${spread(zero.samples)}), peak RSS ${MB(peakZero)}`,
  );

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
  console.log(
    `  JSON.parse + events schema over ${texts.length} pages: ${ms(decode.median)} (${spread(decode.samples)})`,
  );
  const aggregation = await medianRuns(IN_PROCESS_RUNS, async () => {
    started = performance.now();
    const report = aggregate(decoded, now);
    const elapsed = performance.now() - started;
    if (report.eventCount !== EVENT_COUNT) throw new Error(`aggregator counted ${report.eventCount} events`);
    return elapsed;
  });
  console.log(
    `  aggregator alone over ${decoded.length} decoded events: ${ms(aggregation.median)} (${spread(aggregation.samples)})`,
  );

  const peak = Math.max(peakSequential, peakConcurrent, peakZero);
  rows.push(
    { figure: `wall, ${LATENCY_MS} ms, --concurrency 1`, value: ms(slow.a.median), target: '-' },
    {
      figure: `wall, ${LATENCY_MS} ms, default (${DEFAULT_CONCURRENCY})`,
      value: ms(slow.b.median),
      target: '-',
    },
    { figure: 'speed-up, default vs 1', value: `${speedUp.toFixed(2)}×`, target: '≥ 5×', met: speedUp >= 5 },
    {
      figure: 'peak RSS, --concurrency 1',
      value: MB(peakSequential),
      target: '< 300 MB',
      met: peakSequential < 300,
    },
    { figure: 'peak RSS, default', value: MB(peakConcurrent), target: '< 300 MB', met: peakConcurrent < 300 },
    { figure: 'peak RSS, any run', value: MB(peak), target: '< 300 MB', met: peak < 300 },
    { figure: 'wall, 0 ms, default', value: ms(zero.median), target: '< 2 s', met: zero.median < 2000 },
    { figure: 'collectCost in process, 0 ms', value: ms(collect.median), target: '-' },
    { figure: 'decode 150 pages in process', value: ms(decode.median), target: '-' },
    { figure: 'aggregator alone, 150k events', value: ms(aggregation.median), target: '-' },
    { figure: 'all 150,000 events counted', value: complete ? 'yes' : 'no', target: 'yes', met: complete },
    { figure: 'JSON equal at concurrency 1 and 6', value: match ? 'yes' : 'no', target: 'yes', met: match },
  );
  printSummary('codexbar cost: summary', rows);
}

const fakeRef: { fake?: FakeCursor } = {};
try {
  await main(fakeRef);
} finally {
  await fakeRef.fake?.close();
  cleanupTempDirs();
}
