/**
 * `npm run demo`: the built CLI against the bundled sample account, with nothing real touched.
 * A fake cursor.com on 127.0.0.1 serves fixtures/demo/account.json; a throwaway HOME holds a Cursor
 * app database whose token belongs to that account; the CLI is pointed at the fake with
 * CODEXBAR_CURSOR_BASE_URL.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeJwt, sessionCookieValue } from '../fixtures/builders/jwt.js';
import { createStateVscdb } from '../fixtures/builders/vscdb.js';
import { DEMO_SUB, DEMO_USER_ID, loadDemoAccount } from '../fixtures/demo/account.js';
import { availableModelsAnswer } from '../test/fake-cursor/models.js';
import { type FakeAccount, startFakeCursor } from '../test/fake-cursor/server.js';
import { startFakeUpstream } from '../test/fake-upstream/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'bin', 'codexbar.js');
const BUILT = path.join(ROOT, 'dist', 'cli.cjs');
const COMMANDS = [
  ['usage', '--provider', 'cursor', '--verbose', '--status'],
  // Answered from the snapshot the usage run just saved, without a request.
  ['statusline'],
  ['statusline', '--template', '{left} · resets in {reset} · {plan} · fetched {age} ago'],
  // The same snapshot in a status bar's own format (Waybar's JSON; also swiftbar and i3blocks).
  ['statusline', '--format', 'waybar'],
  // A CI gate on the same snapshot: 42% left passes a 20% minimum, exit 0.
  ['guard', '--min-remaining', '20', '--max-age', '5m'],
  ['cost', '--provider', 'cursor'],
  // The same figures through the second door: api2's Connect RPCs with the app's access token.
  ['usage', '--source', 'rpc'],
  // The model catalog through api2 with the app's access token (cached for 24 h afterwards).
  ['models'],
  ['doctor'],
];
/** What the fake status page says for `usage --status`. */
const STATUS_PAGE = { json: { status: { indicator: 'none', description: 'All Systems Operational' } } };
const DAY_S = 86_400;

/** Where the CLI looks for Cursor's app database on this platform. */
function stateVscdbPath(home: string, appData: string): string {
  const globalStorage = ['Cursor', 'User', 'globalStorage', 'state.vscdb'];
  if (process.platform === 'win32') return path.join(appData, ...globalStorage);
  if (process.platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', ...globalStorage);
  return path.join(home, '.config', ...globalStorage);
}

/** The user's environment minus anything that would point the CLI at real files or credentials. */
function demoEnv(home: string, appData: string, baseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const dropped = /^(CODEXBAR_|XDG_(CONFIG|DATA|CACHE)_HOME$|(HTTPS?|ALL|NO)_PROXY$)/i;
  for (const [name, value] of Object.entries(process.env)) if (!dropped.test(name)) env[name] = value;
  // LOCALAPPDATA too: codexbar's cache lives there on Windows, and it must stay in the throwaway HOME.
  const localAppData = path.join(home, 'AppData', 'Local');
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    APPDATA: appData,
    LOCALAPPDATA: localAppData,
    CODEXBAR_CURSOR_BASE_URL: baseUrl,
    CODEXBAR_CURSOR_STATUS_URL: baseUrl,
    // The fake serves api2's Connect RPCs on the same port (test/fake-cursor/api2.ts).
    CODEXBAR_CURSOR_API2_BASE_URL: baseUrl,
  };
}

/** The provider key of the demo's fake OpenAI-compatible upstream. */
const DEMO_UPSTREAM_KEY = 'sk-demo-upstream';

