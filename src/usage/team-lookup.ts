import { type EndpointContext, fetchTeamSpendPage, fetchTeams } from '../api/usage-endpoints.js';
import { TimeoutError } from '../errors.js';
import {
  acceptTeamBudget,
  chooseTeam,
  digestTeamSpendPage,
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
 * /teams, then page 1 of get-team-spend, then the remaining pages at once, all under one deadline
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

    const first = await fetchDigest(1);
    if (!first) return undefined;
    const pageCount = plannedPageCount(first);
    if (pageCount === undefined) {
      note('missing or out-of-range page count');
      return undefined;
    }
    const rest = await Promise.all(
      Array.from({ length: pageCount - 1 }, (_, index) => fetchDigest(index + 2)),
    );
    const budget = acceptTeamBudget([first, ...rest]);
    if (!budget) note('incomplete, inconsistent or unmatched member spend');
    return budget;
  } finally {
    clearTimeout(timer);
  }
}
