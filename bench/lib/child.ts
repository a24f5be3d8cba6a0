/**
 * Async child-process timing for the benchmarks. Async (not spawnSync) because the fake cursor.com runs
 * in the benchmark's own process and must keep answering while the CLI runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PEAK_RSS_PRELOAD } from '../../test/helpers/peak-rss.js';

export interface ChildRun {
  /** Wall time from spawn to exit, in milliseconds. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the node process in MB, when asked for. */
  peakRssMB?: number;
  /** CPU time of the node process (user + system), in milliseconds, when asked for. */
  cpuMs?: number;
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Measure the child's peak RSS (GNU time when present, else a preload: test/helpers/peak-rss.ts). */
  peakRss?: boolean;
  /** Kill the child after this long, so no loop can hang on a stuck run. Default 120 s. */
  timeoutMs?: number;
  /** Measure the child's CPU time (user + system) through a preload that reports resourceUsage at exit. */
  cpu?: boolean;
}

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = fs.existsSync(GNU_TIME);

// CPU probe: user and system time (µs) of the process itself, written at exit.
const CPU_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "import fs from 'node:fs';process.on('exit',()=>{const f=process.env.BENCH_CPU_FILE;const r=process.resourceUsage();if(f)fs.writeFileSync(f,r.userCPUTime+' '+r.systemCPUTime);});",
)}`;

export function peakRssMethod(): string {
  return hasGnuTime ? `${GNU_TIME} -f %M` : 'VmHWM, else resourceUsage().maxRSS (preload)';
}

/** Runs `node <args>` and times it; never throws on a non-zero exit (the caller decides). */
export async function runNode(args: readonly string[], options: ChildOptions): Promise<ChildRun> {
  let command = process.execPath;
  let argv = [...args];
  const env = { ...options.env };
  let rssFile: string | undefined;
  let cpuFile: string | undefined;
  if (options.cpu) {
    cpuFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-bench-cpu-')), 'cpu');
    argv = ['--import', CPU_PRELOAD, ...argv];
    env.BENCH_CPU_FILE = cpuFile;
  }
  const nodeArgs = [...argv];
  if (options.peakRss) {
    rssFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-bench-rss-')), 'rss');
    if (hasGnuTime) {
      argv = ['-f', '%M', '-o', rssFile, process.execPath, ...nodeArgs];
      command = GNU_TIME;
    } else {
      argv = ['--import', PEAK_RSS_PRELOAD, ...nodeArgs];
      env.PEAK_RSS_FILE = rssFile;
    }
  }
  try {
    const run = await spawnTimed(command, argv, env, options);
    if (rssFile && fs.existsSync(rssFile)) {
      const kb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      if (Number.isFinite(kb)) run.peakRssMB = kb / 1024;
    }
    if (cpuFile && fs.existsSync(cpuFile)) {
      const [user, system] = fs.readFileSync(cpuFile, 'utf8').split(' ').map(Number);
      if (Number.isFinite(user) && Number.isFinite(system)) run.cpuMs = (user! + system!) / 1000;
    }
    return run;
  } finally {
    for (const file of [rssFile, cpuFile])
      if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** Runs `command <args>` (the single executable, say) and times it; never throws on a non-zero exit. */
export function runCommand(
  command: string,
  args: readonly string[],
  options: ChildOptions,
): Promise<ChildRun> {
  return spawnTimed(command, [...args], options.env, options);
}

function spawnTimed(
  command: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  options: ChildOptions,
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      resolve({ ms, code, stdout, stderr });
    });
  });
}

/** Throws with the child's stderr when it failed: a benchmark of a failing run would be meaningless. */
export function expectSuccess(run: ChildRun, what: string): ChildRun {
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
  return run;
}