function run(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: 'inherit' });
    child.once('error', (error) => {
      console.error(`demo: could not start the CLI: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** The command as one would type it: words with spaces or braces quoted. */
function shellWords(args: readonly string[]): string {
  return args.map((arg) => (/[\s{}]/.test(arg) ? `'${arg}'` : arg)).join(' ');
}

/** The sample account's usage summary as api2's GetCurrentPeriodUsage says it (docs/api2.md, "Methods"). */
function periodUsageOf(account: FakeAccount): Record<string, unknown> {
  const summary = (account.usageSummary as { json: SampleSummary }).json;
  const { plan, onDemand } = summary.individualUsage;
  return {
    billingCycleStart: String(Date.parse(summary.billingCycleStart)),
    billingCycleEnd: String(Date.parse(summary.billingCycleEnd)),
    planUsage: {
      totalSpend: plan.used,
      includedSpend: plan.used,
      remaining: plan.remaining,
      limit: plan.limit,
      autoPercentUsed: plan.autoPercentUsed,
      apiPercentUsed: plan.apiPercentUsed,
      totalPercentUsed: plan.totalPercentUsed,
    },
    spendLimitUsage: { individualLimit: onDemand.limit, individualUsed: onDemand.used, limitType: 'user' },
    enabled: true,
  };
}

interface SampleSummary {
  billingCycleStart: string;
  billingCycleEnd: string;
  individualUsage: {
    plan: {
      used: number;
      remaining: number;
      limit: number;
      autoPercentUsed: number;
      apiPercentUsed: number;
      totalPercentUsed: number;
    };
    onDemand: { used: number; limit: number };
  };
}

/**
 * `alert` twice against a webhook receiver on 127.0.0.1: the first run sends one alert for the highest
 * threshold the sample account's most-used window has passed (Third Party, not Total), the second sends
 * nothing, as each threshold fires once per billing cycle.
 */
async function alertDemo(env: NodeJS.ProcessEnv): Promise<number> {
  const received: string[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  try {
    const args = ['alert', '--at', '50,80,95', '--webhook', `http://127.0.0.1:${port}/hook`];
    for (const run of [1, 2]) {
      console.log('');
      if ((await step(args, env)) !== 0) return 1;
      const got = received.splice(0);
      console.log(
        got.length === 0
          ? `(run ${run}: the receiver got nothing: each threshold fires once per billing cycle)`
          : `(run ${run}: the receiver got ${got.map((body) => JSON.parse(body).text).join(' / ')})`,
      );
    }
    return 0;
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** `codexbar mcp` as a coding agent meets it: the SDK's own client lists the tools and asks for the budget. */
async function mcpDemo(env: NodeJS.ProcessEnv): Promise<number> {
  console.log('\n$ codexbar mcp   (an MCP client over stdio: tools/list, then cursor_budget_check)');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: stringEnv(env),
  });
  const client = new Client({ name: 'codexbar-demo', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
    const answer = await client.callTool({ name: 'cursor_budget_check', arguments: { min_remaining: 20 } });
    const text = (answer.content as Array<{ type: string; text?: string }>).find(
      (part) => part.type === 'text',
    );
    console.log(`cursor_budget_check {"min_remaining":20} → ${text?.text ?? '(no text)'}`);
    return 0;
  } catch (error) {
    console.error(`demo: codexbar mcp failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await client.close();
  }
}

/** `serve`'s `/metrics`, as Prometheus scrapes it: the plan and on-demand gauges. */
async function metricsDemo(env: NodeJS.ProcessEnv): Promise<number> {
  const port = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  console.log(`\n$ codexbar serve --port ${port} &  curl http://127.0.0.1:${port}/metrics`);
  const serve = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const listening = await new Promise<boolean>((resolve) => {
      serve.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('listening on')) resolve(true);
      });
      serve.once('exit', () => resolve(false));
    });
    if (!listening) return 1;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const shown = text
      .split('\n')
      .filter((line) => /^codexbar_(plan_used_ratio|on_demand_\w+|build_info)/.test(line));
    console.log(shown.join('\n'));
    return 0;
  } finally {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
  }
}

/** The environment without unset variables, as the MCP SDK's transport takes it. */
function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** One command, echoed as typed; a failure is said and ends the demo. */
async function step(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  console.log(`$ codexbar ${shellWords(args)}`);
  const code = await run(args, env);
  if (code !== 0) console.error(`demo: \`codexbar ${shellWords(args)}\` exited with ${code}`);
  return code;
}

/**
 * BYOK: `proxy` in front of a fake OpenAI-compatible upstream, four chat requests of three conversations
 * through it, then `cost --source byok` on the ledger they left.
 */
