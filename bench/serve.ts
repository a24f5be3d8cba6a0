/**
 * `npm run bench:serve`: the built `codexbar serve --refresh-interval 5` under load. A load generator written
 * here in Node (http.Agent with keep-alive; the server answers `Connection: close`, so every request is a
 * fresh connection, as CodexBar's clients see it): 64 concurrent clients send 20,000 GET /usage. Reported:
 * throughput, p50/p99 latency, errors, upstream fetches (usage-summary requests in the fake cursor.com's
 * log), and the server's memory before and after: RSS, V8's heap (used and reserved, young and old
 * generation) and memory outside it (external, ArrayBuffers). The server reports those itself over an IPC
 * channel the bench opens, through a module the bench preloads with `--import`: the server has no route for
 * them. Then the same with 200 idle sockets held open by a slow client that never finishes its head, plus the
 * latency of GET /health from another client meanwhile, and the latency of GET /metrics (a Prometheus scrape)
 * with a warm cache. Prints figures; asserts nothing.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { loadDemoAccount } from '../fixtures/demo/account.js';
import { startFakeCursor } from '../test/fake-cursor/server.js';
import { freePort, spawnServe } from '../test/helpers/serve-process.js';
import { cleanupTempDirs, cliEnv, makeTempDir, snapshotBuild } from './lib/cli-env.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const CLIENTS = 64;
const REQUESTS = 20_000;

const REFRESH_INTERVAL_S = 5;
const IDLE_SOCKETS = 200;
const HEALTH_PROBES = 50;
const METRICS_SCRAPES = 500;
const SESSION = 'user_bench%3A%3Aserve-bench';

interface LoadResult {
  seconds: number;
  latenciesMs: number[];
  errors: number;
  statuses: Map<number, number>;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function get(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function load(port: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latenciesMs: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  const client = async () => {
    while (next < REQUESTS) {
      next++;
      const t0 = process.hrtime.bigint();
      try {
        const status = await get(agent, port, '/usage');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 200) errors++;
      } catch {
        errors++;
      }
      latenciesMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  agent.destroy();
  latenciesMs.sort((a, b) => a - b);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, latenciesMs, errors, statuses };
}

/** 200 sockets that send half a request head and then nothing; one that the server closes is reopened. */
function holdIdleSockets(port: number): { stop(): void; open(): number; reopened(): number } {
  const sockets = new Set<net.Socket>();
  let stopped = false;
  let reopened = 0;
  const openOne = () => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write('GET /usage HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
    );
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      if (!stopped) {
        reopened++;
        openOne();
      }
    });
    sockets.add(socket);
  };
  for (let i = 0; i < IDLE_SOCKETS; i++) openOne();
  return {
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
    open: () => sockets.size,
    reopened: () => reopened,
  };
}

async function healthLatencies(port: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: false });
  const values: number[] = [];
  for (let i = 0; i < HEALTH_PROBES; i++) {
    const t0 = process.hrtime.bigint();
    await get(agent, port, '/health');
    values.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return values.sort((a, b) => a - b);
}

/** Preloaded into the server: answers `memory` on the IPC channel, which then no longer holds the process. */
const MEMORY_PROBE = `data:text/javascript,${encodeURIComponent(`
import v8 from 'node:v8';
process.on('message', (message) => {
  if (message !== 'memory') return;
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]));
  const cpu = process.cpuUsage();
  process.send({ ...process.memoryUsage(), young: spaces.new_space, old: spaces.old_space, cpuMicros: cpu.user + cpu.system });
});
process.channel?.unref();
`)}`;

interface ServerMemory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Reserved size of V8's young generation (new space) and old space, bytes. */
  young: number;
  old: number;
  /** CPU time the server has used (user + system), µs. */
  cpuMicros: number;
}

function serverMemory(child: ChildProcess): Promise<ServerMemory> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as ServerMemory));
    child.send('memory');
  });
}

const fmt = (value: number, digits = 1) => value.toFixed(digits);
const mb = (bytes: number) => bytes / 1024 / 1024;
/** `a -> b MB (+d)` for one field of two memory readings. */
const change = (before: ServerMemory, after: ServerMemory, field: keyof ServerMemory) =>
  `${fmt(mb(before[field]))} -> ${fmt(mb(after[field]))} (${after[field] >= before[field] ? '+' : ''}${fmt(mb(after[field] - before[field]))})`;

/**
 * The same load against a bare Node http server that answers `[]` and closes: the ceiling this machine and
 * this client allow with one connection per request, so the serve figures above can be read against it.
 */
async function referenceRow(): Promise<TargetRow> {
  const bare = http.createServer((_request, response) => {
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': '2',
      Connection: 'close',
    });
    response.end('[]');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  try {
    const result = await load((bare.address() as net.AddressInfo).port);
    return {
      figure: '[reference: bare node http server] throughput, p50 / p99',
      value: `${fmt(REQUESTS / result.seconds, 0)} req/s, ${fmt(percentile(result.latenciesMs, 50))} / ${fmt(percentile(result.latenciesMs, 99))} ms`,
      target: '',
    };
  } finally {
    await new Promise((resolve) => bare.close(resolve));
  }
}

/**
 * GET /metrics one after another from one client, after one scrape has filled both caches (usage and cost):
 * what a Prometheus scrape costs once the answers are cached. Latencies in ms, sorted.
 */
