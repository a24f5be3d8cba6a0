/**
 * `codexbar proxy` in-process: the command runs through `scene.run` (runCli) with a stop signal of the
 * test's own, in front of a fake upstream (test/fake-upstream/, real HTTP on 127.0.0.1). The harness makes a
 * proxy token first, as a user would, and reads the real ledger file back.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { ProxyHooks } from '../../src/commands/proxy.js';
import { retainSqliteObjects } from '../../src/local/sqlite.js';
import type { RunningProxy } from '../../src/proxy/server.js';
import { type FakeUpstream, startFakeUpstream } from '../fake-upstream/server.js';
import type { CliResult } from './cli.js';
import type { Scene } from './scene.js';

export const UPSTREAM_KEY = 'sk-upstream-secret-0123456789';

export interface LedgerRecord {
  id: number;
  started_at: number;
  duration_ms: number;
  upstream_host: string;
  route: string;
  model: string | null;
  stream: number;
  status: number;
  completed: number;
  outcome: string;
  prompt_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  completion_tokens: number | null;
  reasoning_tokens: number | null;
  provider_cost_usd: number | null;
  conversation: string | null;
}

export interface ProxyHarness {
  upstream: FakeUpstream;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The proxy token (absent with --pass-key). */
  token: string;
  proxy: RunningProxy;
  ledgerFile: string;
  rows(): LedgerRecord[];
  /** Stops the proxy as SIGTERM would and returns its run. */
  stop(): Promise<CliResult>;
}

export interface ProxyHarnessOptions {
  args?: string[];
  env?: Record<string, string | undefined>;
  /** Fake-upstream key check (default: UPSTREAM_KEY, the key the proxy forwards with). */
  upstreamKey?: string | null;
  hooks?: Omit<ProxyHooks, 'stop' | 'onListening'>;
  upstream?: FakeUpstream;
}

export function dataDir(scene: Scene): string {
  return path.join(scene.home, '.local', 'share', 'codexbar');
}

export async function createToken(scene: Scene, label = 'cursor'): Promise<string> {
  const created = await scene.run(['proxy', 'token', 'create', '--label', label]);
  if (created.code !== 0) throw new Error(`token create failed: ${created.stderr}`);
  return created.stdout.trim();
}

export async function startProxyHarness(
  scene: Scene,
  options: ProxyHarnessOptions = {},
): Promise<ProxyHarness> {
  const key = options.upstreamKey === undefined ? UPSTREAM_KEY : options.upstreamKey;
  const upstream = options.upstream ?? (await startFakeUpstream(key === null ? {} : { key }));
  if (!options.upstream) scene.defer(() => upstream.close());
  const passKey = options.args?.includes('--pass-key') === true;
  const token = passKey ? '' : await createToken(scene);
  const stop = new AbortController();
  let listening!: (proxy: RunningProxy) => void;
  const started = new Promise<RunningProxy>((resolve) => {
    listening = resolve;
  });
  const run = scene.run(['proxy', '--upstream', upstream.url, '--port', '0', ...(options.args ?? [])], {
    env: { CODEXBAR_PROXY_UPSTREAM_KEY: UPSTREAM_KEY, ...options.env },
    proxyHooks: { ...options.hooks, stop: stop.signal, onListening: (proxy) => listening(proxy) },
  });
  const proxy = await Promise.race([
    started,
    run.then((result) => {
      throw new Error(`proxy did not start (exit ${result.code}): ${result.stderr}${result.stdout}`);
    }),
  ]);
  let stopped: Promise<CliResult> | undefined;
  const harness: ProxyHarness = {
    upstream,
    url: proxy.url,
    token,
    proxy,
    ledgerFile: path.join(dataDir(scene), 'byok.sqlite'),
    rows: () => readLedger(harness.ledgerFile),
    stop() {
      stop.abort();
      stopped ??= run;
      return stopped;
    },
  };
  scene.defer(() => harness.stop());
  return harness;
}

const Sqlite = retainSqliteObjects(Database);

export function readLedger(file: string): LedgerRecord[] {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM requests ORDER BY id').all() as LedgerRecord[];
  } finally {
    db.close();
  }
}

/** n rows, as a tuple of that length. */
type Rows<N extends number, R extends LedgerRecord[] = []> = R['length'] extends N
  ? R
  : Rows<N, [...R, LedgerRecord]>;

/** The rows after the first `before`, once there are `n` of them (a row is committed as its answer ends). */
export async function newRows<N extends number>(h: ProxyHarness, before: number, n: N): Promise<Rows<N>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = h.rows();
    if (rows.length >= before + n || Date.now() > deadline) {
      expect(rows.length).toBe(before + n);
      return rows.slice(before) as Rows<N>;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
