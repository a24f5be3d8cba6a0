import type { FakeAccount, FakeResponse, Handler, RecordedRequest } from '../fake-cursor/server.js';
import { colleague, type TeamMemberRow } from './colleagues.js';

/**
 * Two teams of the signed-in member dev@acme.com, shaped as /teams and get-team-spend answer. Team 4211
 * has 120 members on 3 pages of 50 with the member on page 3; team 5000 has 60 members on 2 pages with the
 * member on page 2 and a different budget, so the output shows which team was read.
 */

export const MEMBER_EMAIL = 'dev@acme.com';
export const PAGE_SIZE = 50;

/** `seats` covers every member, so the lookup can ask for all pages of a team at once. */
export const ACME = { id: 4211, name: 'Acme', role: 'member', seats: 120, hasBilling: true };
export const LABS = { id: 5000, name: 'Acme Labs', role: 'member', seats: 60, hasBilling: true };

/** The member's own row; the email differs in case and spacing from /auth/me on purpose. */
export function memberRow(overrides: Partial<TeamMemberRow> = {}): TeamMemberRow {
  return {
    userId: 991,
    email: '  Dev@ACME.com ',
    name: 'Dev',
    role: 'member',
    spendCents: 1250,
    overallSpendCents: 8421,
    fastPremiumRequests: 0,
    monthlyLimitDollars: 200,
    effectivePerUserLimitDollars: 150,
    hardLimitOverrideDollars: 0,
    ...overrides,
  };
}

export interface TeamSpendBody {
  teamMemberSpend: TeamMemberRow[];
  totalMembers: number;
  totalPages: number;
  subscriptionCycleStart: string;
}

/** `members` cut into pages of 50, each carrying the same metadata. */
function spendPages(members: readonly TeamMemberRow[]): TeamSpendBody[] {
  const totalPages = Math.ceil(members.length / PAGE_SIZE);
  return Array.from({ length: totalPages }, (_, index) => ({
    teamMemberSpend: members.slice(index * PAGE_SIZE, (index + 1) * PAGE_SIZE),
    totalMembers: members.length,
    totalPages,
    subscriptionCycleStart: '1783209600000',
  }));
}

const acmeColleagues = Array.from({ length: 119 }, (_, index) => colleague('acme', index));
const labsColleagues = Array.from({ length: 59 }, (_, index) => colleague('labs', index));

/** Team 4211's pages with `me` as the last row of page 3. */
export function acmePages(me: TeamMemberRow = memberRow()): TeamSpendBody[] {
  return spendPages([...acmeColleagues, me]);
}

/** Team 5000's pages: the member spent $30 of $100 there. */
function labsPages(): TeamSpendBody[] {
  return spendPages([
    ...labsColleagues,
    memberRow({ overallSpendCents: 3000, effectivePerUserLimitDollars: 100 }),
  ]);
}

const pageOf = (request: RecordedRequest): number => (request.body as { page: number }).page;
const teamIdOf = (request: RecordedRequest): string => String((request.body as { teamId: unknown }).teamId);

/** A get-team-spend handler that serves the given teams' pages and 404s for anything else. */
export function teamSpendHandler(
  teams: Record<string, readonly TeamSpendBody[]> = { [ACME.id]: acmePages(), [LABS.id]: labsPages() },
): Handler {
  return (request) => {
    const body = teams[teamIdOf(request)]?.[pageOf(request) - 1];
    return body ? { json: body } : { status: 404, json: { error: 'no such page' } };
  };
}

/** Serve team 4211's pages, with `answer` deciding each one (1-based page, its honest body). */
export function acmeSpendWith(answer: (page: number, body: TeamSpendBody) => FakeResponse): Handler {
  const pages = acmePages();
  return (request) => {
    const page = pageOf(request);
    const body = pages[page - 1];
    return body ? answer(page, body) : { status: 404, json: {} };
  };
}

/**
 * The team endpoints every fixture account carries, whether or not the CLI should call them, so that
 * colleagues are always one request away from the output.
 */
export function colleagueTeamEndpoints(
  teams: Array<typeof ACME> = [ACME],
): Pick<FakeAccount, 'teams' | 'teamSpend'> {
  return { teams: { json: { teams } }, teamSpend: teamSpendHandler() };
}

/** An Enterprise member mid-cycle whose on-demand figures are the team pool. */
const TEAM_SUMMARY = {
  billingCycleStart: '2026-07-05T00:00:00.000Z',
  billingCycleEnd: '2026-08-05T00:00:00.000Z',
  membershipType: 'enterprise',
  limitType: 'team',
  individualUsage: {
    overall: { enabled: true, used: 7384, limit: 10000 },
    onDemand: { enabled: true, used: 4471, limit: 0 },
  },
  teamUsage: { onDemand: { enabled: true, used: 31250, limit: 100000 } },
};

export function teamAccount(cookies: string[], overrides: Partial<FakeAccount> = {}): FakeAccount {
  return {
    cookies,
    usageSummary: { json: TEAM_SUMMARY },
    me: { json: { email: MEMBER_EMAIL, email_verified: true, name: 'Dev', sub: 'auth0|991' } },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand: { status: 404, json: {} },
    ...colleagueTeamEndpoints(),
    ...overrides,
  };
}
