/**
 * Seeded, deterministic team data for the fake Admin API: members with spend and limits, usage events
 * (generate-events.ts's realistic stream, spread over the members, with the Admin API's kind labels) and
 * daily usage rows.
 */
import type { AdminEventJson, AdminMemberJson, DailyUsageJson } from './admin-types.js';
import { generateEvents } from './generate-events.js';

const DAY_MS = 86_400_000;

/** The labels the Admin API sends for the dashboard's kind enum names. */
const KIND_LABELS: Record<string, string> = {
  USAGE_EVENT_KIND_INCLUDED_IN_PRO: 'Included in Business',
  USAGE_EVENT_KIND_USAGE_BASED: 'Usage-based',
  USAGE_EVENT_KIND_ERRORED_NOT_CHARGED: 'Errored, Not Charged',
  USAGE_EVENT_KIND_USER_API_KEY: 'User API Key',
};

/** A cheap deterministic hash: the same (seed, i) always picks the same member. */
function pick(seed: number, i: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x27d4eb2f);
  h ^= h >>> 13;
  return (h >>> 0) % n;
}

function memberEmail(index: number): string {
  return `member${String(index + 1).padStart(4, '0')}@example.test`;
}

/** Member i spends i × $3.17 on demand; every third has a $100 limit, every seventh a $50 override. */
export function seedMembers(count: number): AdminMemberJson[] {
  return Array.from({ length: count }, (_, i) => {
    const spendCents = Math.round(i * 317);
    const member: AdminMemberJson = {
      userId: 1000 + i,
      name: `Member ${String(i + 1).padStart(4, '0')}`,
      email: memberEmail(i),
      role: i === 0 ? 'owner' : 'member',
      spendCents,
      overallSpendCents: spendCents + 2000,
      fastPremiumRequests: i * 3,
      hardLimitOverrideDollars: i % 7 === 6 ? 50 : 0,
      monthlyLimitDollars: i % 3 === 0 ? 100 : null,
    };
    return member;
  });
}

export interface SeedEventsOptions {
  members: readonly Pick<AdminMemberJson, 'email'>[];
  count: number;
  start: Date;
  end: Date;
  seed: number;
}

/** Newest first, as the API lists them. */
export function seedAdminEvents(options: SeedEventsOptions): AdminEventJson[] {
  const raw = generateEvents({
    count: options.count,
    start: options.start,
    end: options.end,
    seed: options.seed,
  });
  return raw.map((event, i) => {
    const { owningUser: _user, owningTeam: _team, usageBasedCosts: _costs, kind, ...rest } = event;
    return {
      ...rest,
      timestamp: String(event.timestamp),
      kind: KIND_LABELS[kind ?? ''] ?? kind,
      isFreeBugbot: false,
      userEmail: options.members[pick(options.seed, i, options.members.length)]!.email,
    } as AdminEventJson;
  });
}

/** One row per member per UTC day from `start`; a member is active on about two days in three. */
export function seedDailyUsage(
  members: readonly Pick<AdminMemberJson, 'email'>[],
  start: Date,
  days: number,
): DailyUsageJson[] {
  const first = Math.floor(start.getTime() / DAY_MS) * DAY_MS;
  const rows: DailyUsageJson[] = [];
  for (let d = 0; d < days; d++) {
    members.forEach((member, m) => {
      const active = (d + m) % 3 !== 0;
      const n = active ? 1 + ((d * 7 + m * 3) % 11) : 0;
      rows.push({
        date: first + d * DAY_MS,
        email: member.email,
        isActive: active,
        totalLinesAdded: n * 40,
        totalLinesDeleted: n * 9,
        acceptedLinesAdded: n * 25,
        acceptedLinesDeleted: n * 5,
        totalApplies: n * 2,
        totalAccepts: n,
        totalRejects: active ? 1 : 0,
        totalTabsShown: n * 30,
        totalTabsAccepted: n * 12,
        composerRequests: n,
        chatRequests: n * 2,
        agentRequests: n * 3,
        cmdkUsages: n,
        subscriptionIncludedReqs: n * 5,
        usageBasedReqs: n % 3,
        apiKeyReqs: m % 4 === 0 ? n : 0,
        bugbotUsages: 0,
        mostUsedModel: active ? (n % 2 === 0 ? 'gpt-5' : 'claude-4.5-sonnet-thinking') : undefined,
        clientVersion: '2.1.0',
      });
    });
  }
  return rows;
}
