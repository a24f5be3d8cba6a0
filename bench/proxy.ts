/**
 * `npm run bench:proxy`: what the built `codexbar proxy` adds to a streamed chat completion (docs/proxy.md),
 * against calling the same fake OpenAI-compatible upstream (test/fake-upstream/) directly, and whether its
 * memory stays flat under load. Prints figures; asserts nothing.
 *
 * - The proxy is the real CLI in its own process (`node bin/codexbar.js proxy --port 0`, a snapshot of the
 *   build), with a throwaway HOME, a proxy token made by `proxy token create` there, and the provider key in
 *   CODEXBAR_PROXY_UPSTREAM_KEY. Its RSS is read from /proc/<pid>/status (Linux only), its CPU time from
 *   /proc/<pid>/stat.
 * - The fake upstream runs in a child process of its own, not in this one. In this process it would share
 *   the client's event loop: at 100 streams the fake's writes would delay the client's timestamps on the
 *   direct path, and not the proxy's half of them, which runs on the other core. In production the upstream
 *   is another machine; a process of its own is the closest this 2-core VM comes. So the direct path is two
 *   processes (client, upstream), the proxy path three (client, proxy, upstream), and at 100 streams the
 *   proxy's CPU competes with the other two: that cost is part of what it adds here.
 * - The client is undici (`request` on an Agent) with keep-alive connections on both paths, as a client of
 *   the provider has and as the proxy allows (src/proxy/server.ts); the proxy's own leg to the upstream keeps
 *   its connections too. The direct path is also timed with a fresh connection per request (`reset: true`),
 *   for scale: what one more TCP handshake costs on this machine.
 * - The three arms (direct fresh, direct keep-alive, proxy) take turns, their order rotating: stream by
 *   stream at concurrency 1, round by round at 100, so a change of machine speed hits all three alike.
 * - Each stream is model `gpt-4.1` with `stream_options.include_usage` (as Cursor sends it): 7 chunks, a
 *   usage chunk and `[DONE]`, so the proxy passes it unchanged. Timed per stream: from the call to the first
 *   body byte (TTFB), and to the body's end (TTLB). Model `big` (2,000 chunks) shows the per-chunk cost.
 *
 * Options: `--max-streams N` passes the proxy's own flag (default 64: at 100 concurrent streams 36 wait for
 * a slot, which is part of what the default proxy adds).
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { startFakeUpstream } from '../test/fake-upstream/server.js';
import { readLedger } from '../test/helpers/proxy.js';
import { cleanupTempDirs, cliEnv, makeTempDir, snapshotBuild } from './lib/cli-env.js';
import { median } from './lib/measure.js';
import { printSummary, type TargetRow } from './lib/summary.js';

/** argv[2] of the child process that runs the fake upstream. */
const UPSTREAM_CHILD = '--fake-upstream-child';
const UPSTREAM_KEY = 'sk-bench-upstream-0123456789';

const SEQUENTIAL = 300;
const SEQUENTIAL_WARMUP = 50;
const CONCURRENT = 100;
const ROUNDS = 20;
const BIG_RUNS = 30;
const RSS_CONCURRENCY = 20;
const RSS_STEPS = 4;
const ADDED_TARGET_MS = 2;

const MiB = 1024 * 1024;

// --- the fake upstream's process -----------------------------------------------------------------------

async function upstreamChild(): Promise<void> {
  const fake = await startFakeUpstream({ key: UPSTREAM_KEY });
  // The fake keeps every request it received; tens of thousands of them would grow this process for nothing.
  const trim = setInterval(() => {
    fake.requests.length = 0;
  }, 500);
  process.on('message', (message) => {
    if (message !== 'stop') return;
    clearInterval(trim);
    void fake.close().then(() => process.disconnect());
  });
  process.send?.({ url: fake.url, origin: fake.origin });
}

function startUpstreamProcess(): Promise<{ child: ChildProcess; url: string; origin: string }> {
  // The same loader (tsx) as this process: process.execArgv carries it.
  const child = fork(fileURLToPath(import.meta.url), [UPSTREAM_CHILD], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => {
      const { url, origin } = message as { url: string; origin: string };
      resolve({ child, url, origin });
    });
    child.once('exit', (code) => reject(new Error(`the fake upstream exited (${code}) before it listened`)));
  });
}

// --- the proxy's process -------------------------------------------------------------------------------

interface ProxyProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  stderr(): string;
}

