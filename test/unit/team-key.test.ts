import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AdminKeyShapeError, MissingAdminKeyError } from '../../src/api/admin/errors.js';
import { checkAdminKeyShape, readFirstLine, resolveAdminKey } from '../../src/api/admin/key.js';

const KEY = 'key_0123456789abcdef0123456789abcdef';
const NEW_KEY = 'crsr_0123456789abcdefABCDEF-_xyz';

describe('Admin API key sources and shape', () => {
  it('--api-key-stdin beats CURSOR_ADMIN_API_KEY, which beats the config file', () => {
    const env = { CURSOR_ADMIN_API_KEY: NEW_KEY };
    expect(resolveAdminKey({ stdinLine: ` ${KEY} `, env, configKey: NEW_KEY })).toEqual({
      value: KEY,
      source: '--api-key-stdin',
    });
    expect(resolveAdminKey({ env, configKey: KEY })).toEqual({
      value: NEW_KEY,
      source: 'CURSOR_ADMIN_API_KEY',
    });
    expect(resolveAdminKey({ env: { CURSOR_ADMIN_API_KEY: '  ' }, configKey: KEY })).toEqual({
      value: KEY,
      source: 'the config file',
    });
  });

  it('no key at all names the three ways to give one', () => {
    const error = (() => {
      try {
        resolveAdminKey({ env: {} });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(MissingAdminKeyError);
    expect(error?.message).toBe('No Cursor Admin API key.');
    const hint = (error as MissingAdminKeyError).hint ?? '';
    for (const way of ['CURSOR_ADMIN_API_KEY', '--api-key-stdin', '"apiKey"']) expect(hint).toContain(way);
  });

  it('an empty line on stdin after --api-key-stdin is an error, not a fall-through to other sources', () => {
    expect(() => resolveAdminKey({ stdinLine: '', env: { CURSOR_ADMIN_API_KEY: KEY } })).toThrow(
      'The Cursor Admin API key from --api-key-stdin does not look like one: stdin held no key.',
    );
  });

  it.each([
    ['a short value', 'key_abc', 'it is shorter than 20 characters'],
    [
      'a cookie header',
      'WorkosCursorSessionToken=user_1%3A%3Aeyjabc',
      'it does not start with key_ or crsr_',
    ],
    [
      'a Basic header',
      `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
      'it does not start with key_ or crsr_',
    ],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', 'it does not start with key_ or crsr_'],
    ['a key with a colon', `${KEY}:secret`, 'it holds characters other than letters, digits, _ and -'],
    [
      'a key with a space inside',
      'key_0123456789 abcdef0123',
      'it holds characters other than letters, digits, _ and -',
    ],
    ['an enormous value', `key_${'a'.repeat(600)}`, 'it is longer than 512 characters'],
  ])('%s is refused without echoing it', (_label, value, problem) => {
    let error: unknown;
    try {
      checkAdminKeyShape(value, 'CURSOR_ADMIN_API_KEY');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AdminKeyShapeError);
    const message = (error as Error).message;
    expect(message).toBe(
      `The Cursor Admin API key from CURSOR_ADMIN_API_KEY does not look like one: ${problem}.`,
    );
    expect(`${message} ${(error as AdminKeyShapeError).hint}`).not.toContain(value);
  });

  it.each([KEY, NEW_KEY, `key_${'f'.repeat(64)}`])('%s has the shape of a key', (value) => {
    expect(() => checkAdminKeyShape(value, 'the config file')).not.toThrow();
  });

  it('reads only the first line of stdin, across chunks, without its line end', async () => {
    expect(await readFirstLine(Readable.from(['key_01234', `56789abcdef0123\r\nsecond line\n`]))).toBe(
      'key_0123456789abcdef0123',
    );
    expect(await readFirstLine(Readable.from([Buffer.from(KEY)]))).toBe(KEY);
    expect(await readFirstLine(Readable.from([]))).toBe('');
  });
});
