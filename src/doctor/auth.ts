import { Api2Client } from '../api/api2/client.js';
import { fetchCurrentPeriodUsage } from '../api/api2/dashboard.js';
import { resolveApi2BaseUrl } from '../api/base-url.js';
import type { CursorClient } from '../api/client.js';
import { type ProxySettings, proxySettings } from '../api/transport.js';
import { fetchUsageSummary } from '../api/usage-endpoints.js';
import { cleanCookieHeader } from '../auth/cookie.js';
import { resolveBrowserImport, resolveCursorCredentialsConfig } from '../auth/credentials.js';
import { buildLadder, type LadderApi2 } from '../auth/ladder.js';
import { type SourceLoader, sourceOrder } from '../auth/resolver.js';
import * as manual from '../auth/sources/manual.js';
import { type Session, type SourceResult, skipped } from '../auth/types.js';
import { activeIndex } from '../config/accounts.js';
import type { LoadedConfig } from '../config/config.js';
import { messageFor, NotLoggedInError, TimeoutError } from '../errors.js';
import { mapWithConcurrency } from '../lib/concurrency.js';
import type { LocalEnvironment } from '../local/environment.js';
import type { AccountFinding, AuthReport, DoorFinding, Problem, SourceFinding } from './types.js';

export interface AuthCheckInputs {
  env: LocalEnvironment;
  config: LoadedConfig;
  client: CursorClient;
  timeoutMs: number;
}

const LOGIN_FIX =
  'Run `codexbar login` and paste a Cookie header from a signed-in cursor.com tab, sign in to the Cursor app, or run `cursor-agent login`.';

/**
 * Every credential source in the order `usage` tries them, each found, skipped or
 * used and why (the ladder's own skip reasons), then a live check of the session that would be used and of
 * every token account. Only `GET /api/usage-summary` is asked: the request that decides everywhere else.
 */
export async function checkAuth(inputs: AuthCheckInputs): Promise<AuthReport> {
  const { env, config } = inputs;
  const problems: Problem[] = [];
  const credentials = resolveCursorCredentialsConfig({ config, cookieEnv: env.env.CODEXBAR_CURSOR_COOKIE });
  const mode = credentials.cookieSource;

  const api2 = api2Target(inputs);
  const automatic = buildLadder(
    env,
    'auto',
    { cookieSource: 'auto' },
    resolveBrowserImport({ config }),
    // A manual header is final and "off" uses nothing: then the key is neither listed nor exchanged.
    mode === 'auto' ? doctorApi2(inputs, api2) : undefined,
  );
  const loaded: LoadedSource[] = [
    { id: 'manual', name: 'manual cookie header', result: await manual.load(credentials) },
  ];
  for (const source of automatic)
    loaded.push({ id: source.id, name: source.name, ...(await tryLoad(source)) });
  // The platform's order, with the manual header first, as `usage` walks it.
  const order = sourceOrder(env.platform, 'auto');
  loaded.sort((a, b) => order.indexOf(a.id as never) - order.indexOf(b.id as never));

  const sources: SourceFinding[] = loaded.map(({ id, name, result, refusal }) => ({
    id,
    name,
    state: refusal?.state ?? (result.kind === 'session' ? 'found' : 'skipped'),
    detail:
      refusal?.detail ?? (result.kind === 'session' ? result.session.description : skipDetail(id, result)),
    notes: (result.notes ?? []).map((note) => note.replace(/^Skipped /, '')),
  }));
  for (const { refusal } of loaded) if (refusal?.problem) problems.push(refusal.problem);

  if (mode === 'off') {
    problems.push({
      problem: 'The config file sets "cookieSource": "off", so codexbar uses no credential at all.',
      fix: 'Set "cookieSource" to "auto" in the cursor entry of the config file.',
    });
  } else {
    await verifyLadder(inputs, loaded, sources, mode === 'manual', problems);
  }
  const accounts = await checkAccounts(inputs, problems);
  const doors =
    mode === 'off' ? offDoors() : [webDoor(sources), await rpcDoor(inputs, api2, loaded, mode === 'manual')];
  if (mode === 'manual' && credentials.origin === 'CODEXBAR_CURSOR_COOKIE' && accounts.length > 0) {
    problems.push({
      problem:
        'CODEXBAR_CURSOR_COOKIE is set, so the token accounts in the config file are not used by default.',
      fix: 'Unset CODEXBAR_CURSOR_COOKIE, or pick an account with --account <label>.',
    });
  }
  return { mode, sources, accounts, doors, problems };
}

