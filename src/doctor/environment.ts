import { lstat } from 'node:fs/promises';
import { resolveBaseUrl } from '../api/base-url.js';
import { createDispatcher, proxySettings, sendRequest } from '../api/transport.js';
import { codexbarCacheDir } from '../cache/cache-dir.js';
import { findConfigPath } from '../config/config.js';
import { readConfigDocument } from '../config/document.js';
import { validateConfigDocument } from '../config/validate.js';
import type { LocalEnvironment } from '../local/environment.js';
import { displayPath } from '../local/paths.js';
import { errorCode } from '../local/read-file.js';
import { sqliteState } from '../local/sqlite.js';
import type { EnvironmentReport, Problem } from './types.js';

/** Node, the config file, the cache directory, proxies and the network. */
export async function checkEnvironment(
  env: LocalEnvironment,
  timeoutMs: number,
  now: Date,
): Promise<EnvironmentReport> {
  const problems: Problem[] = [];
  const node = checkNode(problems, now);
  const sqlite = await checkSqlite(problems);
  const config = await checkConfig(env, problems);
  const cache = await checkCache(env, problems);
  const proxy = checkProxy(env);
  const network = await checkNetwork(env, timeoutMs, problems, proxy.variables.length > 0);
  return { node, sqlite, config, cache, proxy, network, problems };
}

/**
 * When each Node line stops getting fixes (https://github.com/nodejs/release#release-schedule). A line newer
 * than this table is taken as supported, since its end lies years ahead.
 */
const END_OF_LIFE: Record<number, string> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
  27: '2027-06-01',
};

function checkNode(problems: Problem[], now: Date): EnvironmentReport['node'] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > 20 || (major === 20 && minor >= 18);
  if (!supported) {
    problems.push({
      problem: `Node.js ${process.version} is older than codexbar supports (20.18).`,
      fix: 'Install Node.js 20.18 or newer (22 or 24 recommended).',
    });
  }
  const report: EnvironmentReport['node'] = {
    version: process.version,
    platform: process.platform,
    arch: process.arch,
    supported,
  };
  const end = END_OF_LIFE[major];
  // A warning, not a problem: codexbar still works there (README.md, "Set-up").
  if (end !== undefined && now.toISOString().slice(0, 10) > end) report.endOfLife = end;
  return report;
}

/** The SQLite engine in use, and, when better-sqlite3 is not it, why and the fix (src/local/sqlite.ts). */
async function checkSqlite(problems: Problem[]): Promise<EnvironmentReport['sqlite']> {
  const state = await sqliteState();
  if (state.kind === 'none') {
    problems.push({
      problem: `No SQLite engine: ${state.addon.reason}, and Node.js ${process.version} has no node:sqlite. \`cost\` runs without its event store, browser cookies cannot be read, and \`proxy\` cannot record.`,
      fix: state.addon.fix,
    });
    return { engine: 'none', reason: state.addon.reason, fix: state.addon.fix };
  }
  const found: EnvironmentReport['sqlite'] = { engine: state.engine.name, version: state.engine.version };
  if (state.addon !== undefined) Object.assign(found, { reason: state.addon.reason, fix: state.addon.fix });
  return found;
}

async function checkConfig(env: LocalEnvironment, problems: Problem[]): Promise<EnvironmentReport['config']> {
  const path = await findConfigPath(env);
  const shown = displayPath(path, env);
  const document = await readConfigDocument(path);
  const issues = validateConfigDocument(document).map(({ severity, code, message }) => ({
    severity,
    code,
    message,
  }));
  for (const issue of issues.filter((found) => found.severity === 'error')) {
    problems.push({
      problem: `The config file ${shown} has an error: ${issue.message}`,
      fix: `Fix ${shown} (\`codexbar config validate\` lists every issue); until then codexbar refuses to change it.`,
    });
  }
  return { path: shown, exists: document.kind !== 'missing', issues };
}

/** The cache must be a private directory of ours; missing is fine. */
async function checkCache(env: LocalEnvironment, problems: Problem[]): Promise<EnvironmentReport['cache']> {
  const dir = codexbarCacheDir(env);
  const path = displayPath(dir, env);
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      return { path, state: 'not created yet (made on first use, mode 0700)', ok: true };
    return fail(`cannot be inspected (${errorCode(error) ?? 'error'})`, `Check the permissions of ${path}.`);
  }
  function fail(state: string, fix: string): EnvironmentReport['cache'] {
    problems.push({ problem: `The cache directory ${path} ${state}.`, fix });
    return { path, state, ok: false };
  }
  if (info.isSymbolicLink())
    return fail('is a symbolic link, which codexbar refuses to write through', `Remove the link: rm ${path}`);
  if (!info.isDirectory()) return fail('is not a directory', `Move it aside: mv ${path} ${path}.old`);
  if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
    return fail(
      'belongs to another user',
      `Remove it, or set CODEXBAR_CACHE_DIR to a directory of your own.`,
    );
  }
  const mode = info.mode & 0o777;
  if (env.platform !== 'win32' && (mode & 0o077) !== 0) {
    return fail(`is open to others (mode ${mode.toString(8)})`, `chmod 700 ${path}`);
  }
  return { path, state: `private (mode ${mode.toString(8)})`, ok: true };
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY', 'NO_PROXY'];

/** Names of the proxy variables set and the proxies' hosts; a user name or password in a proxy URL is never shown. */
function checkProxy(env: LocalEnvironment): EnvironmentReport['proxy'] {
  const variables: string[] = [];
  const proxies: string[] = [];
  let noProxy: string | undefined;
  for (const name of Object.keys(env.env).sort()) {
    if (!PROXY_VARIABLES.includes(name.toUpperCase())) continue;
    const value = env.env[name]?.trim();
    if (!value) continue;
    variables.push(name);
    if (name.toUpperCase() === 'NO_PROXY') noProxy = value;
    else proxies.push(`${name}: ${proxyHost(value)}`);
  }
  return { variables, proxies, noProxy };
}

function proxyHost(value: string): string {
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`);
    return `${url.protocol}//${url.host}${url.username || url.password ? ' (credentials hidden)' : ''}`;
  } catch {
    return 'not a URL';
  }
}

/** Any HTTP answer from the base URL proves the network path (proxy included) works. */
async function checkNetwork(
  env: LocalEnvironment,
  timeoutMs: number,
  problems: Problem[],
  proxied: boolean,
): Promise<EnvironmentReport['network']> {
  let base: string;
  try {
    base = resolveBaseUrl(env.env.CODEXBAR_CURSOR_BASE_URL);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    problems.push({ problem: detail, fix: 'Unset CODEXBAR_CURSOR_BASE_URL, or give it an https:// URL.' });
    return { url: env.env.CODEXBAR_CURSOR_BASE_URL ?? '', reachable: false, detail: 'refused' };
  }
  const url = new URL(`${base}/`);
  const dispatcher = createDispatcher(proxySettings(env.env));
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await sendRequest(dispatcher, {
      origin: url.origin,
      path: url.pathname,
      method: 'GET',
      signal,
    });
    await response.body.dump();
    return { url: base, reachable: true, detail: `HTTP ${response.statusCode}` };
  } catch (error) {
    const detail = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : (errorCode(error) ?? 'connection failed');
    problems.push({
      problem: `${base} is unreachable (${detail}).`,
      fix: proxied
        ? 'Check the network and the proxy variables listed above.'
        : 'Check the network; behind a proxy, set HTTPS_PROXY.',
    });
    return { url: base, reachable: false, detail };
  } finally {
    await dispatcher.close().catch(() => {});
  }
}
