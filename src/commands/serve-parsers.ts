/**
 * commander argParsers for `serve`'s number and address flags (docs/behaviour.md §29.1). Each throws
 * commander's InvalidArgumentError, so commander names the flag and the value; the message is CodexBar's.
 */
import { InvalidArgumentError } from 'commander';

const WHOLE = /^\s*\d+\s*$/;
/** Plain decimal seconds: `60`, `12.5`, `.5`, `1e3`. No sign, no `inf`, no `nan`, no hex. */
const DECIMAL = /^\s*(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const DOTTED_QUAD = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

const MAX_REQUEST_TIMEOUT_SECONDS = 86_400;

export function parsePort(value: string): number {
  const port = WHOLE.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65_535)) throw new InvalidArgumentError('--port must be between 1 and 65535.');
  return port;
}

function finiteSeconds(value: string): number {
  const seconds = DECIMAL.test(value) ? Number(value) : Number.NaN;
  return Number.isFinite(seconds) ? seconds : Number.NaN;
}

/** Any finite value ≥ 0; 0 turns the response cache off. Not clamped (CodexBar accepts 86401). */
export function parseRefreshInterval(value: string): number {
  const seconds = finiteSeconds(value);
  if (Number.isNaN(seconds)) {
    throw new InvalidArgumentError('--refresh-interval must be a finite number of seconds, 0 or more.');
  }
  return seconds;
}

/** Finite and ≥ 0; 0 means no deadline; clamped to a day. */
export function parseRequestTimeout(value: string): number {
  const seconds = finiteSeconds(value);
  if (Number.isNaN(seconds)) {
    throw new InvalidArgumentError(
      '--request-timeout must be a finite number of seconds, 0 or more (0 means no deadline).',
    );
  }
  return Math.min(seconds, MAX_REQUEST_TIMEOUT_SECONDS);
}

/** `localhost` becomes 127.0.0.1; otherwise a dotted quad with parts 0–255 and no leading zeros. */
export function parseServeHost(value: string): string {
  const host = value.trim();
  if (host.toLowerCase() === 'localhost') return '127.0.0.1';
  if (DOTTED_QUAD.test(host) && host.split('.').every((part) => Number(part) <= 255)) return host;
  throw new InvalidArgumentError("--host must be 'localhost' or an IPv4 address.");
}
