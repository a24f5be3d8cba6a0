import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableModelsAnswer, PRICED_MODELS, UNPRICED_MODELS } from '../fake-cursor/models.js';
import type { FakeAccount, FakeResponse } from '../fake-cursor/server.js';
import { makeToken, type TestToken, writeAppToken } from '../helpers/home.js';
import { modelsOutputSchema } from '../helpers/json-rows/models.js';
import { useScene } from '../helpers/scene.js';

const METHOD = 'POST /aiserver.v1.AiService/AvailableModels';
const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;

const scene = useScene({
  now: NOW,
  frozen: true,
  setup: async (s) => {
    const token = await makeToken('user_models');
    writeAppToken(s.home, token.jwt);
    return { token };
  },
});

function account(token: TestToken, answer: FakeResponse | ((attempt: number) => FakeResponse)): FakeAccount {
  const handler = typeof answer === 'function' ? (_req: unknown, attempt: number) => answer(attempt) : answer;
  return {
    cookies: [token.cookieValue],
    bearers: [token.jwt],
    rpc: { 'AiService/AvailableModels': handler },
  };
}

async function serveModels(answer: FakeResponse = { json: availableModelsAnswer() }) {
  return scene.serve([account(scene.given.token, answer)]);
}

function models(args: string[] = [], now = NOW) {
  return scene.run(['models', ...args], {
    now,
    env: { CODEXBAR_CURSOR_API2_BASE_URL: scene.fake?.url },
  });
}

const catalogRequests = () =>
  scene.fake?.requests.filter((r) => r.path === '/aiserver.v1.AiService/AvailableModels') ?? [];

