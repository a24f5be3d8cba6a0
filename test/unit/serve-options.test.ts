import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  parsePort,
  parseRefreshInterval,
  parseRequestTimeout,
  parseServeHost,
} from '../../src/commands/serve.js';
import { ArgumentError } from '../../src/errors.js';
import {
  resolveDashboardToken,
  resolveServeSettings,
  type ServeFlags,
  sha256,
  staleWindowSeconds,
} from '../../src/serve/settings.js';

const expectInvalid = (parse: () => unknown, message: string) => {
  expect(parse).toThrow(InvalidArgumentError);
  expect(parse).toThrow(message);
};

describe('serve flag parsers', () => {
  it.each([
    ['1', 1],
    ['8080', 8080],
    ['65535', 65535],
    [' 9000 ', 9000],
  ])('--port %j → %d', (value, port) => {
    expect(parsePort(value)).toBe(port);
  });

  it.each(['abc', '0', '65536', '-1', '80.5', '', '1e3', '0x50'])('--port %j is refused', (value) => {
    expectInvalid(() => parsePort(value), '--port must be between 1 and 65535.');
  });

  it.each([
    ['60', 60],
    ['0', 0],
    ['12.5', 12.5],
    ['.5', 0.5],
    ['86401', 86401],
  ])('--refresh-interval %j → %d (not clamped)', (value, seconds) => {
    expect(parseRefreshInterval(value)).toBe(seconds);
  });

  it.each(['later', '-1', 'inf', 'Infinity', 'nan', '', '1e999'])(
    '--refresh-interval %j is refused',
    (value) => {
      expectInvalid(
        () => parseRefreshInterval(value),
        '--refresh-interval must be a finite number of seconds',
      );
    },
  );

  it.each([
    ['30', 30],
    ['0', 0],
    ['12.5', 12.5],
    ['86400', 86400],
    ['86401', 86400],
    ['999999', 86400],
  ])('--request-timeout %j → %d (clamped to a day)', (value, seconds) => {
    expect(parseRequestTimeout(value)).toBe(seconds);
  });

  it.each(['soon', '-0.5', 'inf', 'NaN', ''])('--request-timeout %j is refused', (value) => {
    expectInvalid(() => parseRequestTimeout(value), '--request-timeout must be a finite number of seconds');
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['LOCALHOST', '127.0.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['192.168.1.20', '192.168.1.20'],
    ['255.255.255.255', '255.255.255.255'],
  ])('--host %j → %s', (value, host) => {
    expect(parseServeHost(value)).toBe(host);
  });

  it.each([
    '',
    ' ',
    '::1',
    '[::1]',
    'example.com',
    '256.1.1.1',
    '10.0.0',
    '10.0.0.01',
    '1.2.3.4.5',
    '010.1.1.1',
  ])('--host %j is refused', (value) => {
    expectInvalid(() => parseServeHost(value), "--host must be 'localhost' or an IPv4 address.");
  });
});

describe('dashboard token sources', () => {
  it('the environment variable wins over the flag, and values are trimmed', () => {
    expect(resolveDashboardToken(' flag ', { CODEXBAR_DASHBOARD_TOKEN: ' env ' })).toBe('env');
    expect(resolveDashboardToken(' flag ', {})).toBe('flag');
    expect(resolveDashboardToken(undefined, {})).toBeUndefined();
  });

  it('a blank variable or a blank flag is an error naming its source, not "no token"', () => {
    expect(() => resolveDashboardToken('flag', { CODEXBAR_DASHBOARD_TOKEN: '  ' })).toThrow(
      new ArgumentError('CODEXBAR_DASHBOARD_TOKEN must not be empty or whitespace.'),
    );
    expect(() => resolveDashboardToken('', {})).toThrow('--dashboard-token must not be empty or whitespace.');
  });
});

describe('start-up matrix', () => {
  const flags = (extra: Partial<ServeFlags>): ServeFlags => ({
    host: '127.0.0.1',
    port: 8080,
    refreshInterval: 60,
    requestTimeout: 30,
    ...extra,
  });

  it('loopback starts with or without a token; defaults are full identity and no token', () => {
    const plain = resolveServeSettings(flags({}), {});
    expect(plain).toMatchObject({
      loopback: true,
      wildcard: false,
      identity: 'full',
      tokenDigest: undefined,
    });
    const withToken = resolveServeSettings(flags({}), { CODEXBAR_DASHBOARD_TOKEN: 's3cret' });
    expect(withToken.tokenDigest).toEqual(sha256('s3cret'));
  });

  it('keeps only a digest of the token', () => {
    const settings = resolveServeSettings(flags({ dashboardToken: 'never-kept' }), {});
    expect(JSON.stringify(settings)).not.toContain('never-kept');
  });

  it.each(['0.0.0.0', '127.0.0.2', '192.168.1.20'])('non-loopback %s without a token fails', (host) => {
    expect(() => resolveServeSettings(flags({ host, allowPlainHttp: true }), {})).toThrow(
      `--dashboard-token (or CODEXBAR_DASHBOARD_TOKEN) is required for non-loopback --host '${host}'.`,
    );
  });

  it('non-loopback with a token but no --allow-plain-http fails', () => {
    expect(() => resolveServeSettings(flags({ host: '127.0.0.2', dashboardToken: 't' }), {})).toThrow(
      "Refusing to serve the dashboard token over cleartext HTTP on non-loopback --host '127.0.0.2'. Pass --allow-plain-http",
    );
  });

  it('non-loopback with a token and --allow-plain-http starts; 0.0.0.0 is the wildcard', () => {
    const env = { CODEXBAR_DASHBOARD_TOKEN: 't' };
    expect(resolveServeSettings(flags({ host: '127.0.0.2', allowPlainHttp: true }), env)).toMatchObject({
      loopback: false,
      wildcard: false,
    });
    expect(resolveServeSettings(flags({ host: '0.0.0.0', allowPlainHttp: true }), env)).toMatchObject({
      loopback: false,
      wildcard: true,
    });
  });
});

describe('stale window', () => {
  it.each([
    [0, 0],
    [1, 300],
    [60, 600],
    [300, 3000],
    [600, 3600],
    [86401, 3600],
  ])('interval %d s → %d s', (interval, window) => {
    expect(staleWindowSeconds(interval)).toBe(window);
  });
});