async function metricsLatencies(port: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true });
  await get(agent, port, '/metrics');
  const latencies: number[] = [];
  for (let i = 0; i < METRICS_SCRAPES; i++) {
    const t0 = process.hrtime.bigint();
    const status = await get(agent, port, '/metrics');
    if (status !== 200) throw new Error(`GET /metrics answered ${status}`);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  agent.destroy();
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const bin = snapshotBuild();
  const fake = await startFakeCursor({ accounts: [loadDemoAccount(new Date(), SESSION)] });
  const home = makeTempDir('codexbar-bench-serve-');
  const port = await freePort();
  const env = cliEnv(home, fake.url, { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}` });
  const { child } = await spawnServe(
    bin,
    ['--port', String(port), '--refresh-interval', String(REFRESH_INTERVAL_S)],
    env,
    { nodeArgs: ['--import', MEMORY_PROBE], ipc: true },
  );
  const rows: TargetRow[] = [];
  const upstream = () => fake.requests.filter((request) => request.path === '/api/usage-summary').length;
  try {
    // One request fills the cache, so every run starts from the same state.
    await get(new http.Agent(), port, '/usage');
    // The first run starts from a cold process: its growth includes what a first load costs once (compiled
    // code, the old generation's first growth, the node binary's pages for the HTTP path). The later runs
    // show whether load keeps adding (src/serve/heap.ts says how the heap is bounded).
    const runs = [
      { label: 'cold, no idle sockets', idle: false },
      { label: 'warm, no idle sockets', idle: false },
      { label: `warm, ${IDLE_SOCKETS} idle slow sockets`, idle: true },
    ];
    for (const { label, idle } of runs) {
      const holder = idle ? holdIdleSockets(port) : undefined;
      if (holder) await new Promise((resolve) => setTimeout(resolve, 500));
      const health = holder ? await healthLatencies(port) : undefined;
      const before = await serverMemory(child);
      const fetchesBefore = upstream();
      const result = await load(port);
      const fetches = upstream() - fetchesBefore;
      const after = await serverMemory(child);
      const rssGrowth = mb(after.rss - before.rss);
      const openIdle = holder?.open();
      holder?.stop();
      const budget = Math.floor(result.seconds / REFRESH_INTERVAL_S) + 2;
      console.log(
        `\n${label}: ${REQUESTS} GET /usage from ${CLIENTS} clients in ${fmt(result.seconds, 2)} s; statuses ${JSON.stringify(Object.fromEntries(result.statuses))}` +
          (holder
            ? `; idle sockets open at the end: ${openIdle}, reopened after the head deadline: ${holder.reopened()}`
            : ''),
      );
      rows.push(
        { figure: `[${label}] throughput`, value: `${fmt(REQUESTS / result.seconds, 0)} req/s`, target: '' },
        {
          figure: `[${label}] latency p50 / p99 / max`,
          value: `${fmt(percentile(result.latenciesMs, 50))} / ${fmt(percentile(result.latenciesMs, 99))} / ${fmt(result.latenciesMs.at(-1) ?? 0)} ms`,
          target: '',
        },
        {
          // Throughput shares this machine's cores with the load generator; the server's own CPU time per
          // request is the steadier figure for comparing two builds.
          figure: `[${label}] server CPU per request`,
          value: `${fmt((after.cpuMicros - before.cpuMicros) / REQUESTS, 0)} µs`,
          target: '',
        },
        { figure: `[${label}] errors`, value: String(result.errors), target: '0', met: result.errors === 0 },
        {
          figure: `[${label}] upstream fetches`,
          value: `${fetches} in ${fmt(result.seconds, 1)} s`,
          target: `<= ${budget}`,
          met: fetches <= budget,
        },
        {
          figure: `[${label}] server RSS before -> after (MB)`,
          value: change(before, after, 'rss'),
          target: '< +20 MB',
          met: rssGrowth < 20,
        },
        {
          figure: `[${label}]   V8 heap used / reserved (MB)`,
          value: `${change(before, after, 'heapUsed')} / ${change(before, after, 'heapTotal')}`,
          target: '',
        },
        {
          figure: `[${label}]   young / old generation (MB)`,
          value: `${change(before, after, 'young')} / ${change(before, after, 'old')}`,
          target: '',
        },
        {
          figure: `[${label}]   external / ArrayBuffers (MB)`,
          value: `${change(before, after, 'external')} / ${change(before, after, 'arrayBuffers')}`,
          target: '',
        },
      );
      if (health) {
        rows.push({
          figure: `[${label}] GET /health p50 / max`,
          value: `${fmt(percentile(health, 50))} / ${fmt(health.at(-1) ?? 0)} ms`,
          target: '< 1000 ms',
          met: (health.at(-1) ?? Number.POSITIVE_INFINITY) < 1000,
        });
      }
    }
    const scrapes = await metricsLatencies(port);
    rows.push({
      figure: `GET /metrics with a warm cache, p50 / p99 / max (${METRICS_SCRAPES} scrapes)`,
      value: `${fmt(percentile(scrapes, 50))} / ${fmt(percentile(scrapes, 99))} / ${fmt(scrapes.at(-1) ?? 0)} ms`,
      target: '',
    });
    rows.push(await referenceRow());
    printSummary('codexbar serve --refresh-interval 5 (loopback)', rows);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fake.close();
    cleanupTempDirs();
  }
}

await main();
