import type { Api2Client } from '../api/api2/client.js';
import { fetchCurrentPeriodUsage, fetchHardLimit, fetchPlanInfo } from '../api/api2/dashboard.js';
import type { CursorClient } from '../api/client.js';
import type { AuthMe } from '../api/schemas/auth-me.js';
import type { UsageSummary } from '../api/schemas/usage-summary.js';
import { OPTIONAL_TIMEOUT_MS, REQUEST_TIMEOUT_MS, TEAM_DEADLINE_MS } from '../api/timeouts.js';
import {
  describeFailure,
  type EndpointContext,
  fetchLegacyUsage,
  fetchMe,
  fetchSandStatus,
  fetchUsageStatus,
  fetchUsageSummary,
} from '../api/usage-endpoints.js';
import { cookieCannotOpenApi2 } from '../auth/api2-access.js';
import type { SourceMode } from '../auth/resolver.js';
import type { JwtIdentity, Session } from '../auth/types.js';
import { ApiError, NotLoggedInError, ParseError } from '../errors.js';
import { usdFromCents } from '../lib/money.js';
import { rpcUsageSnapshot } from './rpc-snapshot.js';
import { buildUsageSnapshot } from './snapshot.js';
import { summarizeUsage } from './summary.js';
import { applyTeamBudget, isTeamPlan, memberEmailKey, type TeamBudget } from './team-budget.js';
import { lookupTeamBudget } from './team-lookup.js';
import { parseTeamSelection, type TeamSelection } from './team-selection.js';
import type { UsageSnapshot } from './types.js';
import { qualifiesForUsageStatus } from './unified.js';

export interface UsageTimeouts {
  /** usage-summary, the one request that may fail the run. */
  requestMs: number;
  /** auth/me, /api/usage, Grok Bot and v2/usage-status: best-effort lookups. */
  optionalMs: number;
  /** The one deadline shared by /teams and every get-team-spend page. */
  teamDeadlineMs: number;
}

const DEFAULT_USAGE_TIMEOUTS: UsageTimeouts = {
  requestMs: REQUEST_TIMEOUT_MS,
  optionalMs: OPTIONAL_TIMEOUT_MS,
  teamDeadlineMs: TEAM_DEADLINE_MS,
};

export interface CollectUsageOptions {
  client: CursorClient;
  session: Session;
  now: Date;
  timeZone: string;
  /** Verbose lines; never given a credential or another member's data. */
  log?: (line: string) => void;
  timeouts?: Partial<UsageTimeouts>;
  signal?: AbortSignal;
  /** The api2 client of the run (`setup.run`'s third argument): the rpc door, and the web door's fallback. */
  api2?: Api2Client;
  /** `--source`: `rpc` reads only api2, `web` only cursor.com, `auto` cursor.com first with api2 behind it. */
  sourceMode?: SourceMode;
}

/**
 * Which door a run reads usage through. `--source rpc` (and a session that only opens api2) reads api2's
 * Connect RPCs; otherwise cursor.com comes first, as CodexBar does. Under `auto` only, a usage-summary failure
 * that says the endpoint changed (a body that does not parse, a 404, a 5xx) falls back to api2 when the
 * session holds an access token. "Not logged in" still walks the ladder, and a timeout is only a timeout.
 */
export async function collectUsage(options: CollectUsageOptions): Promise<UsageSnapshot> {
  const { session, log } = options;
  const mode = options.sourceMode ?? 'auto';
  if (mode === 'rpc' || session.rpcOnly) return collectRpcUsage(options);
  try {
    return await collectWebUsage(options);
  } catch (error) {
    if (mode !== 'auto' || !options.api2 || session.accessToken === undefined || !endpointChanged(error)) {
      throw error;
    }
    log?.(
      `[cursor] GET /api/usage-summary failed (${describeFailure(error)}); reading usage through api2's Connect RPCs`,
    );
    try {
      return await collectRpcUsage(options);
    } catch (fallbackError) {
      // The run failed on cursor.com: that is the error to report; api2's is only a verbose line.
      log?.(`[cursor] The api2 fallback failed too (${describeFailure(fallbackError)})`);
      throw error;
    }
  }
}

/**
 * A door's budgets, and the signal its requests share. Only the door's one fatal request may fail the run:
 * `fatal` wraps it so that its failure cancels the best-effort calls still running. docs/invariants.md,
 * "Best-effort lookups never fail a run": each of those gets the optional budget, so a slow one cannot hold
 * the run.
 */
function requestPlan(options: CollectUsageOptions) {
  const timeouts = { ...DEFAULT_USAGE_TIMEOUTS, ...options.timeouts };
  const cancel = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, cancel.signal]) : cancel.signal;
  const fatal = <T>(request: Promise<T>): Promise<T> =>
    request.catch((error: unknown) => {
      cancel.abort();
      throw error;
    });
  return { timeouts, optionalMs: Math.min(timeouts.optionalMs, timeouts.requestMs), signal, fatal };
}

/** A failure that says cursor.com's usage endpoint changed shape or moved, not that the session is bad. */
function endpointChanged(error: unknown): boolean {
  if (error instanceof ParseError) return true;
  if (error instanceof NotLoggedInError || !(error instanceof ApiError) || error.transport) return false;
  return error.status === 404 || (error.status !== undefined && error.status >= 500 && error.status < 600);
}

