/**
 * `team cost`: every usage event of the window from `POST /teams/filtered-usage-events`, paged with the
 * rules of `cost` (a changing count, fewer events than reported or the page cap fail closed) in 30-day
 * pieces, and aggregated by the `cost` aggregator for the team and once more per member
 * (docs/behaviour.md §Team).
 */
import { type AdminContext, fetchUsageEventsPage } from '../api/admin/endpoints.js';
import type { UsageEvent } from '../api/schemas/events.js';
import { type CostAggregator, createCostAggregator } from '../cost/aggregate.js';
import { type PageProgress, pageUsageEvents } from '../cost/pager.js';
import type { ListPricer } from '../cost/pricing.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { splitWindow } from './chunks.js';

/**
 * Pages per 30-day piece: 1,000,000 events. A team far past the 200 pages `cost` allows one person is
 * normal (500 members make 200,000 events a month); a server that never sends a short page still fails.
 */
const TEAM_MAX_PAGES = 1000;
/** Pages in flight at once: the limiter, not this, decides the pace. */
const TEAM_CONCURRENCY = 4;

const UNKNOWN_MEMBER = '(no email)';

export interface MemberCost {
  member: string;
  report: CostReport;
  /** Σ cursorTokenFee ÷ 100 over the member's events; null when none carried one. */
  tokenFeeUSD: number | null;
}

export interface TeamCostReport {
  team: CostReport;
  /** Sorted by metered spend, then API-rate cost, then name. */
  members: MemberCost[];
  tokenFeeUSD: number | null;
  pieces: number;
}

export interface TeamCostProgress extends PageProgress {
  /** 1-based 30-day piece and the number of pieces. */
  piece: number;
  pieces: number;
}

export interface CollectTeamCostOptions {
  window: CostWindow;
  /** `--member <email>`: only this member's events, filtered by the API. */
  member?: string;
  pricing: ListPricer | null;
  now: () => Date;
  concurrency?: number;
  onProgress?: (progress: TeamCostProgress) => void;
  signal?: AbortSignal;
}

class FeeSum {
  private cents = 0;
  private seen = false;
  add(fee: number | undefined): void {
    if (fee === undefined || fee < 0) return;
    this.cents += fee;
    this.seen = true;
  }
  get usd(): number | null {
    return this.seen ? this.cents / 100 : null;
  }
}

interface MemberAccumulator {
  aggregator: CostAggregator;
  fees: FeeSum;
}

function compareMembers(a: MemberCost, b: MemberCost): number {
  const metered = (b.report.meteredCostUSD ?? -1) - (a.report.meteredCostUSD ?? -1);
  if (metered !== 0) return metered;
  const cost = (b.report.totals.costUSD ?? -1) - (a.report.totals.costUSD ?? -1);
  if (cost !== 0) return cost;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

export async function collectTeamCost(
  context: AdminContext,
  options: CollectTeamCostOptions,
): Promise<TeamCostReport> {
  const { window } = options;
  const aggregatorOptions = { timeZone: window.timeZone, pricing: options.pricing, today: options.now() };
  const team = createCostAggregator(aggregatorOptions);
  const teamFees = new FeeSum();
  const members = new Map<string, MemberAccumulator>();
  const onEvent = (event: UsageEvent) => {
    team.add(event);
    const name = event.userEmail ?? UNKNOWN_MEMBER;
    let member = members.get(name);
    if (!member) {
      member = { aggregator: createCostAggregator(aggregatorOptions), fees: new FeeSum() };
      members.set(name, member);
    }
    member.aggregator.add(event);
    // The aggregator skips events without a timestamp; the fee sums follow it.
    if (event.timestamp !== undefined && event.timestamp > 0) {
      teamFees.add(event.cursorTokenFee);
      member.fees.add(event.cursorTokenFee);
    }
  };

  const pieces = splitWindow(window.start, window.end);
  let reported: number | null = 0;
  for (const [index, piece] of pieces.entries()) {
    const result = await pageUsageEvents({
      concurrency: options.concurrency ?? TEAM_CONCURRENCY,
      maxPages: TEAM_MAX_PAGES,
      signal: options.signal,
      onEvent,
      onProgress: (progress) =>
        options.onProgress?.({ ...progress, piece: index + 1, pieces: pieces.length }),
      fetchPage: (page, signal) =>
        fetchUsageEventsPage(
          context,
          { start: piece.start, end: piece.end, page, email: options.member },
          signal,
        ),
    });
    reported = reported === null || result.expected === null ? null : reported + result.expected;
  }

  const generatedAt = options.now();
  const meta = { generatedAt, reportedEventCount: reported };
  // Once any event carries a fee, the API reports fees: a member whose events carry none paid none.
  const feesReported = teamFees.usd !== null;
  const memberCosts = [...members.entries()].map(([member, acc]) => ({
    member,
    report: acc.aggregator.finish(window, { generatedAt, reportedEventCount: null }),
    tokenFeeUSD: acc.fees.usd ?? (feesReported ? 0 : null),
  }));
  memberCosts.sort(compareMembers);
  return {
    team: team.finish(window, meta),
    members: memberCosts,
    tokenFeeUSD: teamFees.usd,
    pieces: pieces.length,
  };
}