async function startProxyProcess(
  bin: string,
  upstream: string,
  env: NodeJS.ProcessEnv,
  extra: string[],
): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [bin, 'proxy', '--upstream', upstream, '--port', '0', ...extra], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start in 20 s: ${stderr}`)), 20_000);
    child.stderr?.on('data', (text: string) => {
      stderr += text;
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the proxy exited (${code}): ${stderr}`));
    });
  });
  if (child.pid === undefined) throw new Error('the proxy has no pid');
  return { child, pid: child.pid, url, stderr: () => stderr };
}

async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** VmRSS and VmHWM of a process, bytes; undefined where /proc is not there (not Linux). */
function memoryOf(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

/** User + system CPU time of a process, ms (clock ticks of 10 ms); undefined off Linux. */
function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** A bare node process's RSS, for scale (it reads its own /proc entry, so `node -e 0` and one read). */
function bareNodeRss(): number | undefined {
  try {
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        "process.stdout.write(/VmRSS:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status','utf8'))[1])",
      ],
      { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' },
    );
    return Number(out) * 1024;
  } catch {
    return undefined;
  }
}

// --- the client ----------------------------------------------------------------------------------------

interface Timing {
  /** ms from the call to the first body byte, and to the body's end. */
  first: number;
  last: number;
}

interface Arm {
  name: string;
  url: string;
  authorization: string;
  agent: Agent;
  /** Ask for a fresh connection (`Connection: close`). */
  fresh: boolean;
}

const DONE = 'data: [DONE]\n\n';

function streamBody(model: string): string {
  return JSON.stringify({
    model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Say hello.' },
    ],
  });
}

/** One streamed completion; rejects unless it is a 200 that ends with `[DONE]`. */
async function stream(arm: Arm, body: string): Promise<Timing> {
  const t0 = performance.now();
  const answer = await request(`${arm.url}/chat/completions`, {
    dispatcher: arm.agent,
    method: 'POST',
    headers: { authorization: arm.authorization, 'content-type': 'application/json' },
    body,
    reset: arm.fresh,
  });
  return new Promise((resolve, reject) => {
    let first = -1;
    let tail = '';
    answer.body.on('data', (chunk: Buffer) => {
      if (first < 0) first = performance.now();
      tail = (tail + chunk.toString('latin1')).slice(-DONE.length);
    });
    answer.body.once('error', reject);
    answer.body.once('end', () => {
      const last = performance.now();
      if (answer.statusCode !== 200 || tail !== DONE) {
        reject(new Error(`${arm.name}: status ${answer.statusCode}, ends with ${JSON.stringify(tail)}`));
        return;
      }
      resolve({ first: first - t0, last: last - t0 });
    });
  });
}

interface Series {
  first: number[];
  last: number[];
  errors: number;
  lastError?: string;
}

const newSeries = (): Series => ({ first: [], last: [], errors: 0 });

async function timed(arm: Arm, body: string, into: Series | undefined): Promise<void> {
  try {
    const timing = await stream(arm, body);
    into?.first.push(timing.first);
    into?.last.push(timing.last);
  } catch (error) {
    if (into) {
      into.errors++;
      into.lastError = error instanceof Error ? error.message : String(error);
    }
  }
}

/** The arms in a rotated order, so each runs first, second and third equally often. */
const rotated = <T>(items: readonly T[], turn: number): T[] =>
  items.map((_, i) => items[(i + turn) % items.length]!);

async function sequential(arms: readonly Arm[], body: string, runs: number, warmup: number) {
  const series = arms.map(newSeries);
  for (let turn = 0; turn < warmup + runs; turn++) {
    for (const arm of rotated(arms, turn)) {
      await timed(arm, body, turn < warmup ? undefined : series[arms.indexOf(arm)]);
    }
  }
  return series;
}

async function concurrent(arms: readonly Arm[], body: string, width: number, rounds: number) {
  const series = arms.map(newSeries);
  // One warm-up round per arm: the first 100 connections at once cost more than the later ones.
  for (let turn = -1; turn < rounds; turn++) {
    for (const arm of rotated(arms, turn + 1)) {
      const into = turn < 0 ? undefined : series[arms.indexOf(arm)];
      await Promise.all(Array.from({ length: width }, () => timed(arm, body, into)));
    }
  }
  return series;
}

/** `total` streams through one arm, `width` at a time. */
async function load(arm: Arm, body: string, total: number, width: number): Promise<Series> {
  const series = newSeries();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      await timed(arm, body, series);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return series;
}

