/**
 * Where the Admin API key comes from, and the shape check that refuses a wrong one before any request.
 * docs/invariants.md, "Never a credential shown": the key is never taken from argv and never echoed;
 * errors name its source.
 */
import { AdminKeyShapeError, MissingAdminKeyError } from './errors.js';

export type AdminKeySource = '--api-key-stdin' | 'CURSOR_ADMIN_API_KEY' | 'the config file';

export interface AdminKey {
  value: string;
  source: AdminKeySource;
}

export interface AdminKeyInputs {
  /** The line read for --api-key-stdin, when the flag was given. */
  stdinLine?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** providers[cursor].apiKey, cleaned. */
  configKey?: string;
}

/** The documented prefixes: `key_…` (team admin keys), `crsr_…` (newer team keys). */
const KEY_SHAPE = /^(?:key|crsr)_[A-Za-z0-9_-]+$/;
const MIN_KEY_LENGTH = 20;
const MAX_KEY_LENGTH = 512;

/**
 * A conservative check: one of the documented prefixes, then only letters, digits, `_` and `-`, 20 to
 * 512 characters. That refuses what people paste by mistake (a cookie header, a `Basic …` or `Bearer …`
 * header, a JWT, a key with a trailing space or a colon, which would break Basic auth) without sending it.
 */
export function checkAdminKeyShape(value: string, source: AdminKeySource): void {
  let problem: string | undefined;
  if (value.length < MIN_KEY_LENGTH) problem = `it is shorter than ${MIN_KEY_LENGTH} characters`;
  else if (value.length > MAX_KEY_LENGTH) problem = `it is longer than ${MAX_KEY_LENGTH} characters`;
  else if (!/^(?:key|crsr)_/.test(value)) problem = 'it does not start with key_ or crsr_';
  else if (!KEY_SHAPE.test(value)) problem = 'it holds characters other than letters, digits, _ and -';
  if (problem) throw new AdminKeyShapeError(source, problem);
}

/** `--api-key-stdin`, then CURSOR_ADMIN_API_KEY, then the config file; blank values count as unset. */
export function resolveAdminKey(inputs: AdminKeyInputs): AdminKey {
  const candidates: Array<[string | undefined, AdminKeySource]> = [
    [inputs.stdinLine, '--api-key-stdin'],
    [inputs.env.CURSOR_ADMIN_API_KEY, 'CURSOR_ADMIN_API_KEY'],
    [inputs.configKey, 'the config file'],
  ];
  for (const [raw, source] of candidates) {
    const value = raw?.trim();
    if (value === undefined || value === '') {
      // An explicit --api-key-stdin with nothing on stdin is an error, not a reason to look elsewhere.
      if (source === '--api-key-stdin' && raw !== undefined) {
        throw new AdminKeyShapeError(source, 'stdin held no key');
      }
      continue;
    }
    checkAdminKeyShape(value, source);
    return { value, source };
  }
  throw new MissingAdminKeyError();
}

/** Longer input than this cannot be a key; reading stops there. */
const MAX_LINE_BYTES = 4096;

/** The first line of stdin (up to a newline or the end), without its line ending. */
export async function readFirstLine(source: AsyncIterable<string | Buffer | Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of source) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const newline = text.indexOf('\n');
    if (newline >= 0) {
      text = text.slice(0, newline);
      break;
    }
    if (text.length > MAX_LINE_BYTES) break;
  }
  return text.replace(/\r$/, '');
}
