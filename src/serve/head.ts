/**
 * Request-head checks that come before routing (docs/invariants.md, "Servers safe by default"): the
 * target form, dot segments, exactly one Host and at most one Authorization header, the Host
 * allowlist that defeats DNS rebinding, then `Expect:`. Pure: it sees the method, the HTTP version, the
 * raw target and the raw header list.
 */
import type { ServeSettings } from './settings.js';

export interface RequestHead {
  method: string;
  /** `req.httpVersion`: `1.1`, `1.0`. */
  httpVersion: string;
  /** The request target exactly as sent (`req.url`). */
  target: string;
  /** Node's `rawHeaders`: name, value, name, value, … with duplicates kept. */
  rawHeaders: readonly string[];
}

export interface ValidHead {
  ok: true;
  /** Percent-decoded path, e.g. `/icons/cursor.svg`. */
  path: string;
  query: URLSearchParams;
  authorization?: string;
}

export type HeadCheck = ValidHead | { ok: false; status: 400 | 403 | 417 };

const ALWAYS_ALLOWED = new Set(['127.0.0.1', 'localhost', 'localhost.', '[::1]']);
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const BRACKETED_V6 = /^\[[0-9a-f:.]+\]$/;
const PORT = /^\d{1,5}$/;

export function checkHead(head: RequestHead, settings: ServeSettings): HeadCheck {
  const hosts = headerValues(head.rawHeaders, 'host');
  const authorizations = headerValues(head.rawHeaders, 'authorization');
  if (hosts.length !== 1 || authorizations.length > 1) return { ok: false, status: 400 };
  const target = parseTarget(head.target);
  const hostName = parseHostHeader(hosts[0]!);
  if (!target || hostName === undefined) return { ok: false, status: 400 };
  if (!hostAllowed(hostName, settings)) return { ok: false, status: 403 };
  if (!expectationMet(head)) return { ok: false, status: 417 };
  const valid: ValidHead = { ok: true, path: target.path, query: target.query };
  if (authorizations[0] !== undefined) valid.authorization = authorizations[0];
  return valid;
}

function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  }
  return values;
}

/**
 * The one expectation serve meets is `100-continue`, by answering at once (it reads no body); any other
 * (`fancy`, `100-continue, fancy`) is 417. `Expect:` is HTTP/1.1's: an HTTP/1.0 client cannot mean it,
 * so there it is ignored, as Node does.
 */
function expectationMet(head: RequestHead): boolean {
  if (head.httpVersion !== '1.1') return true;
  return headerValues(head.rawHeaders, 'expect').every(
    (value) => value.trim().toLowerCase() === '100-continue',
  );
}

/**
 * Origin-form only (`/path?query`): absolute-form (`http://host/…`), authority-form (`host:443`) and `*`
 * are refused, and so are `.`/`..` segments, even percent-encoded, so no path can climb anywhere.
 */
function parseTarget(target: string): { path: string; query: URLSearchParams } | undefined {
  if (!target.startsWith('/') || target.includes('#')) return undefined;
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '.' || segment === '..') return undefined;
    segments.push(segment);
  }
  const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
  return { path: segments.join('/'), query };
}

/** `name[:port]` or `[v6][:port]`, lower-cased without the port; undefined when malformed. */
export function parseHostHeader(value: string): string | undefined {
  const host = value.trim().toLowerCase();
  const closing = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  let name = host;
  if (colon > closing) {
    const port = host.slice(colon + 1);
    if (!PORT.test(port) || Number(port) > 65_535) return undefined;
    name = host.slice(0, colon);
  }
  return validHostName(name) ? name : undefined;
}

/** Checked label by label (a single pattern over the whole name could backtrack for a long time). */
function validHostName(name: string): boolean {
  if (name.startsWith('[')) return BRACKETED_V6.test(name);
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  return bare.length > 0 && bare.length <= 253 && bare.split('.').every((label) => HOST_LABEL.test(label));
}

function hostAllowed(name: string, settings: ServeSettings): boolean {
  if (ALWAYS_ALLOWED.has(name)) return true;
  if (settings.loopback) return false;
  return settings.wildcard || name === settings.host;
}
