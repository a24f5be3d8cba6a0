/**
 * The MCP tests' scene: account A's Cursor app token in the HOME, and a fake cursor.com that knows A (45 %
 * used, a few priced events, the model catalog over api2). `connectMcp` starts the server in-process on the
 * SDK's linked in-memory transports and connects the SDK's own client to it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { generateEvents } from '../fake-cursor/events.js';
import { availableModelsAnswer } from '../fake-cursor/models.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from './accounts.js';
import { testIo } from './cli.js';
import { makeToken, type TestToken, writeAppToken } from './home.js';
import type { Scene } from './scene.js';

/** The catalog method on api2. */
export const MODELS_PATH = '/aiserver.v1.AiService/AvailableModels';
export const SUMMARY_PATH = '/api/usage-summary';

/** Account A, answering usage, events in the 20 days before `now`, and the model catalog. */
export function mcpAccount(token: TestToken, now: Date, overrides: Partial<FakeAccount> = {}): FakeAccount {
  const events = generateEvents({
    count: 24,
    seed: 7,
    start: new Date(now.getTime() - 20 * 86_400_000),
    end: new Date(now.getTime() - 3_600_000),
  });
  return proAccount([token.cookieValue], 'a@example.com', {
    bearers: [token.jwt],
    events: { events },
    rpc: { 'AiService/AvailableModels': { json: availableModelsAnswer() } },
    ...overrides,
  });
}

/** A's token in the scene's HOME; returns it. */
export async function mcpToken(scene: Scene): Promise<TestToken> {
  const token = await makeToken('user_mcp_a', { email: 'a@example.com' });
  writeAppToken(scene.home, token.jwt);
  return token;
}

export interface McpHarness {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** The server in-process with the scene's HOME and fake, at the clock `now`; the client connected to it. */
export async function connectMcp(
  scene: Scene,
  now: () => Date,
  options: { maxAgeMs?: number; log?: (line: string) => void } = {},
): Promise<McpHarness> {
  const { io } = testIo({ home: scene.home, now, env: { CODEXBAR_CURSOR_BASE_URL: scene.fake?.url } });
  const server = createMcpServer(
    { io, log: options.log ?? (() => {}), maxAgeMs: options.maxAgeMs ?? 60_000 },
    '0.0.0-test',
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'codexbar-test', version: '1.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  scene.defer(async () => {
    await client.close();
    await server.close();
  });
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

/** The text of a result's one text block. */
export function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error('the result has no text block');
  return block.text;
}

/** docs/invariants.md, "Never a credential shown": neither the token nor the cookie is anywhere in a result. */
export function expectNoCredential(result: unknown, token: TestToken): void {
  const text = JSON.stringify(result);
  for (const secret of [token.jwt, token.cookieValue, ...token.jwt.split('.')]) {
    expect(text).not.toContain(secret);
  }
}
