/**
 * The BUILT `codexbar proxy` in its own process, for what only a real process shows: a SIGKILL mid-stream
 * loses no row of an answer that ended (the rows are in the WAL), and SIGTERM lets an answer in flight finish
 * and exits 0. Everything else about the proxy runs in-process (proxy-command.test.ts). Needs `npm run build`.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, expect, it } from 'vitest';
import { type FakeUpstream, replyText, startFakeUpstream } from '../fake-upstream/server.js';
import { builtCliExists, type SpawnResult, startCli } from '../helpers/cli.js';
import { createToken, dataDir, readLedger, UPSTREAM_KEY } from '../helpers/proxy.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
beforeAll(() => {
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: run `npm run build` before these tests');
});

const MESSAGES = [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }];

interface ProxyProcess {
  child: ChildProcess;
  url: string;
  token: string;
  upstream: FakeUpstream;
  result: Promise<SpawnResult>;
}

/** The real process in the scene's HOME, with a proxy token made there first; resolves at its banner. */
async function startProxyProcess(): Promise<ProxyProcess> {
  const upstream = await startFakeUpstream({ key: UPSTREAM_KEY });
  scene.defer(() => upstream.close());
  const token = await createToken(scene);
  const { child, result } = startCli(['proxy', '--upstream', upstream.url, '--port', '0'], {
    home: scene.home,
    env: { CODEXBAR_PROXY_UPSTREAM_KEY: UPSTREAM_KEY },
  });
  scene.defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await result;
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: string | Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void result.then((r) => reject(new Error(`proxy exited (${r.code}) before listening: ${r.stderr}`)));
  });
  return { child, url, token, upstream, result };
}

function post(p: ProxyProcess, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${p.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
    body: JSON.stringify({ messages: MESSAGES, stream: true, ...body }),
  });
}

/** A started stream: its first bytes have arrived, the rest is read on `rest()`. */
async function startStream(p: ProxyProcess, body: Record<string, unknown>) {
  const res = await post(p, body);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  const decoder = new TextDecoder();
  let text = decoder.decode(first.value, { stream: true });
  return {
    async rest(): Promise<string> {
      for (;;) {
        const next = await reader.read();
        if (next.done) return text + decoder.decode();
        text += decoder.decode(next.value, { stream: true });
      }
    },
  };
}

function replyOf(sse: string): string {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices)
    .map((choices) => choices[0]?.delta?.content ?? '')
    .join('');
}

it('SIGKILL mid-stream loses no row of an answer that ended, and leaves an intact ledger', async () => {
  const p = await startProxyProcess();
  for (let i = 0; i < 3; i++) {
    const res = await post(p, { model: 'gpt-4.1' });
    expect(res.status).toBe(200);
    expect(replyOf(await res.text())).toBe(replyText('gpt-4.1'));
  }
  const stream = await startStream(p, { model: 'slow', fake_delay_ms: 1000 });
  p.child.kill('SIGKILL');
  const run = await p.result;
  expect(run.signal).toBe('SIGKILL');
  // Whatever the client makes of the closed socket, it never got the end of the answer.
  const seen = await stream.rest().catch(() => '');
  expect(seen).not.toContain('[DONE]');

  const file = path.join(dataDir(scene), 'byok.sqlite');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
  const rows = readLedger(file);
  // The killed stream may have no row (it never ended); the three that ended all do, whole.
  expect(rows.filter((row) => row.completed === 1)).toHaveLength(3);
  expect(rows.length).toBeLessThanOrEqual(4);
  for (const row of rows.filter((r) => r.completed === 1)) {
    expect(row).toMatchObject({ model: 'gpt-4.1', outcome: 'completed', status: 200, stream: 1 });
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.completion_tokens).toBe(9);
  }
});

it('SIGTERM lets an answer in flight finish for its client, records it and exits 0', async () => {
  const p = await startProxyProcess();
  const stream = await startStream(p, { model: 'slow', fake_delay_ms: 60 });
  p.child.kill('SIGTERM');
  expect(replyOf(await stream.rest())).toBe(replyText('slow'));
  const run = await p.result;
  expect(run.signal).toBeNull();
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  const rows = readLedger(path.join(dataDir(scene), 'byok.sqlite'));
  expect(rows).toMatchObject([{ model: 'slow', outcome: 'completed', completed: 1, status: 200 }]);
  expect(p.upstream.requests[0]?.aborted).toBe(false);
});
