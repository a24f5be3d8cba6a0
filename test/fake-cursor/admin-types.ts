/** Shapes of the fake Admin API (test/fake-cursor/admin-server.ts), as Cursor's docs show them. */
import type { FakeResponse, RecordedRequest } from './types.js';

export type AdminFamily = 'spend' | 'dailyUsage' | 'usageEvents';

export interface AdminMemberJson {
  userId: number;
  name: string;
  email: string;
  role: 'owner' | 'member' | 'free-owner';
  spendCents: number;
  overallSpendCents: number;
  fastPremiumRequests: number;
  hardLimitOverrideDollars?: number;
  monthlyLimitDollars?: number | null;
  effectivePerUserLimitDollars?: number | null;
  [field: string]: unknown;
}

export interface AdminEventJson {
  timestamp: string;
  userEmail?: string;
  model?: string;
  kind?: string;
  maxMode?: boolean;
  requestsCosts?: number;
  isTokenBasedCall?: boolean;
  tokenUsage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheWriteTokens?: number;
    cacheReadTokens?: number;
    totalCents?: number;
    discountPercentOff?: number;
  };
  isFreeBugbot?: boolean;
  isChargeable?: boolean;
  isHeadless?: boolean;
  chargedCents?: number;
  cursorTokenFee?: number;
  [field: string]: unknown;
}

export interface DailyUsageJson {
  /** Epoch ms of the day (UTC midnight). */
  date: number;
  email?: string;
  userId?: string | number;
  isActive: boolean;
  mostUsedModel?: string;
  [metric: string]: unknown;
}

export interface AdminFault {
  /** e.g. `/teams/filtered-usage-events`. */
  path: string;
  /** Only this page (from the request body); default every request to the path. */
  page?: number;
  status: number;
  retryAfter?: string;
  /** Only the first N matching requests; default every one. */
  times?: number;
  /** Answer with this (its own status, headers and body) instead of `status` and `{"error":"fault"}`. */
  answer?: FakeResponse;
}

export interface FakeAdminOptions {
  /** The one key the fake accepts, as the Basic user name with an empty password. */
  apiKey: string;
  members?: AdminMemberJson[];
  /** Epoch ms of the cycle start `/teams/spend` reports. */
  cycleStart?: number;
  /** Overrides `totalMembers` per spend page (a team that changes while it is read). */
  spendTotalMembers?: (page: number) => number | undefined;
  daily?: DailyUsageJson[];
  /** Answer daily usage in pages of this many rows, with `pagination`. Default: everything at once. */
  dailyPageSize?: number;
  /** Newest first, as the API lists them. */
  events?: AdminEventJson[];
  /** `totalUsageEventsCount` per events page, given the true count. */
  eventsCount?: (page: number, actual: number) => number;
  /** Requests per window per family; default Cursor's documented limits (20, 20, 60). */
  limits?: Partial<Record<AdminFamily, number>>;
  windowMs?: number;
  /** The clock the rate-limit windows are counted on; default Date.now. */
  now?: () => number;
  /** Answer 403 to everything: a plan without Admin API access. */
  forbidden?: boolean;
  faults?: AdminFault[];
  /** The longest `endDate − startDate` accepted; default 30 days for daily usage and events. */
  maxSpanMs?: number;
}

export interface AdminStats {
  /** Requests answered normally per family (429s, 401s and faults not counted). */
  accepted: Record<AdminFamily, number>;
  /** Requests refused with 429 by the rate limit. */
  rateLimited: Record<AdminFamily, number>;
  /** Most requests accepted within any one window. */
  peakInWindow: Record<AdminFamily, number>;
}

export interface FakeAdmin {
  url: string;
  requests: RecordedRequest[];
  stats: AdminStats;
  close(): Promise<void>;
}
