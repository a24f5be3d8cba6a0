import { describe, expect, it } from 'vitest';
import {
  WORKED_ME,
  WORKED_MONTHLY_TEXT,
  WORKED_NOW,
  WORKED_SAND,
  WORKED_SUMMARY,
} from '../../fixtures/worked-example.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { usageErrorRowSchema, usageOutputSchema, usageRowSchema } from '../helpers/json-rows/usage.js';
import { useScene } from '../helpers/scene.js';

/** The worked example: TZ=UTC, now 2026-07-20T15:00:00Z. */
const NOW = WORKED_NOW;
const COOKIE = 'WorkosCursorSessionToken=user_01J0EXAMPLE%3A%3Amanual';

function workedExampleAccount(overrides: Partial<FakeAccount> = {}): FakeAccount {
  return {
    cookies: ['user_01J0EXAMPLE%3A%3Amanual'],
    usageSummary: { json: WORKED_SUMMARY },
    me: { json: WORKED_ME },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand: { json: { ...WORKED_SAND, includedLimitZero: false, isUnified: false } },
    ...overrides,
  };
}

const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: COOKIE } });

async function run(args: string[], account = workedExampleAccount()) {
  await scene.serve([account]);
  return scene.run(['usage', '--provider', 'cursor', ...args]);
}

describe('codexbar usage output', () => {
  it('text matches the worked example, with the paid-weekly Grok Bot pace line', async () => {
    const result = await run(['--no-color']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        ...WORKED_MONTHLY_TEXT,
        'Grok Bot: 80% left [=========---]',
        'Pace: 32% in reserve | Expected 52% used | Lasts until reset',
        'Resets in 3d 9h',
        'On-demand: $12.34 / $50.00',
        'Account: dev@example.com',
        'Plan: Cursor Pro',
        '',
      ].join('\n'),
    );
  });

  it('--json prints one row that validates against the documented row shape (docs/json.md)', async () => {
    const result = await run(['--json']);
    expect(result.code).toBe(0);
    const rows = usageOutputSchema.parse(JSON.parse(result.stdout));
    expect(rows).toHaveLength(1);
    const row = usageRowSchema.parse(rows[0]);
    expect(row.usage.primary).toEqual({
      usedPercent: 42,
      windowMinutes: 44640,
      resetsAt: '2026-08-05T00:00:00Z',
      resetDescription: 'Resets Aug 5 at 12:00AM',
    });
    expect(row.usage.providerCost).toMatchObject({
      used: 12.34,
      limit: 50,
      currencyCode: 'USD',
      period: 'Monthly',
    });
    expect(row.pace?.tertiary).toMatchObject({ deltaPercent: 11, etaSeconds: 863115, stage: 'ahead' });
    expect(row.usage.identity).toEqual({
      providerID: 'cursor',
      accountEmail: 'dev@example.com',
      accountID: 'user_01J0EXAMPLE',
      loginMethod: 'Cursor Pro',
    });
  });

  it('--pretty uses CodexBar encoding: sorted keys, " : " and escaped slashes', async () => {
    const result = await run(['--json', '--pretty']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"provider" : "cursor"');
    expect(result.stdout.indexOf('"pace"')).toBeLessThan(result.stdout.indexOf('"provider"'));
    expect(
      usageRowSchema.parse(usageOutputSchema.parse(JSON.parse(result.stdout))[0]).usage.primary?.usedPercent,
    ).toBe(42);
  });

  it('a non-JSON usage-summary: "Could not parse Cursor usage" naming the endpoint, exit 1', async () => {
    const result = await run([], workedExampleAccount({ usageSummary: { text: '<html>oops</html>' } }));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: Could not parse Cursor usage: GET \/api\/usage-summary: /);
  });

  it('a wrongly typed usage-summary field is a parse error naming the field', async () => {
    const result = await run(
      ['--json'],
      workedExampleAccount({ usageSummary: { json: { individualUsage: { plan: { used: 'lots' } } } } }),
    );
    expect(result.code).toBe(1);
    const row = usageErrorRowSchema.parse(usageOutputSchema.parse(JSON.parse(result.stdout))[0]);
    expect(row.error.message).toMatch(/Could not parse Cursor usage: GET \/api\/usage-summary: .*used/);
  });

  it('a legacy request plan shows the request quota and hides the token lanes', async () => {
    const account = workedExampleAccount({
      legacyUsage: { json: { 'gpt-4': { numRequests: 100, numRequestsTotal: 120, maxRequestUsage: 500 } } },
    });
    const result = await run(['--no-color'], account);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Total: 76% left [=========---]\n');
    expect(result.stdout).toContain('Request quota: 120 / 500\n');
    expect(result.stdout).not.toContain('Third Party:');
    expect(result.stdout).not.toContain('Grok Bot:');
  });
});
