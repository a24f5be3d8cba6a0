import { describe, expect, it } from 'vitest';
import { teamSpendSchema } from '../../src/api/schemas/team-spend.js';
import { teamsSchema } from '../../src/api/schemas/teams.js';
import {
  acceptTeamBudget,
  applyTeamBudget,
  chooseTeam,
  digestTeamSpendPage,
  isTeamPlan,
  memberEmailKey,
} from '../../src/usage/team-budget.js';
import { parseTeamSelection } from '../../src/usage/team-selection.js';
import { figuresFrom, snapshotFrom } from '../helpers/usage-builders.js';

const ME = 'dev@acme.com';
const KEY = memberEmailKey(ME)!;
const teams = (...ids: Array<number | string>) =>
  teamsSchema.parse({ teams: ids.map((id) => ({ id, name: `T${id}` })) });

interface Member {
  email?: string;
  overallSpendCents?: unknown;
  effectivePerUserLimitDollars?: unknown;
  monthlyLimitDollars?: unknown;
}
const others = (count: number, offset = 0): Member[] =>
  Array.from({ length: count }, (_, i) => ({
    email: `colleague${offset + i}@acme.com`,
    overallSpendCents: 100 * i,
    monthlyLimitDollars: 200,
  }));
const me = (fields: Partial<Member> = {}): Member => ({
  email: '  Dev@ACME.com ',
  overallSpendCents: 8421,
  effectivePerUserLimitDollars: 150,
  monthlyLimitDollars: 200,
  ...fields,
});
const page = (rows: Member[], totalPages: number, totalMembers: number) =>
  digestTeamSpendPage(teamSpendSchema.parse({ teamMemberSpend: rows, totalPages, totalMembers }), KEY);

describe('team choice', () => {
  it.each([
    ['a sole team is used when no selection cookie is present', teams(4211), '', 4211],
    ['two teams without a selection stay on the summary', teams(4211, 5000), '', undefined],
    [
      'portal-selected-team-id picks one of several teams',
      teams(4211, 5000),
      'portal-selected-team-id=5000',
      5000,
    ],
    [
      'portal-selected-team-id beats team_id',
      teams(4211, 5000),
      'team_id=4211; portal-selected-team-id=5000',
      5000,
    ],
    ['team_id is used without portal-selected-team-id', teams(4211, 5000), 'team_id=4211', 4211],
    [
      'a selection naming a team the account is not in stays on the summary',
      teams(4211, 5000),
      'portal-selected-team-id=9',
      undefined,
    ],
    ['a selection is verified even with a sole team', teams(4211), 'portal-selected-team-id=9', undefined],
    ['no teams at all', teams(), '', undefined],
  ])('%s', (_rule, list, cookieHeader, chosen) => {
    const selection = parseTeamSelection(`WorkosCursorSessionToken=user%3A%3Ajwt; ${cookieHeader}`);
    expect(chooseTeam(list, selection)).toBe(chosen);
  });

  it('an unreadable team entry makes the list ambiguous', () => {
    expect(chooseTeam(teamsSchema.parse({ teams: [{ id: 4211 }, { name: 'no id' }] }), {})).toBeUndefined();
  });

  it('keeps string ids as sent', () => {
    expect(chooseTeam(teams('team_abc'), parseTeamSelection('team_id=team_abc'))).toBe('team_abc');
  });
});

