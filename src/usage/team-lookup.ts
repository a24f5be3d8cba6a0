import { type EndpointContext, fetchTeamSpendPage, fetchTeams } from '../api/usage-endpoints.js';
import { TimeoutError } from '../errors.js';
import {
  acceptTeamBudget,
  chooseTeam,
  digestTeamSpendPage,
  expectedPageCount,
  plannedPageCount,
  TEAM_SPEND_PAGE_SIZE,
  type TeamBudget,
  type TeamSpendDigest,
} from './team-budget.js';
import type { TeamSelection } from './team-selection.js';

export interface TeamLookupOptions {
  ctx: EndpointContext;
  selection: TeamSelection;
  /** The signed-in member's email, trimmed and lower-cased. */
  emailKey: string;
  /** One deadline shared by every request of the lookup. */
  deadlineMs: number;
}

const LOOKUP_LABEL = 'team budget lookup';

/**
 * /teams, then the get-team-spend pages the team's seat count implies, at once, all under one deadline
 * (cursor-provider.md, "Enterprise and Business member budgets"). Best-effort: undefined on any failure.
 * Each page is reduced to the member's own row as soon as it arrives.
 */
export async function lookupTeamBudget({
  ctx,
  selection,
  emailKey,
  deadlineMs,
}: TeamLookupOptions): Promise<TeamBudget | undefined> {
  const deadline = new AbortController();
  const deadlineAt = Date.now() + deadlineMs;
  const timer = setTimeout(() => deadline.abort(new TimeoutError(LOOKUP_LABEL, deadlineMs)), deadlineMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, deadline.signal]) : deadline.signal;
  const scoped: EndpointContext = { ...ctx, signal };
  const remainingMs = () => Math.max(1, deadlineAt - Date.now());
  const note = (why: string) => ctx.log?.(`[cursor] Team budget unavailable (${why}); using usage-summary`);

  try {
    const teams = await fetchTeams(scoped, remainingMs());
    if (!teams) return undefined;
    const teamId = chooseTeam(teams, selection);
    if (teamId === undefined) {
      note('no verified team selection');
      return undefined;
    }

    const fetchDigest = async (page: number): Promise<TeamSpendDigest | undefined> => {
      const response = await fetchTeamSpendPage(
        scoped,
        { teamId, page, pageSize: TEAM_SPEND_PAGE_SIZE },
        remainingMs(),
      );
      if (!response) {
        // One missing page voids the set; stop the others instead of waiting for them.
        deadline.abort(new Error('another team-spend page failed'));
        return undefined;
      }
      return digestTeamSpendPage(response, emailKey);
    };
    const fetchPages = (from: number, to: number) =>
      Promise.all(
        Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => fetchDigest(from + index)),
      );

    // The team's seat count predicts how many pages there are, so they all go out in one round trip
    // (issue: at most three round trips for a team member); page 1's totalPages still decides.
    const guessed = expectedPageCount(teams, teamId);
    const firstPages = await fetchPages(1, guessed);
    const first = firstPages[0];
    if (!first) return undefined;
    const pageCount = plannedPageCount(first);
    if (pageCount === undefined) {
      note('missing or out-of-range page count');
      return undefined;
    }
    const rest = pageCount > guessed ? await fetchPages(guessed + 1, pageCount) : [];
    const pages = [...firstPages, ...rest].slice(0, pageCount);
    const budget = acceptTeamBudget(pages);
    if (!budget) note('incomplete, inconsistent or unmatched member spend');
    return budget;
  } finally {
    clearTimeout(timer);
  }
}
