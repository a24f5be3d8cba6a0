import { describe, expect, it } from 'vitest';
import {
  WORKED_ME,
  WORKED_MONTHLY_TEXT,
  WORKED_NOW,
  WORKED_SAND,
  WORKED_SUMMARY,
} from '../../fixtures/worked-example.js';
import type { FakeAccount, Handler } from '../fake-cursor/server.js';
import { useScene } from '../helpers/scene.js';
import { colleagueTeamEndpoints } from '../helpers/team-fixtures.js';
import { expectSuccess, runUsage, usageJson } from '../helpers/usage-cli.js';

/**
 * The Grok Bot allowance of get-sand-usage-status end to end: the built CLI against
 * the fake cursor.com, text and JSON, --verbose on, and no colleague of the account's team in the output
 * (checked by every run).
 */

/** The worked example: TZ=UTC, now 2026-07-20T15:00:00Z. */
const NOW = WORKED_NOW;
const SESSION = 'grok-session-cookie';
const scene = useScene({ now: NOW, env: { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}` } });

function proAccount(sand: Handler): FakeAccount {
  return {
    cookies: [SESSION],
    usageSummary: { json: WORKED_SUMMARY },
    me: { json: WORKED_ME },
    legacyUsage: { json: { 'gpt-4': {} } },
    sand,
    // A personal plan: the team endpoints are there, full of colleagues, and must stay unread.
    ...colleagueTeamEndpoints(),
  };
}

/** A paid weekly allowance, 20 % used, resetting Jul 24 (the worked example's). */
const PAID = {
  ...WORKED_SAND,
  includedLimitZero: false,
  sandTrialExpiresAt: null,
  isUnified: false,
};

const MONTHLY_BARS = WORKED_MONTHLY_TEXT;
const FOOTER = ['On-demand: $12.34 / $50.00', 'Account: dev@example.com', 'Plan: Cursor Pro', ''];
const textWith = (grokLines: string[]) => [...MONTHLY_BARS, ...grokLines, ...FOOTER].join('\n');

/** The paid weekly lines: pace over the whole 7-day week (Jul 17 → Jul 24), 52 % of it gone. */
const PAID_GROK_LINES = [
  'Grok Bot: 80% left [=========---]',
  'Pace: 32% in reserve | Expected 52% used | Lasts until reset',
  'Resets in 3d 9h',
];
const PAID_GROK_WINDOW = {
  usedPercent: 20,
  windowMinutes: 10080,
  resetsAt: '2026-07-24T00:00:00Z',
  resetDescription: 'Resets Jul 24 at 12:00AM',
};

async function runBoth(sand: Handler) {
  const text = await runUsage(scene, proAccount(sand), { args: ['--no-color'] });
  const json = await runUsage(scene, proAccount(sand), { args: ['--json'] });
  expectSuccess(text.result);
  expectSuccess(json.result);
  return { text: text.result.stdout, row: usageJson(json.result), fake: json.fake };
}

/** The monthly windows of the worked example, untouched by anything Grok Bot says. */
function expectMonthlyJson(row: ReturnType<typeof usageJson>): void {
  expect([row.usage.primary, row.usage.secondary, row.usage.tertiary].map((w) => w?.usedPercent)).toEqual([
    42, 35, 61,
  ]);
  expect(row.usage.primary).toMatchObject({ windowMinutes: 44640, resetsAt: '2026-08-05T00:00:00Z' });
  expect(row.usage.providerCost).toMatchObject({ used: 12.34, limit: 50 });
}

describe('usage: which Grok Bot allowance exists', () => {
  it('includedLimitZero:false beats hasNonZeroIncludedLimit:false: a paid weekly Grok Bot bar', async () => {
    const { text, row, fake } = await runBoth({
      json: { ...PAID, includedLimitZero: false, hasNonZeroIncludedLimit: false },
    });
    expect(text).toBe(textWith(PAID_GROK_LINES));
    expect(row.usage.extraRateWindows).toEqual([
      { id: 'cursor-grok-bot', title: 'Grok Bot', window: PAID_GROK_WINDOW },
    ]);
    expect(fake.requests.map((request) => request.path)).not.toContain('/api/dashboard/teams');
  });

  it('includedLimitZero:true beats hasNonZeroIncludedLimit:true: no Grok Bot bar', async () => {
    const { text, row } = await runBoth({
      json: { ...PAID, includedLimitZero: true, hasNonZeroIncludedLimit: true },
    });
    expect(text).toBe(textWith([]));
    expect(row.usage.extraRateWindows).toBeUndefined();
  });

  it('an active trial at 100 % is shown, exhausted, with no reset line and no pace', async () => {
    const { text, row } = await runBoth({
      json: {
        ...PAID,
        usagePercent: 100,
        includedLimitZero: true,
        hasNonZeroIncludedLimit: false,
        hasAvailableUsage: false,
        sandTrialExpiresAt: '2026-07-25T00:00:00.000Z',
      },
    });
    // nextResetTimestampUtc is present but a trial's expiry does not replenish it: no reset, no duration.
    expect(text).toBe(textWith(['Grok Bot: 0% left [------------]']));
    expect(row.usage.extraRateWindows).toEqual([
      { id: 'cursor-grok-bot', title: 'Grok Bot', window: { usedPercent: 100 } },
    ]);
    expect(row.pace?.extra).toBeUndefined();
  });

  it('an expired trial grants nothing: no Grok Bot bar', async () => {
    const { text, row } = await runBoth({
      json: {
        ...PAID,
        usagePercent: 30,
        includedLimitZero: true,
        hasNonZeroIncludedLimit: false,
        sandTrialExpiresAt: '2026-07-19T00:00:00.000Z',
      },
    });
    expect(text).toBe(textWith([]));
    expect(row.usage.extraRateWindows).toBeUndefined();
  });
});

describe('usage: a paid allowance is a 7-day window whatever currentPeriodStart says', () => {
  it.each([
    ['starts mid-week', '2026-07-19T12:00:00.000Z'],
    ['is missing', undefined],
  ])(
    'currentPeriodStart %s: windowMinutes 10080 in JSON and a full-week pace line in text',
    async (_name, start) => {
      const { text, row } = await runBoth({ json: { ...PAID, currentPeriodStart: start } });
      expect(text).toBe(textWith(PAID_GROK_LINES));
      expect(row.usage.extraRateWindows?.[0]?.window).toEqual(PAID_GROK_WINDOW);
      expect(row.pace?.extra?.['cursor-grok-bot']).toMatchObject({
        expectedUsedPercent: 52,
        deltaPercent: -32,
        willLastToReset: true,
      });
    },
  );
});

describe('usage: a failed Grok Bot status leaves the monthly bars as they were, exit 0', () => {
  it.each([
    ['HTTP 500', { status: 500, json: { error: 'internal' } }],
    ['a non-JSON body', { text: '<html>Bad gateway</html>' }],
    ['a reset connection', { destroy: true }],
  ])('%s from get-sand-usage-status: no Grok Bot bar, monthly bars as before', async (_name, sand) => {
    const { text, row } = await runBoth(sand);
    expect(text).toBe(textWith([]));
    expectMonthlyJson(row);
    expect(row.usage.extraRateWindows).toBeUndefined();
  });

  it('an answer slower than its budget is abandoned', async () => {
    // The answer is held for a minute; its 5 s budget (src/api/timeouts.ts) runs out as soon as the request
    // has arrived, without the wait. Only its own: auth/me shares the budget and must still answer, which a
    // budget made short for all of them cannot promise on a loaded machine.
    const passed = new AbortController();
    const held = () => {
      passed.abort();
      return { json: PAID, delayMs: 60_000 };
    };
    const { result } = await runUsage(scene, proAccount(held), {
      args: ['--no-color'],
      timing: {
        requestTimer: (ms, endpoint) =>
          endpoint.endsWith('/get-sand-usage-status') ? passed.signal : AbortSignal.timeout(ms),
      },
    });
    expectSuccess(result);
    expect(result.stdout).toBe(textWith([]));
    expect(result.stderr).toMatch(/get-sand-usage-status.*timed out after 5 s/);
  });
});