async function byokDemo(env: NodeJS.ProcessEnv): Promise<number> {
  const upstream = await startFakeUpstream({ key: DEMO_UPSTREAM_KEY });
  try {
    console.log('\n$ codexbar proxy token create --label cursor');
    const token = await output(['proxy', 'token', 'create', '--label', 'cursor'], env);
    if (token === undefined) return 1;
    console.log(`${token.slice(0, 9)}… (printed once; the proxy keeps only its hash)`);
    const args = ['proxy', '--upstream', upstream.url, '--port', '0', '--verbose'];
    console.log(`\n$ CODEXBAR_PROXY_UPSTREAM_KEY=… codexbar ${shellWords(args)}`);
    const proxyEnv = { ...env, CODEXBAR_PROXY_UPSTREAM_KEY: DEMO_UPSTREAM_KEY };
    const proxy = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: proxyEnv,
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    const url = await listeningUrl(proxy);
    if (url === undefined) return 1;
    // What Cursor's servers send: a long context message first (as Cursor's metadata is), then the turns;
    // three providers' usage formats: OpenAI's, OpenRouter's (with its reported cost) and DeepSeek's (a
    // model the price table does not know: unpriced, never $0).
    const context = {
      role: 'user',
      content: `<project_layout>\n${'src/file.ts\n'.repeat(2_000)}</project_layout>`,
    };
    const requests: Array<[string, string[]]> = [
      ['gpt-4.1', ['Summarise this repository.']],
      ['gpt-4.1', ['Summarise this repository.', 'Now list its commands.']],
      ['openrouter/openai/gpt-5', ['Write a haiku about tokens.']],
      ['deepseek-chat', ['Explain the ledger.']],
    ];
    for (const [model, turn] of requests) {
      const messages = [
        context,
        ...turn.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })),
      ];
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, messages, user: 'demo-account' }),
      });
      await response.text();
    }
    proxy.kill('SIGTERM');
    await new Promise((resolve) => proxy.once('exit', resolve));
    console.log('');
    if ((await step(['cost', '--source', 'byok', '--days', '1', '--no-cross-check'], env)) !== 0) return 1;
    console.log('');
    return await step(
      ['cost', '--source', 'byok', '--days', '1', '--by', 'conversation', '--no-cross-check'],
      env,
    );
  } finally {
    await upstream.close();
  }
}

/** A command's stdout, trimmed; undefined (said) when it fails. */
function output(args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    child.once('exit', (code) => {
      if (code !== 0) console.error(`demo: \`codexbar ${shellWords(args)}\` exited with ${code}`);
      resolve(code === 0 ? text.trim() : undefined);
    });
  });
}

/** Passes the proxy's stderr through and resolves with the URL of its banner. */
function listeningUrl(proxy: ReturnType<typeof spawn>): Promise<string | undefined> {
  return new Promise((resolve) => {
    let seen = '';
    proxy.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      process.stderr.write(chunk);
      seen += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(seen);
      if (match) resolve(match[1]);
    });
    proxy.once('exit', () => resolve(undefined));
  });
}

async function main(): Promise<number> {
  if (!fs.existsSync(BUILT)) {
    console.error('demo: dist/cli.cjs is missing; run `npm run build` first.');
    return 1;
  }
  const now = new Date();
  const token = await makeJwt({ sub: DEMO_SUB, now, exp: Math.floor(now.getTime() / 1000) + 30 * DAY_S });
  const web = loadDemoAccount(now, sessionCookieValue(DEMO_USER_ID, token));
  const account = {
    ...web,
    // The app token is also api2's Bearer token: `usage --source rpc`, `models` and doctor's second door
    // ask api2 with it, which describes the same state as cursor.com.
    bearers: [token],
    rpc: {
      'AiService/AvailableModels': { json: availableModelsAnswer({ extra: 6 }) },
      'DashboardService/GetCurrentPeriodUsage': { json: periodUsageOf(web) },
      'DashboardService/GetPlanInfo': { json: { planInfo: { planName: 'Pro', includedAmountCents: 2000 } } },
    },
  };
  const fake = await startFakeCursor({ accounts: [account], statusPage: STATUS_PAGE });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-demo-'));
  const appData = path.join(home, 'AppData', 'Roaming');
  // Ctrl-C reaches the CLI through the terminal; the demo stays alive long enough to clean up.
  const ignoreInterrupt = () => {};
  process.on('SIGINT', ignoreInterrupt);
  try {
    const dbPath = stateVscdbPath(home, appData);
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    // An idle WAL database with some unrelated rows, like a real Cursor install.
    createStateVscdb(dbPath, { token, extraItems: 50 });
    const env = demoEnv(home, appData, fake.url);
    console.log(`Sample account "Sample User" served by a fake cursor.com at ${fake.url}\n`);
    for (const [index, args] of COMMANDS.entries()) {
      if (index > 0) console.log('');
      const code = await step(args, env);
      if (code !== 0) return code;
    }
    if ((await alertDemo(env)) !== 0) return 1;
    if ((await mcpDemo(env)) !== 0) return 1;
    if ((await metricsDemo(env)) !== 0) return 1;
    return await byokDemo(env);
  } finally {
    process.off('SIGINT', ignoreInterrupt);
    fs.rmSync(home, { recursive: true, force: true });
    await fake.close();
  }
}

process.exitCode = await main();