function offDoors(): DoorFinding[] {
  const detail = 'not checked: the cookie source is off';
  return [
    { door: 'web', state: 'unchecked', detail },
    { door: 'rpc', state: 'unchecked', detail },
  ];
}

interface LoadedSource {
  id: string;
  name: string;
  result: SourceResult;
  /** A source that asked api2 itself (the API key's exchange) and was refused, or could not ask. */
  refusal?: { state: 'rejected' | 'failed'; detail: string; problem?: Problem };
}

/** Where doctor's api2 requests go, or why they cannot (an invalid `CODEXBAR_CURSOR_API2_BASE_URL`). */
type Api2Target = { baseUrl: string; proxy: ProxySettings } | { error: unknown };

function api2Target(inputs: AuthCheckInputs): Api2Target {
  try {
    const baseUrl = resolveApi2BaseUrl(inputs.env.env.CODEXBAR_CURSOR_API2_BASE_URL);
    return { baseUrl, proxy: proxySettings(inputs.env.env) };
  } catch (error) {
    return { error };
  }
}

/**
 * The api2 access of the API-key source, so doctor lists `CURSOR_API_KEY` where `usage` would try it and can
 * check the rpc door with it. Never a token refresh: doctor changes nothing, so no rotation warning can arise.
 * An invalid api2 base URL leaves the source out; the rpc door reports the URL.
 */
function doctorApi2(inputs: AuthCheckInputs, target: Api2Target): LadderApi2 | undefined {
  if ('error' in target) return undefined;
  const access = { ...target, timeoutMs: inputs.timeoutMs, warn: () => {} };
  return { access, allowTokenRefresh: false };
}

/** A source's answer; an exchange api2 refused or could not make is a finding, never the end of doctor. */
async function tryLoad(source: SourceLoader): Promise<Pick<LoadedSource, 'result' | 'refusal'>> {
  try {
    return { result: await source.load() };
  } catch (error) {
    const detail = messageFor(error);
    const result = skipped('not-applicable', detail);
    if (error instanceof NotLoggedInError) {
      const problem = { problem: `${detail}.`, fix: error.hint ?? LOGIN_FIX };
      return { result, refusal: { state: 'rejected', detail, problem } };
    }
    return { result, refusal: { state: 'failed', detail } };
  }
}

/** The web door is the ladder's own check: the session it used answered usage-summary. */
function webDoor(sources: readonly SourceFinding[]): DoorFinding {
  if (sources.some((source) => source.state === 'used')) {
    return { door: 'web', state: 'answers', detail: 'GET /api/usage-summary answered' };
  }
  if (sources.some((source) => source.state === 'rejected')) {
    return { door: 'web', state: 'rejected', detail: 'GET /api/usage-summary rejected every session' };
  }
  if (sources.some((source) => source.state === 'failed')) {
    return { door: 'web', state: 'failed', detail: 'GET /api/usage-summary did not answer' };
  }
  return { door: 'web', state: 'unchecked', detail: 'not checked: no session' };
}

/**
 * The rpc door: one GetCurrentPeriodUsage with the first session that holds an access token (the Cursor app's,
 * cursor-agent's, or the one the API key was exchanged for). The detail names a status or a timeout, never the
 * token or a body.
 */
async function rpcDoor(
  inputs: AuthCheckInputs,
  target: Api2Target,
  loaded: ReadonlyArray<{ result: SourceResult }>,
  manualOnly: boolean,
): Promise<DoorFinding> {
  const session = manualOnly
    ? undefined
    : loaded
        .map(({ result }) => (result.kind === 'session' ? result.session : undefined))
        .find((candidate) => candidate?.accessToken !== undefined);
  if (session?.accessToken === undefined) {
    const why = manualOnly ? 'a manual cookie header cannot open api2' : 'no access token on this machine';
    return { door: 'rpc', state: 'unchecked', detail: `not checked: ${why}` };
  }
  if ('error' in target) return { door: 'rpc', state: 'failed', detail: messageFor(target.error) };
  const api2 = new Api2Client(target);
  const endpoint = 'POST /aiserver.v1.DashboardService/GetCurrentPeriodUsage';
  try {
    await fetchCurrentPeriodUsage({ api2, bearer: session.accessToken }, inputs.timeoutMs);
    return { door: 'rpc', state: 'answers', detail: `${endpoint} answered for the ${session.description}` };
  } catch (error) {
    if (error instanceof NotLoggedInError) {
      return {
        door: 'rpc',
        state: 'rejected',
        detail: `${endpoint} rejected the ${session.description} (HTTP ${error.status})`,
      };
    }
    if (error instanceof TimeoutError) {
      return {
        door: 'rpc',
        state: 'failed',
        detail: `${endpoint}: no answer within ${error.timeoutMs / 1000} s`,
      };
    }
    return { door: 'rpc', state: 'failed', detail: messageFor(error) };
  } finally {
    await api2.close();
  }
}