// --- figures -------------------------------------------------------------------------------------------

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const f = (value: number, digits = 2) => value.toFixed(digits);
const signed = (value: number, digits = 2) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
const mib = (bytes: number) => `${f(bytes / MiB, 1)} MiB`;

interface Quantiles {
  first50: number;
  first99: number;
  last50: number;
  last99: number;
}

const quantiles = (series: Series): Quantiles => ({
  first50: percentile(series.first, 50),
  first99: percentile(series.first, 99),
  last50: percentile(series.last, 50),
  last99: percentile(series.last, 99),
});

function printLatencyTable(title: string, arms: readonly Arm[], series: readonly Series[]): Quantiles[] {
  const q = series.map(quantiles);
  const rows = arms.map((arm, i) => [
    arm.name,
    `${f(q[i]!.first50)} / ${f(q[i]!.first99)}`,
    `${f(q[i]!.last50)} / ${f(q[i]!.last99)}`,
    `${series[i]!.first.length}${series[i]!.errors ? `, ${series[i]!.errors} errors` : ''}`,
  ]);
  const header = ['', 'TTFB p50 / p99 (ms)', 'TTLB p50 / p99 (ms)', 'streams'];
  const widths = header.map((cell, col) => Math.max(cell.length, ...rows.map((row) => row[col]!.length)));
  const line = (cells: string[]) => `  ${cells.map((cell, col) => cell.padEnd(widths[col]!)).join('  ')}`;
  console.log(`\n${title}`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const [i, s] of series.entries()) {
    if (s.lastError) console.log(`  ${arms[i]!.name}: last error: ${s.lastError}`);
  }
  return q;
}

/** "+a / +b ms (x× / y×)": proxy − direct at p50 and p99, and proxy ÷ direct. */
function added(proxy: number, direct: number, proxy99: number, direct99: number): string {
  return `${signed(proxy - direct)} / ${signed(proxy99 - direct99)} ms (${f(proxy / direct)}× / ${f(proxy99 / direct99)}×)`;
}

/** The target applies against the like-for-like arm (keep-alive on both paths); the other is for scale. */
function addedRows(
  label: string,
  proxy: Quantiles,
  direct: Quantiles,
  against: string,
  targeted = against === 'direct keep-alive',
): TargetRow[] {
  const firstAdded = proxy.first50 - direct.first50;
  const lastAdded = proxy.last50 - direct.last50;
  const target = targeted ? `p50 <= +${ADDED_TARGET_MS} ms` : '';
  return [
    {
      figure: `[${label}] TTFB added vs ${against}, p50 / p99 (ratio)`,
      value: added(proxy.first50, direct.first50, proxy.first99, direct.first99),
      target,
      ...(targeted ? { met: firstAdded <= ADDED_TARGET_MS } : {}),
    },
    {
      figure: `[${label}] TTLB added vs ${against}, p50 / p99 (ratio)`,
      value: added(proxy.last50, direct.last50, proxy.last99, direct.last99),
      target,
      ...(targeted ? { met: lastAdded <= ADDED_TARGET_MS } : {}),
    },
  ];
}

/** Median of the per-turn differences proxy − direct (stream i of each arm ran back to back). */
function pairedMedian(proxy: readonly number[], direct: readonly number[]): number {
  const n = Math.min(proxy.length, direct.length);
  return median(Array.from({ length: n }, (_, i) => proxy[i]! - direct[i]!));
}