/**
 * The rpc door: GetCurrentPeriodUsage (the one call that may fail the run), with GetPlanInfo for the plan's
 * name and GetHardLimit for an unlimited on-demand budget alongside it, best effort.
 */
async function collectRpcUsage(options: CollectUsageOptions): Promise<UsageSnapshot> {
  const { session, api2, now, timeZone, log } = options;
  if (session.accessToken === undefined || !api2) {
    throw cookieCannotOpenApi2(
      '--source rpc',
      session.description,
      '; or drop --source rpc to read usage with the cookie.',
    );
  }
  const { timeouts, optionalMs, signal, fatal } = requestPlan(options);
  const ctx = { api2, bearer: session.accessToken, signal, log };
  const usageRequest = fatal(fetchCurrentPeriodUsage(ctx, timeouts.requestMs));
  const planRequest = fetchPlanInfo(ctx, optionalMs);
  const limitRequest = fetchHardLimit(ctx, optionalMs);
  const usage = await usageRequest;
  const [planInfo, hardLimit] = await Promise.all([planRequest, limitRequest]);
  return rpcUsageSnapshot({ usage, planInfo, hardLimit, jwt: session.jwt, now, timeZone });
}

/**
 * Fetch and map everything `codexbar usage` shows. usage-summary, auth/me and get-sand-usage-status start
 * together; the team lookup starts once the summary and auth/me say it applies; /api/usage (or, for unified
 * personal memberships, v2/usage-status) follows the first three.
 * Only usage-summary can fail the run.
 */
async function collectWebUsage(options: CollectUsageOptions): Promise<UsageSnapshot> {
  const { client, session, now, timeZone, log } = options;
  const { timeouts, optionalMs, signal, fatal } = requestPlan(options);
  const ctx: EndpointContext = { client, cookieHeader: session.cookieHeader, signal, log };

  const summaryRequest = fatal(fetchUsageSummary(ctx, timeouts.requestMs));
  const meRequest = fetchMe(ctx, optionalMs);
  const sandRequest = fetchSandStatus(ctx, optionalMs);
  const teamRequest = Promise.all([summaryRequest, meRequest]).then(
    ([summary, me]) => teamBudgetFor(summary, me, ctx, options, timeouts),
    () => undefined,
  );

  const summary = await summaryRequest;
  const [me, sand] = await Promise.all([meRequest, sandRequest]);

  const unifiedPersonal = qualifiesForUsageStatus(sand, summary.limitType);
  const legacyUserId = unifiedPersonal ? undefined : legacyUsageUserId(me, session.jwt);
  if (!unifiedPersonal && legacyUserId === undefined) log?.('[cursor] GET /api/usage skipped (no user id)');
  const [legacy, usageStatus, teamBudget] = await Promise.all([
    legacyUserId === undefined ? undefined : fetchLegacyUsage(ctx, legacyUserId, optionalMs),
    unifiedPersonal ? fetchUsageStatus(ctx, optionalMs) : undefined,
    teamRequest,
  ]);

  let figures = summarizeUsage({ summary, me, legacy, jwt: session.jwt });
  if (teamBudget) figures = applyTeamBudget(figures, teamBudget);
  const snapshot = buildUsageSnapshot({ figures, sand, usageStatus, now, timeZone });
  if (teamBudget)
    snapshot.memberBudget = { used: usdFromCents(teamBudget.spendCents), limit: teamBudget.limitDollars };
  return snapshot;
}

/** `sub` from auth/me as-is, else the JWT subject's last `|` segment, lower-cased. */
function legacyUsageUserId(me: AuthMe | undefined, jwt: JwtIdentity | undefined): string | undefined {
  if (me?.sub) return me.sub;
  if (!jwt) return undefined;
  const segments = jwt.subject
    .trim()
    .split('|')
    .filter((segment) => segment !== '');
  const last = segments.at(-1) ?? jwt.userId;
  return last ? last.toLowerCase() : undefined;
}

async function teamBudgetFor(
  summary: UsageSummary,
  me: AuthMe | undefined,
  ctx: EndpointContext,
  options: CollectUsageOptions,
  timeouts: UsageTimeouts,
): Promise<TeamBudget | undefined> {
  if (!isTeamPlan(summary.membershipType, summary.limitType)) return undefined;
  // Only a fresh email from this run's auth/me can identify the member.
  const emailKey = memberEmailKey(me?.email);
  if (emailKey === undefined) {
    options.log?.('[cursor] Team budget skipped (no email from /api/auth/me)');
    return undefined;
  }
  try {
    return await lookupTeamBudget({
      ctx,
      selection: selectionFor(options.session),
      emailKey,
      deadlineMs: Math.min(timeouts.teamDeadlineMs, timeouts.requestMs),
    });
  } catch {
    return undefined;
  }
}

/** Cursor app and cursor-agent tokens never carry a team selection. */
function selectionFor(session: Session): TeamSelection {
  if (session.source === 'app' || session.source === 'agent') return {};
  return parseTeamSelection(session.cookieHeader);
}
