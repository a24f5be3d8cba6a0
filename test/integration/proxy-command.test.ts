/**
 * `codexbar proxy` in-process (runCli, test/helpers/proxy.ts) in front of the fake upstream: what it refuses
 * to start with, TLS, the proxy tokens, --pass-key, --verbose, a locked ledger and shutdown.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { expectedUsage, replyText } from '../fake-upstream/server.js';
import { repoRoot } from '../helpers/cli.js';
import {
  createToken,
  dataDir,
  type ProxyHarness,
  readLedger,
  startProxyHarness,
  UPSTREAM_KEY,
} from '../helpers/proxy.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();

const CERT = path.join(repoRoot, 'fixtures', 'tls', 'cert.pem');
const KEY = path.join(repoRoot, 'fixtures', 'tls', 'key.pem');
const MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Say hello to the proxy' }] },
];
const REPLY = replyText('gpt-4.1');
const TOKEN_FORMAT = /^cbxp_[A-Za-z0-9_-]{43}$/;

function chatBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'gpt-4.1', messages: MESSAGES, stream: true, ...overrides };
}

function post(
  url: string,
  body: unknown,
  authorization: string | undefined,
  route = '/v1/chat/completions',
): Promise<Response> {
  return fetch(`${url}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(authorization !== undefined ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** The reply text of a Chat Completions SSE answer, and whether it ended with [DONE]. */
function contentOf(sse: string): { text: string; done: boolean } {
  let text = '';
  let done = false;
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const data = line.slice(6);
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    const chunk = JSON.parse(data) as { choices: { delta?: { content?: string } }[] };
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  return { text, done };
}

async function streamed(h: ProxyHarness, body = chatBody()): Promise<{ text: string; done: boolean }> {
  const res = await post(h.url, body, `Bearer ${h.token}`);
  expect(res.status).toBe(200);
  return contentOf(await res.text());
}

/**
 * Posts with undici's own client (a dispatcher of the test's, so the global one of the worker does not
 * decide) and says how the answer's body ended: 'cut' when the client saw an error, else that it ended.
 */
async function bodyEnding(
  url: string,
  token: string,
  body: unknown,
  whileStreaming?: () => Promise<unknown>,
) {
  const agent = new Agent();
  try {
    const answer = await request(`${url}/v1/chat/completions`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const ending = answer.body.text().then(
      (text) => `ended cleanly after ${text.length} chars`,
      () => 'cut',
    );
    await whileStreaming?.();
    return { status: answer.statusCode, ending: await ending };
  } finally {
    await agent.destroy();
  }
}

async function eventually<T>(read: () => T, ok: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  let value = read();
  while (!ok(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = read();
  }
  return value;
}

/** Every byte the ledger has on disk, the WAL included. */
function ledgerBytes(file: string): string {
  return ['', '-wal']
    .filter((suffix) => fs.existsSync(`${file}${suffix}`))
    .map((suffix) => fs.readFileSync(`${file}${suffix}`).toString('latin1'))
    .join('');
}

function writeConfig(proxy: Record<string, unknown>): void {
  const dir = path.join(scene.home, '.config', 'codexbar');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ version: 1, providers: [], proxy }), {
    mode: 0o600,
  });
}

