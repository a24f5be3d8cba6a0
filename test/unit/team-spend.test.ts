import { describe, expect, it } from 'vitest';
import { spendPageSchema } from '../../src/api/admin/schemas/spend.js';
import { isOver, type MemberSpend, memberSpend, selectSpend } from '../../src/team/spend.js';

const row = (fields: Record<string, unknown>) =>
  spendPageSchema.parse({ teamMemberSpend: [fields], totalMembers: 1, totalPages: 1 }).teamMemberSpend[0]!;

describe('member spend', () => {
  it('spend is on-demand; total falls back to included + on-demand; the limit is the first positive one', () => {
    expect(
      memberSpend(
        row({
          name: 'Ada',
          spendCents: 4500,
          overallSpendCents: 6500,
          effectivePerUserLimitDollars: 0,
          hardLimitOverrideDollars: 50,
          monthlyLimitDollars: 100,
        }),
      ),
    ).toMatchObject({ spendUSD: 45, totalUSD: 65, limitUSD: 50, percentOfLimit: 90 });
    expect(
      memberSpend(row({ spendCents: '1000', includedSpendCents: 2000, monthlyLimitDollars: 40 })),
    ).toMatchObject({ spendUSD: 10, totalUSD: 30, limitUSD: 40, percentOfLimit: 25 });
  });

  it('no positive limit means no limit, and a missing figure stays unknown rather than 0', () => {
    expect(
      memberSpend(row({ spendCents: 100, hardLimitOverrideDollars: 0, monthlyLimitDollars: null })),
    ).toMatchObject({ spendUSD: 1, totalUSD: null, limitUSD: null, percentOfLimit: null });
    expect(memberSpend(row({ spendCents: 'lots', monthlyLimitDollars: 10 }))).toMatchObject({
      spendUSD: null,
      percentOfLimit: null,
    });
  });

  it('a spend page without its counts is not the documented envelope', () => {
    expect(spendPageSchema.safeParse({ teamMemberSpend: [], totalPages: 1 }).success).toBe(false);
    expect(spendPageSchema.safeParse({ teamMemberSpend: [], totalMembers: -1, totalPages: 1 }).success).toBe(
      false,
    );
    expect(spendPageSchema.safeParse({ totalMembers: 0, totalPages: 0 }).success).toBe(false);
  });
});

const member = (
  name: string,
  spendUSD: number | null,
  limitUSD: number | null,
  totalUSD = spendUSD,
): MemberSpend => ({
  name,
  email: `${name.toLowerCase()}@example.test`,
  spendUSD,
  totalUSD,
  limitUSD,
  percentOfLimit: spendUSD !== null && limitUSD !== null ? (spendUSD / limitUSD) * 100 : null,
});

const TEAM = [
  member('Cy', 80, 100, 90),
  member('Ada', 10, null, 200),
  member('Bo', 45, 50, 45),
  member('Di', null, 100),
  member('Ed', 80, 200, 95),
];
const names = (members: MemberSpend[]) => members.map((m) => m.name);

describe('spend selection', () => {
  it('sorts by spend by default, largest first, ties by name, unknown last', () => {
    expect(names(selectSpend(TEAM, { sort: 'spend' }).members)).toEqual(['Ed', 'Cy', 'Bo', 'Ada', 'Di']);
  });

  it.each([
    ['total', ['Ada', 'Ed', 'Cy', 'Bo', 'Di']],
    ['percent', ['Bo', 'Cy', 'Ed', 'Ada', 'Di']],
    ['name', ['Ada', 'Bo', 'Cy', 'Di', 'Ed']],
    ['email', ['Ada', 'Bo', 'Cy', 'Di', 'Ed']],
  ] as const)('--sort %s', (sort, expected) => {
    expect(names(selectSpend(TEAM, { sort }).members)).toEqual(expected);
  });

  it('--over is strictly above; members without a limit are never over; --limit counts after it', () => {
    expect(isOver(member('X', 80, 100), 80)).toBe(false);
    expect(isOver(member('X', 80.01, 100), 80)).toBe(true);
    expect(isOver(member('X', 1000, null), 0)).toBe(false);
    const over = selectSpend(TEAM, { sort: 'spend', over: 79.9 });
    expect(names(over.members)).toEqual(['Cy', 'Bo']);
    expect(over.overCount).toBe(2);
    const limited = selectSpend(TEAM, { sort: 'spend', over: 30, limit: 1 });
    expect(names(limited.members)).toEqual(['Ed']);
    expect(limited.overCount).toBe(3);
    expect(selectSpend(TEAM, { sort: 'spend' }).overCount).toBe(0);
  });
});
