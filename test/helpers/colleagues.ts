import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/**
 * Other members of the signed-in user's teams, with names and emails no real output could contain by
 * accident, so "nothing about a colleague leaks" can be checked by plain substring search
 * (docs/invariants.md, "Other members' data stays out": other members' data is not retained or printed,
 * not even in debug output).
 */

export interface TeamMemberRow {
  userId: number;
  email: string;
  name: string;
  role: string;
  spendCents: number;
  overallSpendCents: number;
  fastPremiumRequests: number;
  monthlyLimitDollars: number;
  effectivePerUserLimitDollars?: number;
  hardLimitOverrideDollars: number;
}

const FIRST_NAMES = ['Ottoline', 'Barnabus', 'Wilhelmina', 'Thaddeus', 'Perpetua'];
const LAST_NAMES = ['Vantablack', 'Quorndon', 'Fitzwarren', 'Pennyfeather'];

/** Every colleague ever generated, across all teams of all fixtures. */
const roster: TeamMemberRow[] = [];

/** Colleague `index` of a team: a unique, unmistakable name and email. */
export function colleague(teamTag: string, index: number): TeamMemberRow {
  const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(index / FIRST_NAMES.length) % LAST_NAMES.length]!;
  const row: TeamMemberRow = {
    userId: 70_000 + index,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${teamTag}${index}@colleague-${teamTag}.example`,
    name: `${first} ${last}-${teamTag}${index}`,
    role: 'member',
    spendCents: 3_000 + index,
    overallSpendCents: 60_000 + index,
    fastPremiumRequests: 7,
    monthlyLimitDollars: 900,
    effectivePerUserLimitDollars: 800,
    hardLimitOverrideDollars: 0,
  };
  roster.push(row);
  return row;
}

/** Asserts that stdout and stderr mention no colleague: no email, no name, not even the name stems. */
export function expectNoColleagueLeak(result: CliResult): void {
  const output = `${result.stdout}\n${result.stderr}`.toLowerCase();
  const leaked = roster.filter(
    (row) => output.includes(row.email.toLowerCase()) || output.includes(row.name.toLowerCase()),
  );
  expect(leaked.map((row) => row.email)).toEqual([]);
  for (const stem of [...LAST_NAMES, 'colleague-']) expect(output).not.toContain(stem.toLowerCase());
}
