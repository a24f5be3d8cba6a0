import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  WORKED_ME,
  WORKED_MONTHLY_TEXT,
  WORKED_NOW,
  WORKED_SAND,
  WORKED_SUMMARY,
} from '../../fixtures/worked-example.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';

/** docs/behaviour.md §23: TZ=UTC, now 2026-07-20T15:00:00Z. */
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

const rateWindow = z.strictObject({
  usedPercent: z.number(),
  windowMinutes: z.number().int().optional(),
  resetsAt: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    .optional(),
  resetDescription: z.string().optional(),
});
const paceEntry = z.strictObject({
  stage: z.enum(['onTrack', 'slightlyAhead', 'slightlyBehind', 'ahead', 'behind', 'farAhead', 'farBehind']),
  deltaPercent: z.number().int(),
  expectedUsedPercent: z.number().int(),
  willLastToReset: z.boolean(),
  etaSeconds: z.number().int().optional(),
  summary: z.string(),
});
/** The documented row (docs/behaviour.md §16), plus our documented additive `pace.extra`. */
const usageRowSchema = z.strictObject({
  provider: z.literal('cursor'),
  source: z.literal('web'),
  usage: z.strictObject({
    primary: rateWindow.nullable(),
    secondary: rateWindow.nullable(),
    tertiary: rateWindow.nullable(),
    extraRateWindows: z
      .array(
        z.strictObject({
          id: z.string(),
          title: z.string(),
          window: rateWindow,
          usageKnown: z.literal(false).optional(),
        }),
      )
      .optional(),
    providerCost: z
      .strictObject({
        used: z.number(),
        limit: z.number(),
        currencyCode: z.literal('USD'),
        period: z.string().optional(),
        resetsAt: z.string().optional(),
        personalUsed: z.number().optional(),
        updatedAt: z.string(),
      })
      .optional(),
    details: z
      .array(
        z.object({
          title: z.string().optional(),
          rows: z.array(z.object({ label: z.string(), value: z.string() })),
        }),
      )
      .optional(),
    updatedAt: z.string(),
    identity: z.strictObject({
      providerID: z.literal('cursor'),
      accountEmail: z.string().optional(),
      accountOrganization: z.string().optional(),
      loginMethod: z.string().optional(),
      accountID: z.string().optional(),
    }),
    accountEmail: z.string().optional(),
    accountOrganization: z.string().optional(),
    loginMethod: z.string().optional(),
  }),
  pace: z
    .strictObject({
      primary: paceEntry.optional(),
      secondary: paceEntry.optional(),
      tertiary: paceEntry.optional(),
      extra: z.record(z.string(), paceEntry).optional(),
    })
    .optional(),
});

describe('codexbar usage output', () => {
  it('text matches the worked example (docs/behaviour.md §23.1), with the paid-weekly Grok Bot pace line', async () => {
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

  it('--json prints one row that validates against the documented row shape', async () => {
    const result = await run(['--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout);
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
    expect(JSON.parse(result.stdout)[0].usage.primary.usedPercent).toBe(42);
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
    const row = JSON.parse(result.stdout)[0];
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
