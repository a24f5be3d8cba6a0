import type { TeamSpendPage } from '../api/schemas/team-spend.js';
import type { TeamsResponse } from '../api/schemas/teams.js';
import { usdFromCents } from '../lib/money.js';
import { clampPercent, type UsageFigures } from './summary.js';
import { selectedTeamId, type TeamSelection } from './team-selection.js';

/**
 * The member budget of Enterprise and Business plans (docs/invariants.md, "No partial total"). Every rule
 * fails closed: anything short of one verified member on a complete, consistent page set keeps the
 * usage-summary figures.
 */

export const TEAM_SPEND_PAGE_SIZE = 50;
const TEAM_SPEND_MAX_PAGES = 20;

export function isTeamPlan(membershipType: string | undefined, limitType: string | undefined): boolean {
  const membership = membershipType?.toLowerCase();
  return (
    membership === 'team' || membership === 'enterprise' || membership === 'business' || limitType === 'team'
  );
}

/** The signed-in member's email as the match key: trimmed, lower-cased, and never empty. */
export function memberEmailKey(email: string | undefined): string | undefined {
  const key = email?.trim().toLowerCase();
  return key ? key : undefined;
}

/**
 * A selection cookie must name one of the account's teams; with no selection only a sole team is used.
 * Returns the id as /teams sent it, ready to echo back to get-team-spend.
 */
export function chooseTeam(teams: TeamsResponse, selection: TeamSelection): number | string | undefined {
  const entries = teams.teams;
  if (!entries || entries.length === 0) return undefined;
  const ids: Array<number | string> = [];
  for (const entry of entries) {
    // An entry we cannot read might be the selected team or a second team: refuse rather than guess.
    if (entry?.id === undefined) return undefined;
    ids.push(entry.id);
  }
  const wanted = selectedTeamId(selection);
  if (wanted !== undefined) return ids.find((id) => String(id) === wanted);
  return ids.length === 1 ? ids[0] : undefined;
}

/** What survives of one page: its metadata, its size, and only the rows that are the signed-in member. */
export interface TeamSpendDigest {
  totalPages?: number;
  totalMembers?: number;
  rowCount: number;
  /** False when the page carries no member array at all. */
  hasRows: boolean;
  matches: MemberBudgetRow[];
}

export interface MemberBudgetRow {
  overallSpendCents?: number;
  effectivePerUserLimitDollars?: number;
  monthlyLimitDollars?: number;
}

/** Reduce a page to the member's own rows at once, so other members' details are never kept. */
export function digestTeamSpendPage(page: TeamSpendPage, emailKey: string): TeamSpendDigest {
  const rows = page.teamMemberSpend;
  const matches: MemberBudgetRow[] = [];
  for (const row of rows ?? []) {
    if (row && memberEmailKey(row.email) === emailKey) {
      matches.push({
        overallSpendCents: row.overallSpendCents,
        effectivePerUserLimitDollars: row.effectivePerUserLimitDollars,
        monthlyLimitDollars: row.monthlyLimitDollars,
      });
    }
  }
  return {
    totalPages: page.totalPages,
    totalMembers: page.totalMembers,
    rowCount: rows?.length ?? 0,
    hasRows: rows !== undefined,
    matches,
  };
}

/**
 * How many get-team-spend pages to request before page 1 has said (1…20): the chosen team's `seats` plus one
 * page of margin, because a team can list more members than seats (25 seats and 73 members, say).
 * Only a prediction; page 1's `totalPages` decides what is accepted.
 */
export function expectedPageCount(teams: TeamsResponse, teamId: number | string): number {
  const seats = teams.teams?.find((team) => team !== null && String(team.id) === String(teamId))?.seats;
  if (seats === undefined || !Number.isFinite(seats) || seats < 1) return 1;
  return Math.min(TEAM_SPEND_MAX_PAGES, Math.ceil(seats / TEAM_SPEND_PAGE_SIZE) + 1);
}

/** Page 1's `totalPages` when it is one the lookup may fetch (1…20), else undefined. */
export function plannedPageCount(first: TeamSpendDigest): number | undefined {
  const total = first.totalPages;
  if (total === undefined || !Number.isInteger(total) || total < 1 || total > TEAM_SPEND_MAX_PAGES)
    return undefined;
  return total;
}

export interface TeamBudget {
  spendCents: number;
  limitDollars: number;
}

/**
 * `pages[i]` is page i+1, undefined when it failed. Accepts only consistent metadata on every page, full
 * intermediate pages, the complete set 1…totalPages, and exactly one matching member with a spend and a
 * positive limit.
 */
export function acceptTeamBudget(pages: ReadonlyArray<TeamSpendDigest | undefined>): TeamBudget | undefined {
  const first = pages[0];
  if (!first) return undefined;
  const totalPages = plannedPageCount(first);
  const totalMembers = first.totalMembers;
  if (totalPages === undefined || totalMembers === undefined || pages.length !== totalPages) return undefined;
  const matches: MemberBudgetRow[] = [];
  for (const [index, page] of pages.entries()) {
    if (!page?.hasRows) return undefined;
    if (page.totalPages !== totalPages || page.totalMembers !== totalMembers) return undefined;
    const isLast = index === totalPages - 1;
    if (isLast ? page.rowCount > TEAM_SPEND_PAGE_SIZE : page.rowCount !== TEAM_SPEND_PAGE_SIZE)
      return undefined;
    matches.push(...page.matches);
  }
  if (matches.length !== 1) return undefined;
  return budgetOf(matches[0]!);
}

function budgetOf(row: MemberBudgetRow): TeamBudget | undefined {
  const spend = row.overallSpendCents;
  const limit = row.effectivePerUserLimitDollars ?? row.monthlyLimitDollars;
  if (spend === undefined || !Number.isFinite(spend) || spend < 0) return undefined;
  if (limit === undefined || !Number.isFinite(limit) || limit <= 0) return undefined;
  return { spendCents: spend, limitDollars: limit };
}

/**
 * The member budget drives the primary percent and the plan dollars; billing dates and on-demand spend
 * stay the summary's.
 */
export function applyTeamBudget(figures: UsageFigures, budget: TeamBudget): UsageFigures {
  return {
    ...figures,
    planPercentUsed: clampPercent((budget.spendCents / (budget.limitDollars * 100)) * 100),
    planUsedUSD: usdFromCents(budget.spendCents),
    planLimitUSD: budget.limitDollars,
  };
}
