import { describe, expect, it } from 'vitest';
import { checkHead, parseHostHeader } from '../../src/serve/head.js';
import {
  bearerAuthorized,
  resolveServeSettings,
  type ServeSettings,
  sha256,
} from '../../src/serve/settings.js';

const settingsFor = (host: string): ServeSettings =>
  resolveServeSettings(
    { host, port: 8080, refreshInterval: 60, requestTimeout: 30, allowPlainHttp: true },
    { CODEXBAR_DASHBOARD_TOKEN: 'token' },
  );
const LOOPBACK = settingsFor('127.0.0.1');
const LAN = settingsFor('192.168.1.20');
const WILDCARD = settingsFor('0.0.0.0');

const head = (target: string, headers: string[] = ['Host', '127.0.0.1:8080'], httpVersion = '1.1') => ({
  method: 'GET',
  httpVersion,
  target,
  rawHeaders: headers,
});

describe('request target', () => {
  it('origin-form targets are split into a decoded path and the query', () => {
    const check = checkHead(head('/icons/cur%73or.svg?provider=cursor&provider=all'), LOOPBACK);
    expect(check).toMatchObject({ ok: true, path: '/icons/cursor.svg' });
    expect(check.ok && check.query.getAll('provider')).toEqual(['cursor', 'all']);
  });

  it.each([
    'http://127.0.0.1:8080/usage',
    '127.0.0.1:8080',
    '*',
    '/../etc/passwd',
    '/icons/../usage',
    '/icons/%2e%2e/usage',
    '/icons/.%2E/usage',
    '/./usage',
    '/usage/.',
    '/bad%zzescape',
    '/usage#fragment',
  ])('%j is an invalid request (400)', (target) => {
    expect(checkHead(head(target), LOOPBACK)).toEqual({ ok: false, status: 400 });
  });

  it('a dot inside a name is not a dot segment', () => {
    expect(checkHead(head('/icons/..cursor.svg'), LOOPBACK)).toMatchObject({ ok: true });
  });
});

describe('Host and Authorization headers', () => {
  it('exactly one Host is required', () => {
    expect(checkHead(head('/health', []), LOOPBACK)).toEqual({ ok: false, status: 400 });
    const twice = ['Host', '127.0.0.1', 'host', '127.0.0.1'];
    expect(checkHead(head('/health', twice), LOOPBACK)).toEqual({ ok: false, status: 400 });
  });

  it('a second Authorization header is refused; one is passed on', () => {
    const one = ['Host', 'localhost', 'Authorization', 'Bearer a'];
    expect(checkHead(head('/usage', one), LOOPBACK)).toMatchObject({ ok: true, authorization: 'Bearer a' });
    const two = [...one, 'authorization', 'Bearer b'];
    expect(checkHead(head('/usage', two), LOOPBACK)).toEqual({ ok: false, status: 400 });
  });

  it.each(['127.0.0.1', '127.0.0.1:8080', 'localhost', 'LOCALHOST:1', 'localhost.', '[::1]', '[::1]:8080'])(
    'loopback name %j is always allowed',
    (host) => {
      for (const settings of [LOOPBACK, LAN, WILDCARD]) {
        expect(checkHead(head('/', ['Host', host]), settings)).toMatchObject({ ok: true });
      }
    },
  );

  it('DNS rebinding: a foreign name that resolves to 127.0.0.1 still says so in Host, and is refused', () => {
    for (const host of ['evil.example', 'evil.example:8080', '127.0.0.1.nip.io', '192.168.1.20']) {
      expect(checkHead(head('/usage', ['Host', host]), LOOPBACK)).toEqual({ ok: false, status: 403 });
    }
  });

  it('a non-loopback bind also allows its own address; the wildcard allows any valid name', () => {
    expect(checkHead(head('/', ['Host', '192.168.1.20:8080']), LAN)).toMatchObject({ ok: true });
    expect(checkHead(head('/', ['Host', 'evil.example']), LAN)).toEqual({ ok: false, status: 403 });
    expect(checkHead(head('/', ['Host', 'my-box.lan:8080']), WILDCARD)).toMatchObject({ ok: true });
  });

  it.each([
    '',
    ' ',
    'a b',
    'host:99999',
    'host:',
    'host:abc',
    '[::1',
    'exa_mple.com',
    `${'a'.repeat(64)}.com`,
  ])('a malformed Host %j is an invalid request', (host) => {
    expect(parseHostHeader(host)).toBeUndefined();
    expect(checkHead(head('/', ['Host', host]), WILDCARD)).toEqual({ ok: false, status: 400 });
  });

  it('a long hostile Host is rejected quickly (no backtracking blow-up)', () => {
    expect(parseHostHeader(`${'a'.repeat(16_000)}!`)).toBeUndefined();
  });
});

describe('Expect header', () => {
  const expecting = (...values: string[]) => ['Host', '127.0.0.1', ...values.flatMap((v) => ['Expect', v])];

  it.each([[[]], [['100-continue']], [['100-Continue ']], [['100-continue', '100-continue']]])(
    'no expectation or only 100-continue (%j) is met',
    (values) => {
      expect(checkHead(head('/health', expecting(...values)), LOOPBACK)).toMatchObject({ ok: true });
    },
  );

  it.each([[['fancy']], [['100-continue, fancy']], [['100-continue', 'fancy']], [['']]])(
    'any other expectation (%j) cannot be met: 417',
    (values) => {
      expect(checkHead(head('/health', expecting(...values)), LOOPBACK)).toEqual({ ok: false, status: 417 });
    },
  );

  it('an HTTP/1.0 request has no expectations: its Expect header is ignored', () => {
    expect(checkHead(head('/health', expecting('fancy'), '1.0'), LOOPBACK)).toMatchObject({ ok: true });
  });

  it('the Host checks come first: a forbidden or missing Host is refused as such, whatever it expects', () => {
    const evil = ['Host', 'evil.example', 'Expect', 'fancy'];
    expect(checkHead(head('/usage', evil), LOOPBACK)).toEqual({ ok: false, status: 403 });
    expect(checkHead(head('/usage', ['Expect', 'fancy']), LOOPBACK)).toEqual({ ok: false, status: 400 });
  });
});

describe('Bearer auth', () => {
  const digest = sha256('s3cret');

  it.each(['Bearer s3cret', 'bearer s3cret', 'BEARER   s3cret  ', '  Bearer s3cret'])(
    '%j is accepted',
    (value) => {
      expect(bearerAuthorized(value, digest)).toBe(true);
    },
  );

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Bearer s3cre',
    'Bearer s3cret2',
    'Basic s3cret',
    's3cret',
    'Token s3cret',
  ])('%j is refused', (value) => {
    expect(bearerAuthorized(value, digest)).toBe(false);
  });

  it('fails closed when no token is configured', () => {
    expect(bearerAuthorized('Bearer anything', undefined)).toBe(false);
  });
});
