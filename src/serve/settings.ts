/**
 * What `serve` runs with, once its flags are parsed: the bind, the token (as a digest only, and the one
 * check a presented token gets), the refresh and timeout figures, and the start-up matrix that refuses
 * unsafe binds (docs/invariants.md, "Servers safe by default").
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ArgumentError } from '../errors.js';

export type IdentityMode = 'redacted' | 'full';

/** The flag values commander hands over, already parsed by src/commands/serve.ts. */
export interface ServeFlags {
  host: string;
  port: number;
  refreshInterval: number;
  requestTimeout: number;
  dashboardToken?: string;
  allowPlainHttp?: boolean;
  identity?: IdentityMode;
}

export interface ServeSettings {
  host: string;
  port: number;
  /** Seconds; 0 turns caching off. */
  refreshIntervalSeconds: number;
  /** Seconds; 0 means no deadline. */
  requestTimeoutSeconds: number;
  /** SHA-256 of the configured token; the token itself is not kept. */
  tokenDigest?: Buffer;
  identity: IdentityMode;
  /** Bound to 127.0.0.1: /usage and /cost need no token, and only loopback Host names are allowed. */
  loopback: boolean;
  /** Bound to 0.0.0.0: any Host is allowed. */
  wildcard: boolean;
}

const LOOPBACK_ADDRESS = '127.0.0.1';
const WILDCARD_ADDRESS = '0.0.0.0';
const TOKEN_ENV = 'CODEXBAR_DASHBOARD_TOKEN';

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

const BEARER = /^\s*bearer\s+(.*)$/is;

/**
 * Bearer auth: `Authorization: Bearer <token>` only, scheme in any case,
 * token trimmed. Both sides are SHA-256 digests compared with timingSafeEqual, so the comparison takes
 * the same time whatever the token's length or content. No configured token means nobody gets in.
 */
export function bearerAuthorized(
  authorization: string | undefined,
  tokenDigest: Buffer | undefined,
): boolean {
  if (tokenDigest === undefined || authorization === undefined) return false;
  const presented = BEARER.exec(authorization)?.[1]?.trim();
  if (!presented) return false;
  return timingSafeEqual(sha256(presented), tokenDigest);
}

/** The environment variable wins over the flag; a defined but blank value is an error, not "no token". */
export function resolveDashboardToken(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const fromEnv = env[TOKEN_ENV];
  const [source, value] = fromEnv !== undefined ? [TOKEN_ENV, fromEnv] : ['--dashboard-token', flag];
  if (value === undefined) return undefined;
  const token = value.trim();
  if (token === '') throw new ArgumentError(`${source} must not be empty or whitespace.`);
  return token;
}

/** Loopback always starts; anything else needs a token and --allow-plain-http. */
export function resolveServeSettings(
  flags: ServeFlags,
  env: Readonly<Record<string, string | undefined>>,
): ServeSettings {
  const token = resolveDashboardToken(flags.dashboardToken, env);
  const loopback = flags.host === LOOPBACK_ADDRESS;
  if (!loopback && token === undefined) {
    throw new ArgumentError(
      `--dashboard-token (or ${TOKEN_ENV}) is required for non-loopback --host '${flags.host}'.`,
    );
  }
  if (!loopback && flags.allowPlainHttp !== true) {
    throw new ArgumentError(
      `Refusing to serve the dashboard token over cleartext HTTP on non-loopback --host '${flags.host}'. ` +
        'Pass --allow-plain-http to accept that risk on a network you trust.',
    );
  }
  return {
    host: flags.host,
    port: flags.port,
    refreshIntervalSeconds: flags.refreshInterval,
    requestTimeoutSeconds: flags.requestTimeout,
    tokenDigest: token === undefined ? undefined : sha256(token),
    identity: flags.identity ?? 'full',
    loopback,
    wildcard: flags.host === WILDCARD_ADDRESS,
  };
}

/** The stale window: min(max(10 × interval, 300 s), 3600 s); nothing when caching is off. */
export function staleWindowSeconds(refreshIntervalSeconds: number): number {
  if (refreshIntervalSeconds <= 0) return 0;
  return Math.min(Math.max(10 * refreshIntervalSeconds, 300), 3600);
}
