/** Shared by the tests of the local credential sources (src/auth/sources): their input and their skips. */
import { expect } from 'vitest';
import type { SourceResult } from '../../src/auth/types.js';
import type { LocalEnvironment, Platform } from '../../src/local/environment.js';

/** What a source gets: this HOME (on Linux unless said), at `now`, with `env` on top of HOME. */
export function localEnvironment(
  home: string,
  options: { now?: Date; env?: Record<string, string>; platform?: Platform } = {},
): LocalEnvironment {
  const { now } = options;
  return {
    platform: options.platform ?? 'linux',
    env: { HOME: home, ...options.env },
    homeDir: home,
    now: now ? () => now : () => new Date(),
  };
}

/** The source was skipped for `cause`, with exactly this reason (or one matching it). */
export function expectSkip(result: SourceResult, cause: string, reason: RegExp | string): void {
  expect(result.kind).toBe('skip');
  if (result.kind !== 'skip') return;
  expect(result.cause).toBe(cause);
  if (typeof reason === 'string') expect(result.reason).toBe(reason);
  else expect(result.reason).toMatch(reason);
}
