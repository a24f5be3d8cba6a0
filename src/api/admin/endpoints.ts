/**
 * The Admin API endpoints `team` calls, each behind its family's rate limiter and the shared retry rules.
 */

import { ApiError } from '../../errors.js';
import { type RetryPolicy, withRetry } from '../../lib/retry.js';
import type { EventsPage } from '../schemas/events.js';
import type { AdminRequest, AdminRequester } from './client.js';
import type { RateLimit, RateLimiters } from './rate-limiter.js';
import { type DailyUsagePage, dailyUsageSchema } from './schemas/daily-usage.js';
import { type SpendPage, spendPageSchema } from './schemas/spend.js';
import { adminEventsPageSchema } from './schemas/usage-events.js';

export type AdminFamily = 'spend' | 'dailyUsage' | 'usageEvents';

const MINUTE_MS = 60_000;

/**
 * Cursor's documented limits per team: daily usage about 20 a minute, usage events about 60, and 20 for
 * the other endpoints.
 */
export const ADMIN_RATE_LIMITS: Readonly<Record<AdminFamily, RateLimit>> = {
  spend: { requests: 20, windowMs: MINUTE_MS },
  dailyUsage: { requests: 20, windowMs: MINUTE_MS },
  usageEvents: { requests: 60, windowMs: MINUTE_MS },
};

const DAILY_USAGE_PATH = '/teams/daily-usage-data';
/** As the client names the endpoint in errors. */
export const DAILY_USAGE_ENDPOINT = `POST ${DAILY_USAGE_PATH}`;

/** The largest page the events endpoint serves. */
export const ADMIN_EVENTS_PAGE_SIZE = 1000;
const SPEND_PAGE_SIZE = 100;
const ADMIN_TIMEOUT_MS = 30_000;

/**
 * A 429 storm slows the run but never loses a page: far more rate-limit retries than `cost` allows, and
 * a Retry-After of up to five minutes is waited out; a longer one fails at once.
 */
const ADMIN_RETRY_POLICY: Omit<RetryPolicy, 'sleep'> = {
  maxRetries: 2,
  maxRateLimitRetries: 12,
  baseDelayMs: 1000,
  maxRetryAfterMs: 5 * MINUTE_MS,
};

export interface AdminContext {
  client: AdminRequester;
  limiters: RateLimiters;
  /** Sleep and onRetry come from here; the counts default to ADMIN_RETRY_POLICY. */
  retry: Partial<RetryPolicy>;
}

/**
 * One request: wait for the family's slot, send, give the slot back with the answer, and on a 429 hold the
 * whole family (Retry-After, else one full window) before the retry asks for a slot again.
 */
function callAdmin<T>(
  context: AdminContext,
  family: AdminFamily,
  request: Omit<AdminRequest<T>, 'timeoutMs' | 'signal'>,
  signal?: AbortSignal,
): Promise<T> {
  const limiter = context.limiters.get(family);
  const policy = { ...ADMIN_RETRY_POLICY, ...context.retry };
  return withRetry(
    async () => {
      const release = await limiter.acquire(signal);
      try {
        return await context.client.request({ ...request, timeoutMs: ADMIN_TIMEOUT_MS, signal });
      } catch (error) {
        // Held no longer than a retry would wait: a longer Retry-After fails the run (docs/invariants.md,
        // "No partial total").
        if (error instanceof ApiError && error.status === 429) {
          const asked = error.retryAfterMs ?? limiter.limit.windowMs;
          limiter.holdFor(Math.min(asked, policy.maxRetryAfterMs));
        }
        throw error;
      } finally {
        // The slot counts from the answer, not the send (see rate-limiter.ts).
        release();
      }
    },
    policy,
    signal,
  );
}

export function fetchSpendPage(
  context: AdminContext,
  page: number,
  signal?: AbortSignal,
): Promise<SpendPage> {
  // A fixed order by member keeps pages stable while spend changes during the run.
  const body = { page, pageSize: SPEND_PAGE_SIZE, sortBy: 'user', sortDirection: 'asc' };
  return callAdmin(context, 'spend', { path: '/teams/spend', body, schema: spendPageSchema }, signal);
}

export interface DailyUsageQuery {
  start: Date;
  end: Date;
  /** Only for the second and later pages of a paginated answer. */
  page?: number;
}

export function fetchDailyUsage(
  context: AdminContext,
  query: DailyUsageQuery,
  signal?: AbortSignal,
): Promise<DailyUsagePage> {
  const body: Record<string, number> = { startDate: query.start.getTime(), endDate: query.end.getTime() };
  if (query.page !== undefined) body.page = query.page;
  return callAdmin(context, 'dailyUsage', { path: DAILY_USAGE_PATH, body, schema: dailyUsageSchema }, signal);
}

export interface UsageEventsQuery {
  start: Date;
  end: Date;
  page: number;
  /** Only this member's events. */
  email?: string;
}

export function fetchUsageEventsPage(
  context: AdminContext,
  query: UsageEventsQuery,
  signal?: AbortSignal,
): Promise<EventsPage> {
  const body: Record<string, unknown> = {
    startDate: query.start.getTime(),
    endDate: query.end.getTime(),
    page: query.page,
    pageSize: ADMIN_EVENTS_PAGE_SIZE,
  };
  if (query.email !== undefined) body.email = query.email;
  const path = '/teams/filtered-usage-events';
  return callAdmin(context, 'usageEvents', { path, body, schema: adminEventsPageSchema }, signal);
}
