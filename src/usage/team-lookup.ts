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
 * /teams, then the get-team-spend pages the team's seat count predicts, at once, all under one deadline.
 * Best-effort: undefined on any failure. Each page is reduced to the member's own row as soon as it
 * arrives (docs/invariants.md, "Other members' data stays out").
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

    // Page 1 alone says how many pages there are; waiting for it would cost a round trip. The team's seat
    // count predicts the set, so every predicted page goes out at once (at most three round trips for a
    // team member). Page 1's totalPages decides what counts: a predicted page past it is cancelled and
    // ignored, whatever it answered, and pages it did not predict follow.
    const requestPage = (page: number, cancel?: AbortController): Promise<TeamSpendDigest | undefined> => {
      const pageCtx = cancel
        ? { ...scoped, signal: AbortSignal.any([signal, cancel.signal]), log: undefined }
        : scoped;
      return fetchTeamSpendPage(
        pageCtx,
        { teamId, page, pageSize: TEAM_SPEND_PAGE_SIZE },
        remainingMs(),
      ).then((response) => (response ? digestTeamSpendPage(response, emailKey) : undefined));
    };
    const predicted = expectedPageCount(teams, teamId);
    const cancels = Array.from({ length: predicted }, () => new AbortController());
    const inFlight = cancels.map((cancel, index) => requestPage(index + 1, index === 0 ? undefined : cancel));
    const first = await inFlight[0];
    const pageCount = first ? plannedPageCount(first) : undefined;
    for (const cancel of cancels.slice(pageCount ?? 0)) cancel.abort();
    if (!first) return undefined;
    if (pageCount === undefined) {
      note('missing or out-of-range page count');
      return undefined;
    }
    const later = Array.from({ length: Math.max(0, pageCount - predicted) }, (_, index) =>
      requestPage(predicted + index + 1),
    );
    const pages = await Promise.all([...inFlight.slice(0, pageCount), ...later]);
    const budget = acceptTeamBudget(pages);
    if (!budget) note('incomplete, inconsistent or unmatched member spend');
    return budget;
  } finally {
    clearTimeout(timer);
  }
}
