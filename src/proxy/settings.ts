/**
 * What `proxy` runs with once its flags are parsed, and the start-up rules that refuse an unsafe setup
 * (docs/invariants.md, "Servers safe by default"; docs/proxy.md): the upstream is fixed here and nowhere
 * else; a bind other than loopback needs proxy tokens and TLS (or the explicit statement that a TLS proxy
 * stands in front); the provider key comes from the environment or the config, never from argv.
 */
import { resolveOverridableUrl } from '../api/base-url.js';
import { ArgumentError, ConfigError } from '../errors.js';

const UPSTREAM_KEY_ENV = 'CODEXBAR_PROXY_UPSTREAM_KEY';
const LOOPBACK_ADDRESS = '127.0.0.1';

/** The flag values commander hands over, already parsed by src/commands/proxy.ts. */
export interface ProxyFlags {
  upstream?: string;
  host: string;
  port: number;
  passKey?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy?: boolean;
  maxStreams: number;
  /** Bytes. */
  maxBody: number;
  /** Milliseconds: from the request sent upstream to its answer's head. */
  upstreamTimeout: number;
  /** Milliseconds: the longest silence inside an answer's body. */
  idleTimeout: number;
  /** Milliseconds: SIGTERM's wait for answers in flight. */
  shutdownGrace: number;
}

/** What the config may say for `proxy` (its `proxy` object). */
export interface ProxyConfig {
  upstream?: string;
  upstreamKey?: string;
}

export interface Upstream {
  /** `https://api.openai.com/v1`, without a trailing slash. */
  base: string;
  /** `api.openai.com` or `127.0.0.1:9000`: what the ledger records. */
  host: string;
}

export type ProxyAuth =
  /** Clients present a proxy token; the provider key stays on this server. */
  | { mode: 'tokens'; upstreamKey: string }
  /** The client's Bearer is the provider key, forwarded as is and never kept. */
  | { mode: 'pass-key' };

export interface ProxySettings {
  host: string;
  port: number;
  upstream: Upstream;
  auth: ProxyAuth;
  tls?: { certFile: string; keyFile: string };
  loopback: boolean;
  maxStreams: number;
  maxBodyBytes: number;
  upstreamTimeoutMs: number;
  idleTimeoutMs: number;
  shutdownGraceMs: number;
}

function resolveUpstream(raw: string | undefined): Upstream {
  if (raw === undefined || raw.trim() === '') {
    throw new ArgumentError(
      'proxy needs an upstream: --upstream https://api.openai.com/v1 (or `proxy.upstream` in the config).',
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(raw.trim())) {
    throw new ArgumentError(
      '--upstream must not carry credentials: set CODEXBAR_PROXY_UPSTREAM_KEY instead.',
    );
  }
  const base = resolveOverridableUrl(raw, {
    variable: '--upstream',
    defaultUrl: '',
    hint: "Give the provider's https:// base URL, e.g. https://api.openai.com/v1.",
  });
  const url = new URL(raw.trim());
  if (url.search !== '' || url.hash !== '') {
    throw new ArgumentError('--upstream must not have a query or a fragment.');
  }
  return { base, host: url.host };
}

export function resolveProxySettings(
  flags: ProxyFlags,
  env: Readonly<Record<string, string | undefined>>,
  config: ProxyConfig = {},
): ProxySettings {
  const upstream = resolveUpstream(flags.upstream ?? config.upstream);
  const loopback = flags.host === LOOPBACK_ADDRESS;
  if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
    throw new ArgumentError('--tls-cert and --tls-key go together.');
  }
  const tls =
    flags.tlsCert !== undefined && flags.tlsKey !== undefined
      ? { certFile: flags.tlsCert, keyFile: flags.tlsKey }
      : undefined;
  if (tls && flags.behindTlsProxy) {
    throw new ArgumentError(
      '--behind-tls-proxy is for a proxy that terminates TLS: drop --tls-cert/--tls-key.',
    );
  }
  if (!loopback && flags.passKey) {
    throw new ArgumentError(
      `--pass-key needs the loopback --host: a proxy reachable on '${flags.host}' needs proxy tokens.`,
    );
  }
  if (!loopback && !tls && flags.behindTlsProxy !== true) {
    throw new ArgumentError(
      `Refusing cleartext HTTP on non-loopback --host '${flags.host}': pass --tls-cert and --tls-key, ` +
        'or --behind-tls-proxy when a tunnel or reverse proxy in front terminates TLS.',
    );
  }
  return {
    host: flags.host,
    port: flags.port,
    upstream,
    auth: flags.passKey ? { mode: 'pass-key' } : { mode: 'tokens', upstreamKey: upstreamKey(env, config) },
    ...(tls ? { tls } : {}),
    loopback,
    maxStreams: flags.maxStreams,
    maxBodyBytes: flags.maxBody,
    upstreamTimeoutMs: flags.upstreamTimeout,
    idleTimeoutMs: flags.idleTimeout,
    shutdownGraceMs: flags.shutdownGrace,
  };
}

/** The environment wins over the config; blank is an error, not "no key". */
function upstreamKey(env: Readonly<Record<string, string | undefined>>, config: ProxyConfig): string {
  const fromEnv = env[UPSTREAM_KEY_ENV];
  const [source, value] =
    fromEnv !== undefined
      ? [UPSTREAM_KEY_ENV, fromEnv]
      : ['the config `proxy.upstreamKey`', config.upstreamKey];
  const key = value?.trim();
  if (key === undefined) {
    throw new ConfigError(
      `proxy needs the provider key to forward with: set ${UPSTREAM_KEY_ENV}.`,
      'Or pass --pass-key to forward the key each client sends (loopback only).',
    );
  }
  if (key === '' || /[\u0000-\u001f\u007f]/.test(key)) {
    throw new ConfigError(`${source} must be a key: not empty, no control characters.`);
  }
  return key;
}
