import type { z } from 'zod';
import { ApiError, NotLoggedInError, ParseError, TimeoutError } from '../errors.js';
import type { CursorClient } from './client.js';
import { type AuthMe, authMeSchema } from './schemas/auth-me.js';
import { type LegacyUsage, legacyUsageSchema } from './schemas/legacy-usage.js';
import { type SandStatus, sandStatusSchema } from './schemas/sand-status.js';
import { type TeamSpendPage, teamSpendSchema } from './schemas/team-spend.js';
import { type TeamsResponse, teamsSchema } from './schemas/teams.js';
import { type UsageStatus, usageStatusSchema } from './schemas/usage-status.js';
import { type UsageSummary, usageSummarySchema } from './schemas/usage-summary.js';
import { OPTIONAL_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './timeouts.js';

/**
 * One function per cursor.com endpoint behind `codexbar usage`.
 * docs/invariants.md, "Best-effort lookups never fail a run": only usage-summary may fail the run; every
 * other call is best-effort: it answers undefined on any failure and tells the verbose logger why, without
 * credentials or response bodies.
 */

export interface EndpointContext {
  client: CursorClient;
  cookieHeader: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** Fatal; 401 and 403 are "not logged in" (docs/invariants.md, "Only a rejection switches credentials"). */
export function fetchUsageSummary(
  ctx: EndpointContext,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<UsageSummary> {
  return ctx.client.request({
    method: 'GET',
    path: '/api/usage-summary',
    endpoint: 'GET /api/usage-summary',
    cookieHeader: ctx.cookieHeader,
    timeoutMs,
    signal: ctx.signal,
    schema: usageSummarySchema,
  });
}

export function fetchMe(ctx: EndpointContext, timeoutMs = OPTIONAL_TIMEOUT_MS): Promise<AuthMe | undefined> {
  return bestEffort(ctx, 'GET', '/api/auth/me', authMeSchema, timeoutMs);
}

/** The id goes in the query URL-encoded (`auth0|12345` → `auth0%7C12345`). */
export function fetchLegacyUsage(
  ctx: EndpointContext,
  userId: string,
  timeoutMs = OPTIONAL_TIMEOUT_MS,
): Promise<LegacyUsage | undefined> {
  const path = `/api/usage?user=${encodeURIComponent(userId)}`;
  return bestEffort(ctx, 'GET', path, legacyUsageSchema, timeoutMs);
}

export function fetchSandStatus(
  ctx: EndpointContext,
  timeoutMs = OPTIONAL_TIMEOUT_MS,
): Promise<SandStatus | undefined> {
  return bestEffort(ctx, 'POST', '/api/dashboard/get-sand-usage-status', sandStatusSchema, timeoutMs);
}

export function fetchTeams(ctx: EndpointContext, timeoutMs: number): Promise<TeamsResponse | undefined> {
  return bestEffort(ctx, 'POST', '/api/dashboard/teams', teamsSchema, timeoutMs);
}

export interface TeamSpendPageRequest {
  teamId: number | string;
  page: number;
  pageSize: number;
}

export function fetchTeamSpendPage(
  ctx: EndpointContext,
  { teamId, page, pageSize }: TeamSpendPageRequest,
  timeoutMs: number,
): Promise<TeamSpendPage | undefined> {
  return bestEffort(ctx, 'POST', '/api/dashboard/get-team-spend', teamSpendSchema, timeoutMs, {
    body: { teamId, page, pageSize },
    endpoint: `POST /api/dashboard/get-team-spend (page ${page})`,
  });
}

export function fetchUsageStatus(
  ctx: EndpointContext,
  timeoutMs = OPTIONAL_TIMEOUT_MS,
): Promise<UsageStatus | undefined> {
  return bestEffort(ctx, 'GET', '/api/dashboard/v2/usage-status?scope=user', usageStatusSchema, timeoutMs);
}

/**
 * Messages name the endpoint as method and path without the query, unless `endpoint` says more. A POST
 * without a `body` sends `{}`.
 */
async function bestEffort<T>(
  ctx: EndpointContext,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  timeoutMs: number,
  { body, endpoint = `${method} ${path.split('?')[0]}` }: { body?: unknown; endpoint?: string } = {},
): Promise<T | undefined> {
  try {
    return await ctx.client.request({
      method,
      path,
      endpoint,
      cookieHeader: ctx.cookieHeader,
      body,
      timeoutMs,
      signal: ctx.signal,
      schema,
      // Best-effort calls never switch accounts, so a 401/403 is just another failure here.
      notLoggedInStatuses: [],
    });
  } catch (error) {
    ctx.log?.(`[cursor] ${endpoint} unavailable (${describeFailure(error)}); continuing without it`);
    return undefined;
  }
}

/** A reason safe for verbose output: never a cookie, and never a response body (it may name other members). */
export function describeFailure(error: unknown): string {
  if (error instanceof TimeoutError)
    return `timed out after ${Number((error.timeoutMs / 1000).toFixed(1))} s`;
  if (error instanceof NotLoggedInError) return `HTTP ${error.status}`;
  if (error instanceof ParseError) return 'unexpected response shape';
  if (error instanceof ApiError) return error.status !== undefined ? `HTTP ${error.status}` : error.detail;
  if (error instanceof Error && error.name === 'AbortError') return 'cancelled';
  return 'cancelled or failed';
}