describe('codexbar models', () => {
  it('text: one row per model with Max mode and list prices; unpriced models say so and are counted', async () => {
    await serveModels();
    const result = await models();

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sonnet = result.stdout.split('\n').find((line) => line.includes('claude-4.5-sonnet-thinking'));
    expect(sonnet).toMatch(/│ yes +│ +\$3\.00 │ +\$15\.00 │ +\$3\.75 │ +\$0\.30 │/);
    const auto = result.stdout.split('\n').find((line) => line.includes('│ default '));
    expect(auto).toContain('Auto');
    const kimi = result.stdout.split('\n').find((line) => line.includes('kimi-k2-instruct'));
    expect(kimi).toContain('no list price');
    expect(kimi).not.toContain('$0');
    const unpriced = 200 - PRICED_MODELS.length;
    expect(result.stdout).toContain(`\n${unpriced} of 200 models have no list price\n`);
    expect(result.stdout).not.toMatch(/\$0\.00\b/);
    expect(result.stdout).not.toContain('cached');
    // The request was an AvailableModels call with a Bearer token and no cookie.
    const [request] = catalogRequests();
    expect(request?.headers.authorization).toBe(`Bearer ${scene.given.token.jwt}`);
    expect(request?.headers.cookie).toBeUndefined();
  });

  it('--json: an array, listPrice null (never zeros) for an unpriced model', async () => {
    await serveModels();
    const result = await models(['--json']);

    expect(result.code).toBe(0);
    const rows = modelsOutputSchema.parse(JSON.parse(result.stdout)) as Array<{
      name: string;
      listPrice: unknown;
    }>;
    expect(rows).toHaveLength(200);
    expect(rows.find((row) => row.name === 'gpt-5')).toEqual({
      name: 'gpt-5',
      displayName: 'gpt-5',
      serverModelName: 'gpt-5',
      supportsMaxMode: true,
      supportsNonMaxMode: true,
      listPrice: expect.objectContaining({ currency: 'USD', unit: 'per 1M tokens', priceKey: 'gpt-5' }),
      fetchedAt: '2026-11-20T12:00:00Z',
    });
    for (const name of UNPRICED_MODELS) {
      expect(rows.find((row) => row.name === name)?.listPrice).toBeNull();
    }
    expect(rows.filter((row) => row.listPrice !== null)).toHaveLength(PRICED_MODELS.length);
  });

  it('a cached answer younger than 24 h is used without a request, and says so', async () => {
    await serveModels();
    await models();
    expect(catalogRequests()).toHaveLength(1);

    const later = await models(['--verbose'], new Date(NOW.getTime() + 24 * HOUR - 1000));
    expect(later.code).toBe(0);
    expect(catalogRequests()).toHaveLength(1);
    expect(later.stdout).toContain('(cached 23h 59m 59s ago)');
    expect(later.stderr).toContain('[cursor] Model catalog from the cache, fetched 23h 59m 59s ago');
  });

  it('a cached answer 24 h old, or --refresh, is fetched again', async () => {
    await serveModels();
    await models();
    await models([], new Date(NOW.getTime() + 24 * HOUR));
    expect(catalogRequests()).toHaveLength(2);
    await models(['--refresh'], new Date(NOW.getTime() + 25 * HOUR));
    expect(catalogRequests()).toHaveLength(3);
    const fresh = await models([], new Date(NOW.getTime() + 25 * HOUR));
    expect(catalogRequests()).toHaveLength(3);
    expect(fresh.stdout).toContain('(cached 0s ago)');
  });

  it('the cache is 0600 in 0700 and cache clear --models (and --all) removes it', async () => {
    await serveModels();
    await models();
    const dir = path.join(scene.home, '.cache', 'codexbar', 'models');
    const [file] = fs.readdirSync(dir);
    expect(file).toMatch(/^[0-9a-f]{32}\.json$/);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dir, file!), 'utf8')).not.toContain(scene.given.token.jwt);

    const cleared = await scene.run(['cache', 'clear', '--models']);
    expect(cleared.stdout).toBe('models: cleared (all providers)\n');
    expect(fs.existsSync(dir)).toBe(false);
    await models();
    expect(catalogRequests()).toHaveLength(2);
  });

  it.each([
    ['corrupt', 'not json{'],
    ['oversized', `${' '.repeat(8 * 1024 * 1024 + 1)}{}`],
    ['wrong shape', '{"version":1,"answer":{"models":"many"}}'],
  ])('a %s cache file is ignored and the catalog fetched again', async (_case, text) => {
    await serveModels();
    await models();
    const dir = path.join(scene.home, '.cache', 'codexbar', 'models');
    const [file] = fs.readdirSync(dir);
    fs.writeFileSync(path.join(dir, file!), text);

    const result = await models();
    expect(result.code).toBe(0);
    expect(catalogRequests()).toHaveLength(2);
    expect(result.stdout).not.toContain('cached');
  });

  it.each([
    ['an HTML page', { text: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } }],
    ['a wrong-typed answer', { json: { models: [{ name: 42 }] } }],
    ['a 500', { status: 500, json: { code: 'internal', message: 'Error' } }],
  ])('%s: an error naming the method, exit 1, nothing cached', async (_case, answer) => {
    await serveModels(answer as FakeResponse);
    const result = await models();

    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(METHOD);
    expect(fs.existsSync(path.join(scene.home, '.cache', 'codexbar', 'models'))).toBe(false);
  });

  it('an error in --json mode is one error row naming the method', async () => {
    await serveModels({ text: 'not json' });
    const result = await models(['--json']);
    expect(result.code).toBe(1);
    const [row] = modelsOutputSchema.parse(JSON.parse(result.stdout)) as Array<{
      error: { message: string };
    }>;
    expect(row!.error.message).toContain(METHOD);
  });

  it('only a cookie: the "needs an access token" error, and no request', async () => {
    await serveModels();
    const result = await scene.run(
      ['models', '--cookie', `WorkosCursorSessionToken=${scene.given.token.cookieValue}`],
      {
        env: { CODEXBAR_CURSOR_API2_BASE_URL: scene.fake?.url },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/needs an access token/);
    expect(catalogRequests()).toHaveLength(0);
  });

  it('control characters in a display name are escaped in text and kept escaped by JSON', async () => {
    await serveModels({
      json: availableModelsAnswer({
        models: [{ name: 'gpt-5', clientDisplayName: 'GPT\u001b]0;pwned\u0007 5' }],
        extra: 0,
      }),
    });
    const text = await models(['--refresh']);
    expect(text.stdout).toContain('GPT\\x1b]0;pwned\\x07 5');
    expect(text.stdout).not.toContain('\u001b');
    const json = await models(['--json', '--refresh']);
    expect(json.stdout).toContain('\\u001b');
    expect(text.stdout).toContain('The model has a list price');
  });

  it('shell completion offers the command and its flags (read from the commander tree)', async () => {
    const result = await scene.run(['completion', 'bash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\bmodels\b/);
    expect(result.stdout).toContain('--refresh');
  });

  it('cache clear --all clears the model catalogs last', async () => {
    await serveModels();
    await models();
    const result = await scene.run(['cache', 'clear', '--all', '--json']);
    expect(JSON.parse(result.stdout).at(-1)).toEqual({ cache: 'models', cleared: 1 });
  });
});