// --- the run -------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'max-streams': { type: 'string' }, requests: { type: 'string', default: '10000' } },
  });
  // `--requests N`: the load run's length (default the issue's 10,000), in RSS_STEPS steps.
  const RSS_STEP = Math.max(1, Math.round(Number(values.requests) / RSS_STEPS));
  const proxyArgs = values['max-streams'] ? ['--max-streams', values['max-streams']] : [];
  const started = performance.now();
  const bin = snapshotBuild();
  const home = makeTempDir('codexbar-bench-proxy-');
  const linux = fs.existsSync('/proc/self/status');

  console.log(
    `codexbar proxy benchmark: node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? '?'}), ${os.platform()}`,
  );
  console.log(
    [
      'TTFB: from the request call to the first body byte; TTLB: to the body end. Per stream; p50 and p99 of',
      'all streams of an arm. Added = proxy − direct (same percentile), ratio = proxy ÷ direct, all from one run.',
      '"direct, keep-alive" and "proxy" reuse connections, as a client of the provider does; "direct, fresh"',
      'opens one per request (Connection: close), for scale. The arms take turns in rotating order. The fake upstream is a separate',
      `process; the proxy is \`codexbar proxy${proxyArgs.length ? ` ${proxyArgs.join(' ')}` : ''}\` (default --max-streams 64).`,
    ].join('\n'),
  );

  let upstream: Awaited<ReturnType<typeof startUpstreamProcess>> | undefined;
  let proxy: ProxyProcess | undefined;
  const agents: Agent[] = [];
  const rows: TargetRow[] = [];
  try {
    upstream = await startUpstreamProcess();
    const env = cliEnv(home, upstream.origin, {
      CODEXBAR_CURSOR_BASE_URL: undefined,
      CODEXBAR_PROXY_UPSTREAM_KEY: UPSTREAM_KEY,
    });
    const token = execFileSync(process.execPath, [bin, 'proxy', 'token', 'create', '--label', 'bench'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    proxy = await startProxyProcess(bin, upstream.url, env, proxyArgs);
    const atStart = memoryOf(proxy.pid);

    const agent = () => {
      const made = new Agent({ keepAliveTimeout: 10_000, connections: 256 });
      agents.push(made);
      return made;
    };
    const arms: Arm[] = [
      {
        name: 'direct, fresh',
        url: upstream.url,
        authorization: `Bearer ${UPSTREAM_KEY}`,
        agent: agent(),
        fresh: true,
      },
      {
        name: 'direct, keep-alive',
        url: upstream.url,
        authorization: `Bearer ${UPSTREAM_KEY}`,
        agent: agent(),
        fresh: false,
      },
      {
        name: 'proxy',
        url: `${proxy.url}/v1`,
        authorization: `Bearer ${token}`,
        agent: agent(),
        fresh: false,
      },
    ];
    const [fresh, keepAlive, through] = [0, 1, 2] as const;
    const small = streamBody('gpt-4.1');

    const one = await sequential(arms, small, SEQUENTIAL, SEQUENTIAL_WARMUP);
    const q1 = printLatencyTable(
      `Concurrency 1: ${SEQUENTIAL} sequential streams per arm after ${SEQUENTIAL_WARMUP} of warm-up, gpt-4.1`,
      arms,
      one,
    );
    console.log(
      `  paired median (proxy − direct keep-alive, back to back): TTFB ${signed(pairedMedian(one[through]!.first, one[keepAlive]!.first))} ms, TTLB ${signed(pairedMedian(one[through]!.last, one[keepAlive]!.last))} ms`,
    );

    const hundred = await concurrent(arms, small, CONCURRENT, ROUNDS);
    const q100 = printLatencyTable(
      `Concurrency ${CONCURRENT}: ${ROUNDS} rounds of ${CONCURRENT} at once per arm after one warm-up round, gpt-4.1`,
      arms,
      hundred,
    );

    const bigArms = [arms[keepAlive]!, arms[through]!];
    const big = await sequential(bigArms, streamBody('big'), BIG_RUNS, 5);
    const qBig = printLatencyTable(
      `Model big (2,000 chunks): ${BIG_RUNS} sequential streams per arm`,
      bigArms,
      big,
    );
    const perChunkUs = ((qBig[1]!.last50 - qBig[0]!.last50) / 2000) * 1000;
    console.log(`  added TTLB p50 per chunk: ${signed(perChunkUs, 1)} µs`);

    rows.push(
      ...addedRows('c=1', q1[through]!, q1[keepAlive]!, 'direct keep-alive'),
      ...addedRows('c=1', q1[through]!, q1[fresh]!, 'direct fresh'),
      ...addedRows(`c=${CONCURRENT}`, q100[through]!, q100[keepAlive]!, 'direct keep-alive'),
      ...addedRows(`c=${CONCURRENT}`, q100[through]!, q100[fresh]!, 'direct fresh'),
      {
        figure: '[big, c=1] TTLB added vs direct keep-alive, p50 / p99 (ratio)',
        value: added(qBig[1]!.last50, qBig[0]!.last50, qBig[1]!.last99, qBig[0]!.last99),
        target: '',
      },
    );
    const latencyErrors = [...one, ...hundred, ...big].reduce((sum, s) => sum + s.errors, 0);
    rows.push({
      figure: 'failed streams (latency runs)',
      value: String(latencyErrors),
      target: '0',
      met: latencyErrors === 0,
    });

    // Memory: the latency runs above were the warm-up. Then RSS_STEPS × RSS_STEP streams through the proxy.
    const proxyArm = arms[through]!;
    console.log(
      `\nRSS of the proxy process (VmRSS; peak VmHWM), ${RSS_STEP * RSS_STEPS} gpt-4.1 streams at concurrency ${RSS_CONCURRENCY}:`,
    );
    if (!linux || !atStart) {
      console.log(`  not measured: /proc/<pid>/status is Linux only (this is ${os.platform()}).`);
      const series = await load(proxyArm, small, RSS_STEP * RSS_STEPS, RSS_CONCURRENCY);
      rows.push({
        figure: 'failed streams (load run)',
        value: String(series.errors),
        target: '0',
        met: series.errors === 0,
      });
    } else {
      const bare = bareNodeRss();
      if (bare !== undefined) console.log(`  for scale, a bare node process: ${mib(bare)}`);
      console.log(`  just listening:       ${mib(atStart.rss)}`);
      const warm = memoryOf(proxy.pid)!;
      console.log(`  after the latency runs (warm-up): ${mib(warm.rss)} (peak ${mib(warm.hwm)})`);
      const readings: number[] = [];
      const cpuBefore = cpuMsOf(proxy.pid) ?? 0;
      const loadStarted = performance.now();
      let errors = 0;
      let lastError: string | undefined;
      for (let step = 1; step <= RSS_STEPS; step++) {
        const series = await load(proxyArm, small, RSS_STEP, RSS_CONCURRENCY);
        errors += series.errors;
        lastError = series.lastError ?? lastError;
        const now = memoryOf(proxy.pid)!;
        readings.push(now.rss);
        console.log(
          `  after ${String(step * RSS_STEP).padStart(6)} requests: ${mib(now.rss)} (peak ${mib(now.hwm)}), TTLB p50 ${f(percentile(series.last, 50))} ms`,
        );
      }
      const seconds = (performance.now() - loadStarted) / 1000;
      const cpuMs = (cpuMsOf(proxy.pid) ?? 0) - cpuBefore;
      if (lastError) console.log(`  last error: ${lastError}`);
      const growth = readings.at(-1)! - readings[0]!;
      const per1000 = growth / ((RSS_STEP * (RSS_STEPS - 1)) / 1000);
      rows.push(
        {
          figure: 'proxy RSS: listening / warm',
          value: `${mib(atStart.rss)} / ${mib(warm.rss)}`,
          target: '',
        },
        {
          figure: `proxy RSS after ${RSS_STEP} -> ${RSS_STEP * RSS_STEPS} requests`,
          value: `${mib(readings[0]!)} -> ${mib(readings.at(-1)!)} (${signed(growth / MiB, 1)} MiB, ${signed(per1000 / MiB, 2)} MiB per 1,000)`,
          target: 'flat',
          // Flat: within what a V8 heap's resizing moves on its own (a few MiB), not growing with requests.
          met: growth < 4 * MiB,
        },
        {
          figure: 'proxy CPU per request (load run)',
          value: `${f((cpuMs * 1000) / (RSS_STEP * RSS_STEPS), 0)} µs (${f((RSS_STEP * RSS_STEPS) / seconds, 0)} req/s)`,
          target: '',
        },
        { figure: 'failed streams (load run)', value: String(errors), target: '0', met: errors === 0 },
      );
    }

    const code = await stopProcess(proxy.child);
    const ledger = readLedger(`${home}/.local/share/codexbar/byok.sqlite`);
    const completed = ledger.filter(
      (row) => row.outcome === 'completed' && row.prompt_tokens !== null,
    ).length;
    rows.push(
      { figure: 'proxy exit on SIGTERM', value: String(code), target: '0', met: code === 0 },
      {
        figure: 'ledger rows / completed with usage',
        value: `${ledger.length} / ${completed}`,
        target: 'equal',
        met: ledger.length === completed,
      },
    );
    printSummary(`codexbar proxy (loopback), ${f((performance.now() - started) / 1000, 1)} s`, rows);
  } finally {
    await Promise.all(agents.map((made) => made.close()));
    if (proxy) await stopProcess(proxy.child);
    const child = upstream?.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send('stop');
      else child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    cleanupTempDirs();
  }
}

if (process.argv[2] === UPSTREAM_CHILD) await upstreamChild();
else await main();