function skipDetail(id: string, result: Extract<SourceResult, { kind: 'skip' }>): string {
  if (id === 'manual' && result.cause === 'not-applicable') {
    return 'none set (no CODEXBAR_CURSOR_COOKIE, token account or "cookieHeader" in the config file)';
  }
  return result.reason;
}

/** The ladder's walk, with each found session checked until one is accepted. */
async function verifyLadder(
  inputs: AuthCheckInputs,
  loaded: ReadonlyArray<{ id: string; result: SourceResult }>,
  sources: SourceFinding[],
  manualOnly: boolean,
  problems: Problem[],
): Promise<void> {
  for (const [index, { id, result }] of loaded.entries()) {
    const finding = sources[index]!;
    if (manualOnly && id !== 'manual') {
      if (finding.state === 'found') finding.detail += ' (not used: a manual header is final)';
      continue;
    }
    if (result.kind !== 'session') continue;
    if (result.session.rpcOnly) {
      // It opens api2 only: cursor.com never gets its token (the rpc door checks it).
      finding.detail += ' (opens api2 only: see the rpc door)';
      continue;
    }
    const verdict = await check(inputs, result.session);
    finding.state = verdict.state === 'accepted' ? 'used' : verdict.state;
    finding.detail = `${result.session.description}: ${verdict.detail}`;
    if (verdict.state === 'accepted') {
      const why = manualOnly ? ' (not used: a manual header is final)' : ' (not needed)';
      for (const later of sources.slice(index + 1)) {
        if (later.state === 'found') later.detail += why;
      }
      return;
    }
    if (verdict.state === 'failed') {
      problems.push({
        problem: `The ${finding.name} could not be checked: ${verdict.detail}.`,
        fix: 'Run codexbar doctor again; if it persists, check the network section above.',
      });
      return;
    }
    problems.push({
      problem: `cursor.com rejected the ${result.session.description} (${verdict.detail}).`,
      fix: result.session.final
        ? 'Replace it: `codexbar login` stores a fresh session (a manual header never falls back to another source).'
        : LOGIN_FIX,
    });
    if (result.session.final) return;
  }
  const apiOnly = loaded.some(({ result }) => result.kind === 'session' && result.session.rpcOnly);
  if (!apiOnly && !sources.some((finding) => finding.state === 'used' || finding.state === 'rejected')) {
    problems.push({ problem: 'No Cursor session was found on this machine.', fix: LOGIN_FIX });
  }
}

async function checkAccounts(inputs: AuthCheckInputs, problems: Problem[]): Promise<AccountFinding[]> {
  const data = inputs.config.cursor.tokenAccounts;
  const accounts = data?.accounts ?? [];
  const active = activeIndex(inputs.config.cursor, accounts.length);
  return mapWithConcurrency([...accounts.entries()], 4, async ([index, account]): Promise<AccountFinding> => {
    const header = cleanCookieHeader(account.token);
    const finding: AccountFinding = { label: account.label, active: index === active, state: 'empty' };
    const fix = `codexbar login --label '${account.label}'`;
    if (header === undefined) {
      problems.push({ problem: `Token account "${account.label}" has an empty token.`, fix });
      return finding;
    }
    const verdict = await check(inputs, { source: 'manual', description: '', cookieHeader: header });
    finding.state = verdict.state;
    finding.detail = verdict.detail;
    if (verdict.state === 'rejected') {
      problems.push({
        problem: `cursor.com rejected token account "${account.label}" (${verdict.detail}).`,
        fix,
      });
    }
    return finding;
  });
}

interface Verdict {
  state: 'accepted' | 'rejected' | 'failed';
  detail: string;
}

/** One usage-summary request; the reason names a status or a timeout, never a body or a credential. */
async function check(inputs: AuthCheckInputs, session: Session): Promise<Verdict> {
  try {
    await fetchUsageSummary({ client: inputs.client, cookieHeader: session.cookieHeader }, inputs.timeoutMs);
    return { state: 'accepted', detail: 'accepted by cursor.com' };
  } catch (error) {
    if (error instanceof NotLoggedInError) return { state: 'rejected', detail: `HTTP ${error.status}` };
    if (error instanceof TimeoutError)
      return { state: 'failed', detail: `no answer within ${error.timeoutMs / 1000} s` };
    return { state: 'failed', detail: messageFor(error) };
  }
}
