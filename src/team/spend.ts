/**
 * `team spend`: every member's spend in the current cycle from `POST /teams/spend`, paged to the end
 * and proven complete (docs/invariants.md, "No partial total"), then filtered and sorted for display.
 */
import { type AdminContext, fetchSpendPage } from '../api/admin/endpoints.js';
import type { MemberSpendRow } from '../api/admin/schemas/spend.js';
import { allKnown } from '../cost/sums.js';
import { PaginationError } from '../errors.js';
import { usdFromCents } from '../lib/money.js';

/** More pages than this (100,000 members at 100 a page) means the server is not converging. */
const MAX_SPEND_PAGES = 1000;

export interface MemberSpend {
  name?: string;
  email?: string;
  role?: string;
  /** On-demand spend this cycle; null when Cursor did not send a usable value. */
  spendUSD: number | null;
  /** Included plus on-demand spend this cycle. */
  totalUSD: number | null;
  /** The member's effective on-demand limit; null when none is set. */
  limitUSD: number | null;
  /** spendUSD ÷ limitUSD × 100; null without both. */
  percentOfLimit: number | null;
  fastPremiumRequests?: number;
}

export interface SpendReport {
  generatedAt: Date;
  cycleStart: Date | null;
  totalMembers: number;
  members: MemberSpend[];
  /** Σ spendUSD and Σ totalUSD over every member; null when any member's value is unknown. */
  spendUSD: number | null;
  totalUSD: number | null;
}

const cents = (value: number | undefined): number | null =>
  value === undefined || value < 0 ? null : usdFromCents(value);

/** The first positive limit of: the effective limit, the admin's override, the monthly limit. */
function limitOf(row: MemberSpendRow): number | null {
  const limits = [row.effectivePerUserLimitDollars, row.hardLimitOverrideDollars, row.monthlyLimitDollars];
  return limits.find((value) => value !== undefined && value > 0) ?? null;
}

export function memberSpend(row: MemberSpendRow): MemberSpend {
  const spendUSD = cents(row.spendCents);
  const included = cents(row.includedSpendCents);
  const totalUSD =
    cents(row.overallSpendCents) ?? (included !== null && spendUSD !== null ? included + spendUSD : null);
  const limitUSD = limitOf(row);
  return {
    name: row.name,
    email: row.email,
    role: row.role,
    spendUSD,
    totalUSD,
    limitUSD,
    percentOfLimit: spendUSD !== null && limitUSD !== null ? (spendUSD / limitUSD) * 100 : null,
    fastPremiumRequests: row.fastPremiumRequests,
  };
}

/** The pager's error codes, with a hint that fits a list of members rather than a window. */
class SpendPagingError extends PaginationError {
  override readonly hint = 'Run the command again; members joined or left while the list was being read.';
}

const inconsistent = (what: string) =>
  new SpendPagingError(
    'pagination_inconsistent',
    `Cursor team spend changed while it was being read (${what}).`,
  );

export interface CollectSpendOptions {
  now: Date;
  onPage?: (page: number, totalPages: number) => void;
  signal?: AbortSignal;
}

/**
 * Pages 1…totalPages in order. Every page must agree on totalMembers and totalPages, no member may
 * appear twice, and the rows must add up to totalMembers: otherwise the run fails instead of printing a
 * partial list.
 */
export async function collectTeamSpend(
  context: AdminContext,
  options: CollectSpendOptions,
): Promise<SpendReport> {
  const first = await fetchSpendPage(context, 1, options.signal);
  const { totalMembers, totalPages } = first;
  if (totalPages > MAX_SPEND_PAGES) {
    throw new SpendPagingError(
      'pagination_safety_limit',
      `Cursor team spend reported ${totalPages} pages, more than the ${MAX_SPEND_PAGES} read at most.`,
    );
  }
  const rows: MemberSpendRow[] = [...first.teamMemberSpend];
  options.onPage?.(1, Math.max(1, totalPages));
  for (let page = 2; page <= totalPages; page++) {
    const next = await fetchSpendPage(context, page, options.signal);
    if (next.totalMembers !== totalMembers) {
      throw inconsistent(`${totalMembers} members, then ${next.totalMembers}`);
    }
    if (next.totalPages !== totalPages) throw inconsistent(`${totalPages} pages, then ${next.totalPages}`);
    rows.push(...next.teamMemberSpend);
    options.onPage?.(page, totalPages);
  }
  const seen = new Set<string>();
  for (const row of rows) {
    const id = row.userId !== undefined ? `id:${row.userId}` : row.email ? `email:${row.email}` : undefined;
    if (id === undefined) continue;
    if (seen.has(id)) throw inconsistent('a member was listed twice');
    seen.add(id);
  }
  if (rows.length !== totalMembers) {
    throw new SpendPagingError(
      'pagination_incomplete',
      `Cursor team spend was incomplete (received ${rows.length} of ${totalMembers} members).`,
    );
  }
  const members = rows.map(memberSpend);
  return {
    generatedAt: options.now,
    cycleStart: first.subscriptionCycleStart === undefined ? null : new Date(first.subscriptionCycleStart),
    totalMembers,
    members,
    spendUSD: allKnown(members.map((member) => member.spendUSD)),
    totalUSD: allKnown(members.map((member) => member.totalUSD)),
  };
}

/** `team spend --sort` keys. */
export const SPEND_SORTS = ['spend', 'total', 'percent', 'name', 'email'] as const;
export type SpendSort = (typeof SPEND_SORTS)[number];

export interface SpendSelection {
  /** `--over <percent>`: only members whose on-demand spend is above this share of their limit. */
  over?: number;
  sort: SpendSort;
  /** `--limit <n>`: at most this many rows, after filtering and sorting. */
  limit?: number;
}

export interface SelectedSpend {
  members: MemberSpend[];
  /** Members above the --over threshold (before --limit); 0 without --over. */
  overCount: number;
}

/** Strictly above: a member at exactly 80 % is not over 80. Members without a limit are never over. */
export function isOver(member: MemberSpend, percent: number): boolean {
  return member.percentOfLimit !== null && member.percentOfLimit > percent;
}

const byText = (a: string | undefined, b: string | undefined): number =>
  (a ?? '\uffff').localeCompare(b ?? '\uffff', 'en');

/** Larger first; unknown values last. */
const byNumberDesc = (a: number | null, b: number | null): number => (b ?? -1) - (a ?? -1);

const COMPARATORS: Record<SpendSort, (a: MemberSpend, b: MemberSpend) => number> = {
  spend: (a, b) => byNumberDesc(a.spendUSD, b.spendUSD) || byNumberDesc(a.totalUSD, b.totalUSD),
  total: (a, b) => byNumberDesc(a.totalUSD, b.totalUSD) || byNumberDesc(a.spendUSD, b.spendUSD),
  percent: (a, b) => byNumberDesc(a.percentOfLimit, b.percentOfLimit) || byNumberDesc(a.spendUSD, b.spendUSD),
  name: (a, b) => byText(a.name, b.name),
  email: (a, b) => byText(a.email, b.email),
};

export function selectSpend(members: readonly MemberSpend[], selection: SpendSelection): SelectedSpend {
  const { over } = selection;
  const filtered = over === undefined ? [...members] : members.filter((member) => isOver(member, over));
  const compare = COMPARATORS[selection.sort];
  filtered.sort((a, b) => compare(a, b) || byText(a.name, b.name) || byText(a.email, b.email));
  return {
    members: selection.limit === undefined ? filtered : filtered.slice(0, selection.limit),
    overCount: over === undefined ? 0 : filtered.length,
  };
}