describe('member budget acceptance', () => {
  it('accepts exactly one matching member on a complete, consistent page set (trimmed, case-insensitive email)', () => {
    const pages = [page(others(50), 2, 73), page([...others(22, 50), me()], 2, 73)];
    expect(acceptTeamBudget(pages)).toEqual({ spendCents: 8421, limitDollars: 150 });
  });

  it('uses monthlyLimitDollars when the effective limit is absent', () => {
    expect(acceptTeamBudget([page([me({ effectivePerUserLimitDollars: undefined })], 1, 1)])).toEqual({
      spendCents: 8421,
      limitDollars: 200,
    });
  });

  it('reads numeric strings', () => {
    expect(
      acceptTeamBudget([
        page([me({ overallSpendCents: '8421', effectivePerUserLimitDollars: '150' })], 1, 1),
      ]),
    ).toEqual({ spendCents: 8421, limitDollars: 150 });
  });

  it.each([
    ['inconsistent totalPages', [page(others(50), 2, 73), page([...others(22, 50), me()], 3, 73)]],
    ['inconsistent totalMembers', [page(others(50), 2, 73), page([...others(22, 50), me()], 2, 74)]],
    ['a short intermediate page', [page(others(49), 2, 72), page([...others(22, 50), me()], 2, 72)]],
    ['a missing page', [page([...others(49), me()], 2, 73), undefined]],
    [
      'fewer pages than page 1 announced',
      [page([...others(49), me()], 3, 120), page(others(50, 50), 3, 120)],
    ],
    ['no page count', [page([me()], undefined as unknown as number, 1)]],
    ['more than 20 pages', [page([me()], 21, 1001)]],
    ['two matching members', [page(others(50), 2, 52), page([me(), me({ overallSpendCents: 1 })], 2, 52)]],
    ['no matching member', [page(others(3), 1, 3)]],
    ['a missing spend', [page([me({ overallSpendCents: undefined })], 1, 1)]],
    [
      'a zero effective limit (not a zero-usage budget)',
      [page([me({ effectivePerUserLimitDollars: 0 })], 1, 1)],
    ],
    [
      'a negative limit',
      [page([me({ effectivePerUserLimitDollars: undefined, monthlyLimitDollars: -5 })], 1, 1)],
    ],
    [
      'no limit at all',
      [page([me({ effectivePerUserLimitDollars: undefined, monthlyLimitDollars: undefined })], 1, 1)],
    ],
    [
      'a page without a member array',
      [digestTeamSpendPage(teamSpendSchema.parse({ totalPages: 1, totalMembers: 1 }), KEY)],
    ],
  ])('%s is not a budget', (_rule, pages) => {
    expect(acceptTeamBudget(pages)).toBeUndefined();
  });

  it('an empty /auth/me email never matches', () => {
    expect(memberEmailKey('   ')).toBeUndefined();
    expect(memberEmailKey(undefined)).toBeUndefined();
  });

  it('a digest keeps only the member’s own figures, never other members’ emails or names', () => {
    const raw = {
      teamMemberSpend: [
        { userId: 7, email: 'boss@acme.com', name: 'The Boss', spendCents: 1, overallSpendCents: 99999 },
        { userId: 991, email: ME, name: 'Dev', overallSpendCents: 8421, effectivePerUserLimitDollars: 150 },
      ],
      totalPages: 1,
      totalMembers: 2,
      subscriptionCycleStart: '1790000000000',
    };
    const text = JSON.stringify(digestTeamSpendPage(teamSpendSchema.parse(raw), KEY));
    expect(text).not.toMatch(/boss|Boss|99999|Dev|acme/);
  });
});

describe('applying an accepted budget', () => {
  const summary = {
    billingCycleStart: '2026-04-01T00:00:00.000Z',
    billingCycleEnd: '2026-05-01T00:00:00.000Z',
    membershipType: 'enterprise',
    limitType: 'team',
    individualUsage: {
      overall: { enabled: true, used: 7384, limit: 10000 },
      onDemand: { used: 500, limit: 2000 },
    },
    teamUsage: { pooled: { used: 12725135, limit: 28122000 } },
  };

  it('drives the primary percent (spend / (limit × 100) × 100) and plan dollars; dates and on-demand stay the summary’s', () => {
    const figures = applyTeamBudget(figuresFrom(summary), { spendCents: 8421, limitDollars: 150 });
    expect([figures.planUsedUSD, figures.planLimitUSD]).toEqual([84.21, 150]);
    const snapshot = snapshotFrom({ figures, now: new Date('2026-04-10T00:00:00Z') });
    expect(snapshot.primary?.usedPercent).toBeCloseTo(56.14, 10);
    expect(snapshot.primary?.resetsAt).toEqual(new Date('2026-05-01T00:00:00Z'));
    expect(snapshot.providerCost).toMatchObject({ used: 5, limit: 20 });
  });

  it('without a budget the enterprise summary keeps its personal cap (7384/10000 → 73.84)', () => {
    expect(snapshotFrom({ summary, now: new Date('2026-04-10T00:00:00Z') }).primary?.usedPercent).toBeCloseTo(
      73.84,
      10,
    );
  });

  it.each([
    ['team', undefined, true],
    ['enterprise', 'team', true],
    ['pro', 'user', false],
    [undefined, 'team', true],
    [undefined, undefined, false],
  ])('membership %s with limitType %s is a team plan: %s', (membership, limitType, expected) => {
    expect(isTeamPlan(membership, limitType)).toBe(expected);
  });
});

describe('team selection cookies', () => {
  it('reads quoted and URL-encoded values and ignores empty ones', () => {
    expect(parseTeamSelection('portal-selected-team-id=""; team_id=%34%32; other=1')).toEqual({
      teamId: '42',
    });
  });

  it('a token cookie alone selects nothing', () => {
    expect(parseTeamSelection('WorkosCursorSessionToken=user_x%3A%3Aa.b.c')).toEqual({});
  });
});