describe('start-up refuses an unsafe or incomplete setup: exit 1, an Error line, nothing bound', () => {
  /** Runs `proxy` expecting a refusal; a proxy that starts anyway is stopped at once and fails the test. */
  async function refused(args: string[], env: Record<string, string | undefined> = {}) {
    let listened = false;
    const stop = new AbortController();
    const result = await scene.run(['proxy', '--port', '0', ...args], {
      env: { CODEXBAR_PROXY_UPSTREAM_KEY: UPSTREAM_KEY, ...env },
      proxyHooks: {
        stop: stop.signal,
        onListening: () => {
          listened = true;
          stop.abort();
        },
      },
    });
    expect(listened, result.stderr).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: /);
    expect(result.stderr).not.toContain('listening');
    expect(result.stderr).not.toContain(UPSTREAM_KEY);
    expect(fs.existsSync(path.join(dataDir(scene), 'byok.sqlite'))).toBe(false);
    return result.stderr;
  }
  const OPENAI = ['--upstream', 'https://api.openai.com/v1'];

  it('without --upstream (and none in the config)', async () => {
    await createToken(scene);
    expect(await refused([])).toMatch(/needs an upstream: --upstream/);
  });

  it('an http upstream that is not loopback', async () => {
    await createToken(scene);
    const stderr = await refused(['--upstream', 'http://example.com/v1']);
    expect(stderr).toMatch(
      /Refusing --upstream http:\/\/example\.com: only https:\/\/ or http:\/\/ on a loopback host/,
    );
    // Every line of it says something: no hint that names an empty default URL ("to talk to .").
    expect(stderr).not.toMatch(/talk to \.$/m);
  });

  it.each([
    ['credentials', 'https://user:pass@api.example.com/v1', /must not carry credentials/],
    ['a query', 'https://api.example.com/v1?key=abc', /must not have a query/],
    ['a fragment', 'https://api.example.com/v1#x', /must not have a query or a fragment/],
  ])('an upstream with %s', async (_what, upstream, message) => {
    await createToken(scene);
    const stderr = await refused(['--upstream', upstream]);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('pass');
  });

  it('a non-loopback --host without TLS or --behind-tls-proxy', async () => {
    await createToken(scene);
    expect(await refused([...OPENAI, '--host', '0.0.0.0'])).toMatch(
      /Refusing cleartext HTTP on non-loopback --host '0\.0\.0\.0'.*--tls-cert and --tls-key.*--behind-tls-proxy/s,
    );
  });

  it('--pass-key with a non-loopback --host, even behind a TLS proxy', async () => {
    expect(await refused([...OPENAI, '--host', '0.0.0.0', '--behind-tls-proxy', '--pass-key'])).toMatch(
      /--pass-key needs the loopback --host/,
    );
  });

  it('--tls-cert without --tls-key (and the other way round)', async () => {
    await createToken(scene);
    expect(await refused([...OPENAI, '--tls-cert', CERT])).toMatch(/--tls-cert and --tls-key go together/);
    expect(await refused([...OPENAI, '--tls-key', KEY])).toMatch(/--tls-cert and --tls-key go together/);
  });

  it('a missing --tls-cert file', async () => {
    await createToken(scene);
    const missing = path.join(scene.home, 'nope.pem');
    expect(await refused([...OPENAI, '--tls-cert', missing, '--tls-key', KEY])).toMatch(
      /--tls-cert .*nope\.pem: no such file/,
    );
  });

  it('token mode with no proxy token yet names `codexbar proxy token create`', async () => {
    expect(await refused(OPENAI)).toMatch(/no proxy token yet[\s\S]*codexbar proxy token create/);
  });

  it('token mode without CODEXBAR_PROXY_UPSTREAM_KEY', async () => {
    await createToken(scene);
    expect(await refused(OPENAI, { CODEXBAR_PROXY_UPSTREAM_KEY: undefined })).toMatch(
      /set CODEXBAR_PROXY_UPSTREAM_KEY/,
    );
  });

  it('token mode with a blank CODEXBAR_PROXY_UPSTREAM_KEY (blank is no key)', async () => {
    await createToken(scene);
    expect(await refused(OPENAI, { CODEXBAR_PROXY_UPSTREAM_KEY: '   ' })).toMatch(
      /CODEXBAR_PROXY_UPSTREAM_KEY must be a key/,
    );
  });

  it('a bad --port or --shutdown-grace', async () => {
    expect(await refused([...OPENAI, '--port', '70000'])).toMatch(/--port/);
    expect(await refused([...OPENAI, '--shutdown-grace', 'soon'])).toMatch(/--shutdown-grace/);
  });

  it('no error output carries the config key either', async () => {
    const configKey = 'sk-from-the-config-file-0123456789';
    writeConfig({ upstreamKey: configKey, upstream: 'https://u:p@api.example.com/v1' });
    await createToken(scene);
    const stderr = await refused([], { CODEXBAR_PROXY_UPSTREAM_KEY: undefined });
    expect(stderr).toMatch(/must not carry credentials/);
    expect(stderr).not.toContain(configKey);
  });
});

