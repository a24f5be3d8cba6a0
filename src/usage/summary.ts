import type { AuthMe } from '../api/schemas/auth-me.js';
import type { LegacyUsage } from '../api/schemas/legacy-usage.js';
import type { UsageBudget, UsageSummary } from '../api/schemas/usage-summary.js';
import type { JwtIdentity } from '../auth/types.js';
import { parseIsoDate } from '../lib/iso-date.js';
import { usdFromCents } from '../lib/money.js';

/** The numbers CodexBar derives from cursor.com's answers (`parseUsageSummary`). */
export interface UsageFigures {
  /** Headline percent, 0…100. */
  planPercentUsed: number;
  autoPercentUsed?: number;
  apiPercentUsed?: number;
  planUsedUSD: number;
  planLimitUSD: number;
  onDemandUsedUSD: number;
  onDemandLimitUSD?: number;
  teamOnDemandUsedUSD?: number;
  teamOnDemandLimitUSD?: number;
  requestsUsed?: number;
  requestsLimit?: number;
  /** A request limit was reported, even 0. */
  isLegacyRequestPlan: boolean;
  billingCycleStart?: Date;
  billingCycleEnd?: Date;
  membershipType?: string;
  limitType?: string;
  accountEmail?: string;
  accountID?: string;
  accountName?: string;
}

export interface SummaryInputs {
  summary: UsageSummary;
  me?: AuthMe;
  legacy?: LegacyUsage;
  jwt?: JwtIdentity;
}

export function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, value));
}

export function summarizeUsage({ summary, me, legacy, jwt }: SummaryInputs): UsageFigures {
  const plan = summary.individualUsage?.plan;
  const onDemand = summary.individualUsage?.onDemand;
  const teamOnDemand = summary.teamUsage?.onDemand;
  const auto = plan?.autoPercentUsed === undefined ? undefined : clampPercent(plan.autoPercentUsed);
  const api = plan?.apiPercentUsed === undefined ? undefined : clampPercent(plan.apiPercentUsed);
  const dollars = planDollars(summary);
  const gpt4 = legacy?.['gpt-4'];
  const requestsLimit = gpt4?.maxRequestUsage;

  return {
    planPercentUsed: headlinePercent(summary, auto, api),
    autoPercentUsed: auto,
    apiPercentUsed: api,
    planUsedUSD: dollars.used,
    planLimitUSD: dollars.limit,
    onDemandUsedUSD: usdFromCents(onDemand?.used ?? 0),
    onDemandLimitUSD: centsToUSD(onDemand?.limit),
    teamOnDemandUsedUSD: centsToUSD(teamOnDemand?.used),
    teamOnDemandLimitUSD: centsToUSD(teamOnDemand?.limit),
    requestsUsed: gpt4?.numRequestsTotal ?? gpt4?.numRequests,
    requestsLimit,
    isLegacyRequestPlan: requestsLimit !== undefined,
    billingCycleStart: parseIsoDate(summary.billingCycleStart),
    billingCycleEnd: parseIsoDate(summary.billingCycleEnd),
    membershipType: summary.membershipType,
    limitType: summary.limitType,
    accountEmail: me?.email ?? jwt?.email,
    accountID: me?.sub ?? jwt?.subject,
    accountName: me?.name,
  };
}

/** The headline percent: the first rule that applies wins. */
function headlinePercent(summary: UsageSummary, auto: number | undefined, api: number | undefined): number {
  const plan = summary.individualUsage?.plan;
  if (plan?.totalPercentUsed !== undefined) return clampPercent(plan.totalPercentUsed);
  if (auto !== undefined && api !== undefined) return clampPercent((auto + api) / 2);
  if (api !== undefined) return api;
  if (auto !== undefined) return auto;
  const planLimit = plan?.limit ?? 0;
  if (planLimit > 0) return clampPercent(((plan?.used ?? 0) / planLimit) * 100);
  const overall = ratioPercent(summary.individualUsage?.overall);
  if (overall !== undefined) return overall;
  return ratioPercent(summary.teamUsage?.pooled) ?? 0;
}

function ratioPercent(budget: UsageBudget | undefined): number | undefined {
  if (budget?.used === undefined || budget.limit === undefined || budget.limit <= 0) return undefined;
  return clampPercent((budget.used / budget.limit) * 100);
}

/** Plan cents, else overall, else pooled; a limit of 0 is allowed here. */
function planDollars(summary: UsageSummary): { used: number; limit: number } {
  const plan = summary.individualUsage?.plan;
  const planUsed = plan?.used ?? 0;
  const planLimit = plan?.limit ?? 0;
  if (planLimit > 0 || planUsed > 0) return { used: usdFromCents(planUsed), limit: usdFromCents(planLimit) };
  for (const budget of [summary.individualUsage?.overall, summary.teamUsage?.pooled]) {
    if (budget?.used !== undefined && budget.limit !== undefined) {
      return { used: usdFromCents(budget.used), limit: usdFromCents(budget.limit) };
    }
  }
  return { used: 0, limit: 0 };
}

export function centsToUSD(cents: number | undefined): number | undefined {
  return cents === undefined ? undefined : usdFromCents(cents);
}

/** A request quota is usable only with a count and a positive limit. */
export function hasUsableRequestQuota(figures: UsageFigures): boolean {
  return (
    figures.requestsUsed !== undefined && figures.requestsLimit !== undefined && figures.requestsLimit > 0
  );
}

/** The billing cycle in minutes, or undefined when unknown or not positive. */
export function cycleMinutes(figures: UsageFigures): number | undefined {
  const { billingCycleStart: start, billingCycleEnd: end } = figures;
  if (!start || !end) return undefined;
  const minutes = Math.round((end.getTime() - start.getTime()) / 60_000);
  return minutes > 0 ? minutes : undefined;
}
