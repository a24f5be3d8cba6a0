import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { outputOf, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { expectNoCredential, mcpAccount, mcpToken, textOf } from '../helpers/mcp.js';
import { useScene } from '../helpers/scene.js';

/**
 * `codexbar mcp` as a host runs it: the built bin/codexbar.js spawned with stdin and stdout as the protocol,
 * driven by the SDK's own client, by the MCP Inspector's CLI, and by raw lines that are not MCP. The clock is
 * the real one (a spawned process has no other), so the fake's events are dated from it.
 */

const bin = path.join(repoRoot, 'bin', 'codexbar.js');

const scene = useScene({
  setup: async (s) => {
    const token = await mcpToken(s);
    await s.serve([mcpAccount(token, new Date())]);
    seedCompileCache(s.home);
    return { token };
  },
});

function serverEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    TZ: 'UTC',
    CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
    CODEXBAR_CURSOR_API2_BASE_URL: scene.fake!.url,
  };
}

describe('the SDK client over a spawned stdio process', () => {
  it('lists the tools, calls each, gets a tool error for an unknown account, and ends when stdin closes; stderr stays empty', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp'],
      env: serverEnv(),
      cwd: scene.home,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'codexbar-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('codexbar');
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(4);

      const call = async (name: string, args: Record<string, unknown> = {}) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      const usage = await call('cursor_usage');
      const budget = await call('cursor_budget_check', { min_remaining: 50 });
      const cost = await call('cursor_cost', { days: 30, by: 'kind' });
      const models = await call('cursor_models');
      const unknown = await call('cursor_usage', { account: 'nope' });

      expect(usage.structuredContent).toMatchObject({
        provider: 'cursor',
        usage: { primary: { usedPercent: 45 } },
      });
      expect(budget.structuredContent).toMatchObject({ decision: 'ok', remainingPercent: 55 });
      expect(cost.structuredContent).toMatchObject({
        groupBy: 'kind',
        requestCounts: { reported: expect.any(Number) },
      });
      expect((models.structuredContent as { models: unknown[] }).models).toHaveLength(200);
      for (const result of [usage, budget, cost, models]) {
        expect(result.isError).toBeFalsy();
        expectNoCredential(result, scene.given.token);
      }
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/^Error: No token accounts configured for cursor\./);
      // The budget check used the snapshot cursor_usage had just fetched.
      expect(scene.fake!.requests.filter((request) => request.path === '/api/usage-summary')).toHaveLength(1);
    } finally {
      const closing = Date.now();
      await client.close();
      // The server ends when the host closes its stdin: the SDK would send SIGTERM only after 2 s.
      expect(Date.now() - closing).toBeLessThan(2000);
    }
    expect(stderr).toBe('');
  });
});

describe('lines that are not MCP', () => {
  it('get JSON-RPC errors (-32700, -32600 with the id); the server goes on, stdout holds only the protocol, and SIGTERM ends it with 0', async () => {
    const child = spawn(process.execPath, [bin, 'mcp'], { env: serverEnv(), cwd: scene.home });
    const done = outputOf(child);
    const lines: string[] = [];
    let buffered = '';
    const arrived = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (lines.length >= count) {
            child.stdout.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: Buffer) => {
          buffered += chunk.toString();
          const parts = buffered.split('\n');
          buffered = parts.pop() ?? '';
          lines.push(...parts);
          check();
        };
        child.stdout.on('data', onData);
        check();
      });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write('this is not json\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 42 })}\n`);
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const usage = {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'cursor_usage', arguments: {} },
    };
    child.stdin.write(`${JSON.stringify(usage)}\n`);
    await arrived(5);
    child.kill('SIGTERM');
    const { code, stderr } = await done;

    const messages = lines.map((line) => JSON.parse(line));
    // The two refusals come at once, in order; the requests are answered as they finish.
    const answer = (id: number) => messages.find((message) => message.id === id);
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
    expect(messages[1]).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: expect.any(String) },
    });
    expect(answer(1)).toMatchObject({ jsonrpc: '2.0', result: { serverInfo: { name: 'codexbar' } } });
    expect(answer(2)).toMatchObject({ jsonrpc: '2.0', error: { code: -32601 } });
    expect(answer(3)).toMatchObject({ result: { structuredContent: { provider: 'cursor' } } });
    // stdout carried the protocol and nothing else, a real tool call included.
    expect(lines).toHaveLength(5);
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

/**
 * The MCP Inspector's CLI when the devDependency is installed: its `build/` directory, which it must run in
 * (it reads its own package.json from its working directory's parent).
 */
function inspectorBuild(): string | undefined {
  try {
    const manifest = fileURLToPath(import.meta.resolve('@modelcontextprotocol/inspector-cli/package.json'));
    const build = path.join(path.dirname(manifest), 'build');
    return fs.existsSync(path.join(build, 'index.js')) ? build : undefined;
  } catch {
    return undefined;
  }
}
const inspectorCli = inspectorBuild();

describe.skipIf(inspectorCli === undefined)(
  'the MCP Inspector CLI (skipped: @modelcontextprotocol/inspector-cli is not installed)',
  () => {
    /** Spawned without blocking: the fake cursor.com answers from this process. */
    function inspect(args: readonly string[]) {
      const child = spawn(process.execPath, ['index.js', process.execPath, bin, 'mcp', ...args], {
        cwd: inspectorCli,
        env: serverEnv(),
      });
      child.stdin.end();
      return outputOf(child);
    }

    // One call (each run starts the Inspector and a server: about a second); the SDK client lists the tools above.
    it('calls cursor_budget_check and gets the verdict as structured content and text', async () => {
      const called = await inspect([
        '--method',
        'tools/call',
        '--tool-name',
        'cursor_budget_check',
        '--tool-arg',
        'min_remaining=60',
      ]);
      expect(called.code).toBe(0);
      const result = JSON.parse(called.stdout);
      expect(result.structuredContent).toMatchObject({ decision: 'blocked', remainingPercent: 55 });
      expect(result.content[0].text).toBe('blocked: Cursor session window has 55% left (minimum 60%)');
    });
  },
);