describe('the provider key', () => {
  it("comes from the config's proxy.upstreamKey when the environment has none", async () => {
    const configKey = 'sk-from-the-config-file-0123456789';
    writeConfig({ upstreamKey: configKey });
    const h = await startProxyHarness(scene, {
      upstreamKey: configKey,
      env: { CODEXBAR_PROXY_UPSTREAM_KEY: undefined },
    });
    expect(await streamed(h)).toEqual({ text: REPLY, done: true });
    expect(h.upstream.requests[0]?.headers.authorization).toBe(`Bearer ${configKey}`);
    const run = await h.stop();
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain(configKey);
  });

  it('CODEXBAR_PROXY_UPSTREAM_KEY wins over the config', async () => {
    writeConfig({ upstreamKey: 'sk-config-loses' });
    const h = await startProxyHarness(scene);
    expect(await streamed(h)).toEqual({ text: REPLY, done: true });
    expect(h.upstream.requests[0]?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
  });

  it('the proxy token is never what goes upstream', async () => {
    const h = await startProxyHarness(scene);
    await streamed(h);
    const sent = JSON.stringify(h.upstream.requests[0]?.headers);
    expect(sent).not.toContain(h.token);
  });
});

describe('binding and TLS', () => {
  it('--host 0.0.0.0 --behind-tls-proxy starts and answers', async () => {
    const h = await startProxyHarness(scene, { args: ['--host', '0.0.0.0', '--behind-tls-proxy'] });
    const loopback = `http://127.0.0.1:${h.proxy.port}`;
    expect(await streamed({ ...h, url: loopback })).toEqual({ text: REPLY, done: true });
    expect(h.rows()).toHaveLength(1);
    const run = await h.stop();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`listening on http://0.0.0.0:${h.proxy.port}`);
  });

  it('--tls-cert/--tls-key serve https: a stream passes and is recorded; plain http to the port fails', async () => {
    const h = await startProxyHarness(scene, { args: ['--tls-cert', CERT, '--tls-key', KEY] });
    expect(h.url).toBe(`https://127.0.0.1:${h.proxy.port}`);
    const agent = new Agent({ connect: { ca: fs.readFileSync(CERT, 'utf8') } });
    scene.defer(() => agent.close());
    const answer = await request(`${h.url}/v1/chat/completions`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` },
      body: JSON.stringify(chatBody()),
    });
    expect(answer.statusCode).toBe(200);
    expect(contentOf(await answer.body.text())).toEqual({ text: REPLY, done: true });
    expect(h.rows()).toMatchObject([{ outcome: 'completed', completed: 1, stream: 1, model: 'gpt-4.1' }]);
    // The same port in cleartext gets no answer.
    await expect(fetch(`http://127.0.0.1:${h.proxy.port}/health`)).rejects.toThrow();
    // And a client that does not trust the certificate is refused by TLS itself.
    await expect(fetch(`${h.url}/health`)).rejects.toThrow();
  });
});

describe('proxy token create | list | revoke', () => {
  const tokenFile = () => path.join(dataDir(scene), 'proxy-tokens.json');

  it('create prints the token once on stdout, the label on stderr; the file keeps only its SHA-256', async () => {
    const created = await scene.run(['proxy', 'token', 'create', '--label', 'laptop cursor']);
    expect(created.code).toBe(0);
    const token = created.stdout.trimEnd();
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(TOKEN_FORMAT);
    expect(created.stderr).toMatch(/Created proxy token [0-9a-f]{8} \(laptop cursor\)/);
    expect(created.stderr).not.toContain(token);

    const file = tokenFile();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(5));
    const digest = createHash('sha256').update(token).digest('hex');
    const stored = JSON.parse(text) as { version: number; tokens: Record<string, unknown>[] };
    expect(stored).toEqual({
      version: 1,
      tokens: [
        {
          id: expect.stringMatching(/^[0-9a-f]{8}$/),
          label: 'laptop cursor',
          createdAt: expect.any(String),
          sha256: digest,
        },
      ],
    });

    const list = await scene.run(['proxy', 'token', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(stored.tokens[0]?.id as string);
    expect(list.stdout).toContain('laptop cursor');
    expect(list.stdout).not.toContain(token);
    expect(list.stdout).not.toContain(digest);
    expect(list.stdout).not.toContain('cbxp_');
  });

  it('--json: create gives the token with its id, list never a token or a hash', async () => {
    const created = await scene.run(['proxy', 'token', 'create', '--json', '--label', 'ci']);
    expect(created.code).toBe(0);
    const row = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(row).sort()).toEqual(['createdAt', 'id', 'label', 'token']);
    expect(row.token).toMatch(TOKEN_FORMAT);
    expect(row.label).toBe('ci');
    const list = await scene.run(['proxy', 'token', 'list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([{ id: row.id, label: 'ci', createdAt: row.createdAt }]);
    expect(list.stdout).not.toContain(row.token);
    expect(list.stdout).not.toMatch(/[0-9a-f]{64}/);
  });

  it('an empty list says how to create one', async () => {
    const list = await scene.run(['proxy', 'token', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/No proxy tokens.*codexbar proxy token create/);
    const json = await scene.run(['proxy', 'token', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it('revoke removes a token; an unknown or malformed id exits 1', async () => {
    const created = JSON.parse((await scene.run(['proxy', 'token', 'create', '--json'])).stdout) as {
      id: string;
    };
    const unknown = created.id === 'deadbeef' ? 'cafebabe' : 'deadbeef';
    const missing = await scene.run(['proxy', 'token', 'revoke', unknown]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(new RegExp(`^Error: No proxy token ${unknown}`));
    const malformed = await scene.run(['proxy', 'token', 'revoke', '../x']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/8 hex digits/);
    const revoked = await scene.run(['proxy', 'token', 'revoke', created.id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked proxy token ${created.id}.\n`);
    expect(JSON.parse((await scene.run(['proxy', 'token', 'list', '--json'])).stdout)).toEqual([]);
    const again = await scene.run(['proxy', 'token', 'revoke', created.id]);
    expect(again.code).toBe(1);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['a control character', 'cur\u001bsor'],
    ['longer than 100 characters', 'x'.repeat(101)],
  ])('a label that is %s is refused, and no token is made', async (_what, label) => {
    const created = await scene.run(['proxy', 'token', 'create', '--label', label]);
    expect(created.code).toBe(1);
    expect(created.stdout).toBe('');
    expect(created.stderr).toMatch(/^Error: --label must be 1 to 100 printable characters/);
    expect(created.stderr).not.toContain('\u001b');
    expect(fs.existsSync(tokenFile())).toBe(false);
  });

  it('two creates at once keep both tokens', async () => {
    const [a, b] = await Promise.all([
      scene.run(['proxy', 'token', 'create', '--label', 'a']),
      scene.run(['proxy', 'token', 'create', '--label', 'b']),
    ]);
    expect([a?.code, b?.code]).toEqual([0, 0]);
    const stored = JSON.parse(fs.readFileSync(tokenFile(), 'utf8')) as { tokens: { sha256: string }[] };
    const digests = stored.tokens.map((entry) => entry.sha256).sort();
    const expected = [a, b]
      .map((run) => createHash('sha256').update(run!.stdout.trim()).digest('hex'))
      .sort();
    expect(digests).toEqual(expected);
  });

  it('a running proxy takes a new token and stops taking a revoked one within a second', async () => {
    let clock = Date.now();
    const h = await startProxyHarness(scene, { hooks: { now: () => clock } });
    const second = JSON.parse((await scene.run(['proxy', 'token', 'create', '--json'])).stdout) as {
      id: string;
      token: string;
    };
    clock += 1001;
    expect((await post(h.url, chatBody({ stream: false }), `Bearer ${second.token}`)).status).toBe(200);
    expect((await scene.run(['proxy', 'token', 'revoke', second.id])).code).toBe(0);
    clock += 1001;
    const refused = await post(h.url, chatBody({ stream: false }), `Bearer ${second.token}`);
    expect(refused.status).toBe(401);
    expect(h.upstream.requests).toHaveLength(1);
    // The first token still works.
    expect((await post(h.url, chatBody({ stream: false }), `Bearer ${h.token}`)).status).toBe(200);
  });
});

describe('authentication', () => {
  it.each([
    ['no Authorization', undefined],
    ['a wrong token', 'Bearer cbxp_wrong'],
    ['the provider key itself', `Bearer ${UPSTREAM_KEY}`],
    ['a token without Bearer', 'TOKEN'],
  ])('%s gets 401 and nothing goes upstream', async (_what, authorization) => {
    const h = await startProxyHarness(scene);
    const res = await post(h.url, chatBody(), authorization === 'TOKEN' ? h.token : authorization);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    await res.text();
    expect(h.upstream.requests).toHaveLength(0);
    expect(h.rows()).toHaveLength(0);
  });
});

describe('--pass-key', () => {
  const CLIENT_KEY = 'sk-client-own-key-9876543210abcdef';

  it("forwards the client's Bearer as is, refuses a request without one, and never keeps or logs it", async () => {
    const h = await startProxyHarness(scene, {
      args: ['--pass-key', '--verbose'],
      upstreamKey: CLIENT_KEY,
      env: { CODEXBAR_PROXY_UPSTREAM_KEY: undefined },
    });
    const ok = await post(h.url, chatBody(), `Bearer ${CLIENT_KEY}`);
    expect(ok.status).toBe(200);
    expect(contentOf(await ok.text())).toEqual({ text: REPLY, done: true });
    expect(h.upstream.requests[0]?.headers.authorization).toBe(`Bearer ${CLIENT_KEY}`);

    const none = await post(h.url, chatBody(), undefined);
    expect(none.status).toBe(401);
    await none.text();
    expect(h.upstream.requests).toHaveLength(1);

    // A wrong key is the upstream's to refuse: its 401 passes, and is recorded.
    const wrong = await post(h.url, chatBody({ stream: false }), 'Bearer sk-wrong');
    expect(wrong.status).toBe(401);
    await wrong.text();

    const run = await h.stop();
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('passing the client key');
    expect(run.stderr).toMatch(/\[proxy\] POST chat gpt-4\.1 200 completed/);
    expect(run.stderr).not.toContain(CLIENT_KEY);
    expect(run.stderr).not.toContain('sk-wrong');
    const rows = readLedger(h.ledgerFile);
    expect(rows.map((r) => r.status)).toEqual([200, 401]);
    expect(ledgerBytes(h.ledgerFile)).not.toContain(CLIENT_KEY);
    expect(ledgerBytes(h.ledgerFile)).not.toContain('sk-wrong');
  });
});

describe('the other routes', () => {
  it('GET /v1/models is passed through with the provider key, and adds no row', async () => {
    const h = await startProxyHarness(scene);
    const res = await fetch(`${h.url}/v1/models`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(res.status).toBe(200);
    const list = (await res.json()) as { object: string; data: unknown[] };
    expect(list.object).toBe('list');
    expect(list.data.length).toBeGreaterThan(0);
    expect(h.upstream.requests).toMatchObject([
      { method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${UPSTREAM_KEY}` } },
    ]);
    const unauthorized = await fetch(`${h.url}/models`);
    expect(unauthorized.status).toBe(401);
    expect(h.upstream.requests).toHaveLength(1);
    expect(h.rows()).toHaveLength(0);
  });

  it('GET and HEAD /health answer without a credential and without the upstream', async () => {
    const h = await startProxyHarness(scene);
    const get = await fetch(`${h.url}/health`);
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ status: 'ok' });
    const head = await fetch(`${h.url}/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(h.upstream.requests).toHaveLength(0);
  });

  it('an unknown path is 404 and a known one with another method 405, with no upstream request', async () => {
    const h = await startProxyHarness(scene);
    const auth = { authorization: `Bearer ${h.token}` };
    expect((await fetch(`${h.url}/v1/embeddings`, { method: 'POST', headers: auth })).status).toBe(404);
    expect((await fetch(`${h.url}/v1/chat/completions`, { headers: auth })).status).toBe(405);
    expect(h.upstream.requests).toHaveLength(0);
  });
});

describe('--verbose', () => {
  it('one line per request: route, model, status, outcome, token counts and time', async () => {
    const h = await startProxyHarness(scene, { args: ['--verbose'] });
    const body = chatBody();
    expect(await streamed(h, body)).toEqual({ text: REPLY, done: true });
    const answer = await post(h.url, chatBody({ model: 'error-500', stream: false }), `Bearer ${h.token}`);
    expect(answer.status).toBe(500);
    await answer.text();
    const run = await h.stop();
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('[proxy] '));
    expect(lines).toHaveLength(2);
    const usage = expectedUsage(body)!;
    expect(lines[0]).toBe(
      `[proxy] POST chat gpt-4.1 200 completed stream ${usage.promptTokens} in (${usage.cachedTokens} cached) ` +
        `${usage.completionTokens} out (${usage.reasoningTokens} reasoning) ${lines[0]?.split(' ').at(-1)}`,
    );
    expect(lines[0]).toMatch(/ \d+ms$/);
    expect(lines[1]).toMatch(/^\[proxy\] POST chat error-500 500 completed( no usage seen)? \d+ms$/);
    // Never the prompt or a credential.
    expect(run.stderr).not.toContain('Say hello');
    expect(run.stderr).not.toContain(h.token);
    expect(run.stderr).not.toContain(UPSTREAM_KEY);
  });

  it('a model name with control characters is printed with them made visible', async () => {
    const h = await startProxyHarness(scene, { args: ['--verbose'] });
    const res = await post(
      h.url,
      chatBody({ model: 'gpt\u001b[31m\u0007x', stream: false }),
      `Bearer ${h.token}`,
    );
    expect(res.status).toBe(200);
    await res.text();
    const run = await h.stop();
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    const line = run.stderr.split('\n').find((l) => l.startsWith('[proxy] POST chat'));
    expect(line).toMatch(/gpt.{1,4}\[31m.{1,4}x 200 completed/);
  });

  it('without --verbose, no request line', async () => {
    const h = await startProxyHarness(scene);
    await streamed(h);
    const run = await h.stop();
    expect(run.stderr).not.toContain('[proxy] POST');
  });
});

describe('a locked ledger never breaks the pass-through', () => {
  it('the answer completes, the failure is said by its code, and the row is written once the lock goes', async () => {
    const h = await startProxyHarness(scene, { hooks: { ledgerRetryMs: 50 } });
    const other = new Database(h.ledgerFile);
    scene.defer(() => other.close());
    other.exec('BEGIN EXCLUSIVE');
    const body = chatBody({ model: 'gpt-4.1', user: 'user-secret-root' });
    expect(await streamed(h, body)).toEqual({ text: REPLY, done: true });
    expect(h.rows()).toHaveLength(0);
    other.exec('COMMIT');
    const rows = await eventually(
      () => h.rows(),
      (r) => r.length === 1,
      3000,
    );
    const usage = expectedUsage(body)!;
    expect(rows).toMatchObject([
      {
        outcome: 'completed',
        completed: 1,
        prompt_tokens: usage.promptTokens,
        completion_tokens: usage.completionTokens,
      },
    ]);
    const run = await h.stop();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/cannot write the ledger \(SQLITE_BUSY\)/);
    expect(run.stderr).toMatch(/the ledger is written again/);
    expect(run.stderr).not.toContain('gpt-4.1');
    expect(run.stderr).not.toContain('user-secret-root');
    expect(run.stderr).not.toContain('Say hello');
  });
});

describe('an answer the upstream cuts short', () => {
  it('is cut for the client too, never ended cleanly, and recorded as upstream-cut', async () => {
    const h = await startProxyHarness(scene);
    expect(await bodyEnding(h.url, h.token, chatBody({ model: 'cut' }))).toEqual({
      status: 200,
      ending: 'cut',
    });
    expect(h.rows()).toMatchObject([{ model: 'cut', outcome: 'upstream-cut', completed: 0 }]);
  });
});

describe('stopping (SIGTERM in-process)', () => {
  it('an answer in flight finishes for its client, the run exits 0 and the row is complete', async () => {
    const h = await startProxyHarness(scene);
    const body = chatBody({ model: 'slow', fake_delay_ms: 40 });
    const res = await post(h.url, body, `Bearer ${h.token}`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const stopping = h.stop();
    // New connections are refused once stopping.
    await expect(fetch(`${h.url}/health`)).rejects.toThrow();
    let text = Buffer.from(first.value!).toString('utf8');
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += Buffer.from(next.value).toString('utf8');
    }
    expect(contentOf(text)).toEqual({ text: replyText('slow'), done: true });
    const run = await stopping;
    expect(run.code).toBe(0);
    expect(h.rows()).toMatchObject([
      {
        model: 'slow',
        outcome: 'completed',
        completed: 1,
        prompt_tokens: expectedUsage(body)!.promptTokens,
      },
    ]);
  });

  it('with --shutdown-grace 0s a stream in flight is cut, never ended cleanly, and recorded as partial', async () => {
    const h = await startProxyHarness(scene, { args: ['--shutdown-grace', '0s'] });
    let took = 0;
    const answer = await bodyEnding(
      h.url,
      h.token,
      chatBody({ model: 'slow', fake_delay_ms: 2000 }),
      async () => {
        await h.upstream.waitForRequests(1);
        const started = Date.now();
        expect((await h.stop()).code).toBe(0);
        took = Date.now() - started;
      },
    );
    expect(took).toBeLessThan(1500);
    expect(answer).toEqual({ status: 200, ending: 'cut' });
    const rows = h.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'slow', completed: 0, status: 200 });
    expect(rows[0]?.outcome).not.toBe('completed');
    await h.upstream.closed(0);
    expect(h.upstream.requests[0]?.aborted).toBe(true);
  });
});
