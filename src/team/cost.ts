/**
 * `team cost`: every usage event of the window from `POST /teams/filtered-usage-events`, paged with the
 * rules of `cost` (a changing count, fewer events than reported or the page cap fail closed) in 30-day
 * pieces, through the team's event store exactly as `cost` uses an account's (settled time from the store
 * once the API confirms its counts), and aggregated by the `cost` aggregator for the team and once more
 * per member.
 */
import { type AdminContext, fetchUsageEventsPage } from '../api/admin/endpoints.js';
import type { DecodedUsageEvent } from '../api/schemas/events.js';
import { type CostAggregator, createCostAggregator } from '../cost/aggregate.js';
import { EventRows } from '../cost/events/rows.js';
import { ExactSum } from '../cost/exact-sum.js';
import type { PageProgress } from '../cost/pager.js';
import type { ListPricer } from '../cost/pricing.js';
import { type CostStoreUse, collectRanges, type EventsSource } from '../cost/store/ranged-collect.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { usdFromCents } from '../lib/money.js';
import { createDayKeyer } from '../lib/time-zone.js';
import { ADMIN_MAX_SPAN_MS } from './chunks.js';

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
  onProgress?: (progress: TeamCostProgress) => void;
  signal?: AbortSignal;
  /** The team's event store; without it every event is fetched and nothing is kept. */
  store?: CostStoreUse;
}

/**
 * Σ cursorTokenFee, exact: stored events arrive in time order and fetched ones in page order, and the sum
 * must not depend on it (docs/invariants.md, "A report is a function of its events").
 */
class FeeSum {
  private readonly cents = new ExactSum();
  private seen = false;
  add(fee: number | undefined): void {
    if (fee === undefined || fee < 0) return;
    this.cents.add(fee);
    this.seen = true;
  }
  get usd(): number | null {
    return this.seen ? usdFromCents(this.cents.value) : null;
  }
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
  const aggregatorOptions = {
    timeZone: window.timeZone,
    pricing: options.pricing,
    today: options.now(),
    // One keyer for the team and every member: each local day's bounds are found once per run.
    dayKeyOf: createDayKeyer(window.timeZone),
  };
  const team = createCostAggregator(aggregatorOptions);
  const teamFees = new FeeSum();
  const members = new Map<string, { aggregator: CostAggregator; fees: FeeSum }>();
  const onEvent = (event: DecodedUsageEvent) => {
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

  const collected = await collectRanges({
    // The API's endDate is inclusive, so the window is [start, end + 1 ms).
    window: { start: window.start.getTime(), end: window.end.getTime() + 1 },
    source: adminSource(context, options),
    store: options.store,
    // Events are split by member one by one: `team cost` reads far fewer events than a heavy `cost` month.
    addRows: (rows, from, to) => {
      for (let i = from; i < to; i++) onEvent(rows.get(i));
    },
    runAt: options.now().getTime(),
    signal: options.signal,
    onProgress: (progress, at) => options.onProgress?.({ ...progress, ...at }),
  });

  const generatedAt = options.now();
  const meta = { generatedAt, reportedEventCount: collected.reported, storedRanges: collected.stored };
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
  };
}

/** The events endpoint in 30-day pieces, a span `[a, b)` asked for as `startDate = a`, `endDate = b − 1`. */
function adminSource(context: AdminContext, options: CollectTeamCostOptions): EventsSource {
  return {
    tag: '[cursor-team]',
    server: 'the Admin API',
    concurrency: TEAM_CONCURRENCY,
    maxPages: TEAM_MAX_PAGES,
    maxSpanMs: ADMIN_MAX_SPAN_MS,
    fetchPage: async (span, page, signal) => {
      const answer = await fetchUsageEventsPage(
        context,
        { start: new Date(span.start), end: new Date(span.end - 1), page, email: options.member },
        signal,
      );
      return {
        totalUsageEventsCount: answer.totalUsageEventsCount,
        usageEventsDisplay: EventRows.fromEvents(answer.usageEventsDisplay),
      };
    },
  };
}
