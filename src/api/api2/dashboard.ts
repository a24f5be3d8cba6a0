/**
 * One function per api2 DashboardService method behind `usage --source rpc` (docs/api2.md). As for
 * cursor.com (docs/invariants.md, "Best-effort lookups never fail a run"), only GetCurrentPeriodUsage may
 * fail the run; GetPlanInfo and GetHardLimit answer undefined on any failure and tell the verbose logger why,
 * without the token or the body. A `permission_denied` on them means the method does not apply to this
 * account (a team method on a personal plan), which is said as such rather than as a failure.
 */
import type { z } from 'zod';
import { OPTIONAL_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../timeouts.js';
import { describeFailure } from '../usage-endpoints.js';
import { type Api2Client, Api2DeniedError, rpcPath } from './client.js';
import { type CurrentPeriodUsage, currentPeriodUsageSchema } from './schemas/current-period-usage.js';
import { type HardLimit, hardLimitSchema } from './schemas/hard-limit.js';
import { type PlanInfo, planInfoSchema } from './schemas/plan-info.js';

export interface Api2Context {
  api2: Api2Client;
  /** The session's access token; never logged. */
  bearer: string;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

/** Fatal: a malformed answer is a ParseError naming the method; `unauthenticated` is "not logged in". */
export function fetchCurrentPeriodUsage(
  ctx: Api2Context,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<CurrentPeriodUsage> {
  return call(ctx, 'GetCurrentPeriodUsage', currentPeriodUsageSchema, timeoutMs);
}

export function fetchPlanInfo(
  ctx: Api2Context,
  timeoutMs = OPTIONAL_TIMEOUT_MS,
): Promise<PlanInfo | undefined> {
  return bestEffort(ctx, 'GetPlanInfo', planInfoSchema, timeoutMs);
}

export function fetchHardLimit(
  ctx: Api2Context,
  timeoutMs = OPTIONAL_TIMEOUT_MS,
): Promise<HardLimit | undefined> {
  return bestEffort(ctx, 'GetHardLimit', hardLimitSchema, timeoutMs);
}

/** Every DashboardService method the door asks takes an empty request. */
function call<T>(ctx: Api2Context, method: string, schema: z.ZodType<T>, timeoutMs: number): Promise<T> {
  return ctx.api2.request({
    path: rpcPath('DashboardService', method),
    bearer: ctx.bearer,
    body: {},
    timeoutMs,
    signal: ctx.signal,
    schema,
  });
}

async function bestEffort<T>(
  ctx: Api2Context,
  method: string,
  schema: z.ZodType<T>,
  timeoutMs: number,
): Promise<T | undefined> {
  try {
    return await call(ctx, method, schema, timeoutMs);
  } catch (error) {
    const path = rpcPath('DashboardService', method);
    if (error instanceof Api2DeniedError) ctx.log?.(`[cursor] POST ${path} does not apply to this account`);
    else ctx.log?.(`[cursor] POST ${path} unavailable (${describeFailure(error)}); continuing without it`);
    return undefined;
  }
}
