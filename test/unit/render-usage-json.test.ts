import { describe, expect, it } from 'vitest';
import { ArgumentError, NoSessionError, TimeoutError } from '../../src/errors.js';
import { encodeJson } from '../../src/lib/json.js';
import { cliErrorRow, usageErrorRow, usageRow } from '../../src/render/usage-json.js';
import type { UsageSnapshot } from '../../src/usage/types.js';
import { legacyRequestSnapshot, NOW, workedExampleSnapshot } from '../helpers/usage-sample.js';

/**
 * CodexBar's documented `usage --provider cursor --json --pretty` example, verbatim.
 */
const SPEC_PRETTY_EXAMPLE = `[
  {
    "pace" : {
      "primary" : {
        "deltaPercent" : -8,
        "expectedUsedPercent" : 50,
        "stage" : "behind",
        "summary" : "8% in reserve | Expected 50% used | Lasts until reset",
        "willLastToReset" : true
      },
      "secondary" : {
        "deltaPercent" : -15,
        "expectedUsedPercent" : 50,
        "stage" : "farBehind",
        "summary" : "15% in reserve | Expected 50% used | Lasts until reset",
        "willLastToReset" : true
      },
      "tertiary" : {
        "deltaPercent" : 11,
        "etaSeconds" : 863115,
        "expectedUsedPercent" : 50,
        "stage" : "ahead",
        "summary" : "11% in deficit | Expected 50% used | Runs out in 9d 23h",
        "willLastToReset" : false
      }
    },
    "provider" : "cursor",
    "source" : "web",
    "usage" : {
      "accountEmail" : "dev@example.com",
      "extraRateWindows" : [
        {
          "id" : "cursor-grok-bot",
          "title" : "Grok Bot",
          "window" : {
            "resetDescription" : "Resets Jul 24 at 12:00AM",
            "resetsAt" : "2026-07-24T00:00:00Z",
            "usedPercent" : 20,
            "windowMinutes" : 10080
          }
        }
      ],
      "identity" : {
        "accountEmail" : "dev@example.com",
        "accountID" : "user_01J0EXAMPLE",
        "loginMethod" : "Cursor Pro",
        "providerID" : "cursor"
      },
      "loginMethod" : "Cursor Pro",
      "primary" : {
        "resetDescription" : "Resets Aug 5 at 12:00AM",
        "resetsAt" : "2026-08-05T00:00:00Z",
        "usedPercent" : 42,
        "windowMinutes" : 44640
      },
      "providerCost" : {
        "currencyCode" : "USD",
        "limit" : 50,
        "period" : "Monthly",
        "resetsAt" : "2026-08-05T00:00:00Z",
        "updatedAt" : "2026-07-20T15:00:01Z",
        "used" : 12.34
      },
      "secondary" : {
        "resetDescription" : "Resets Aug 5 at 12:00AM",
        "resetsAt" : "2026-08-05T00:00:00Z",
        "usedPercent" : 35,
        "windowMinutes" : 44640
      },
      "tertiary" : {
        "resetDescription" : "Resets Aug 5 at 12:00AM",
        "resetsAt" : "2026-08-05T00:00:00Z",
        "usedPercent" : 61,
        "windowMinutes" : 44640
      },
      "updatedAt" : "2026-07-20T15:00:01Z"
    }
  }
]`;

function specScenario(): UsageSnapshot {
  const snapshot = workedExampleSnapshot();
  snapshot.providerCost = {
    used: 12.34,
    limit: 50,
    currencyCode: 'USD',
    period: 'Monthly',
    resetsAt: new Date('2026-08-05T00:00:00Z'),
    updatedAt: new Date('2026-07-20T15:00:01Z'),
  };
  return snapshot;
}

const compact = (snapshot: UsageSnapshot) => encodeJson([usageRow(snapshot, NOW)]);
const parsed = (snapshot: UsageSnapshot) => JSON.parse(compact(snapshot))[0];

describe('usage --json row', () => {
  it('matches the pretty example byte for byte', () => {
    expect(encodeJson([usageRow(specScenario(), NOW)], { pretty: true })).toBe(SPEC_PRETTY_EXAMPLE);
  });

  it('follows the encoding order in compact output: provider, source, usage, pace', () => {
    const row = parsed(specScenario());
    expect(Object.keys(row)).toEqual(['provider', 'source', 'usage', 'pace']);
    expect(Object.keys(row.usage)).toEqual([
      'primary',
      'secondary',
      'tertiary',
      'extraRateWindows',
      'providerCost',
      'updatedAt',
      'identity',
      'accountEmail',
      'loginMethod',
    ]);
    expect(Object.keys(row.usage.primary)).toEqual([
      'usedPercent',
      'windowMinutes',
      'resetsAt',
      'resetDescription',
    ]);
    expect(Object.keys(row.pace.tertiary)).toEqual([
      'stage',
      'deltaPercent',
      'expectedUsedPercent',
      'willLastToReset',
      'etaSeconds',
      'summary',
    ]);
  });

  it('always writes primary, secondary and tertiary, null when missing, plus legacy details', () => {
    const json = compact(legacyRequestSnapshot());
    expect(json).toContain('"secondary":null,"tertiary":null,');
    expect(json).toContain(
      '"details":[{"title":"Usage","rows":[{"label":"Request quota","value":"120 \\/ 500"}]}]',
    );
    expect(json).not.toContain('extraRateWindows');
  });

  it('omits details when empty and never emits internal fields (labels, showsPace) or usageKnown:true', () => {
    const json = compact(workedExampleSnapshot({ grokShowsPace: true }));
    expect(json).not.toMatch(/"details"|"labels"|"showsPace"|"usageKnown"/);
  });

  it('emits usageKnown only when it is false', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.extraRateWindows[0]!.usageKnown = false;
    expect(parsed(snapshot).usage.extraRateWindows[0].usageKnown).toBe(false);
  });

  it('omits the pace key entirely when no window qualifies', () => {
    const snapshot: UsageSnapshot = {
      ...workedExampleSnapshot(),
      primary: { usedPercent: 42 },
      secondary: null,
      tertiary: null,
      extraRateWindows: [],
    };
    expect(Object.keys(parsed(snapshot))).toEqual(['provider', 'source', 'usage']);
  });

  it('puts a paid weekly Grok Bot pace under pace.extra["cursor-grok-bot"] (additive field)', () => {
    const pace = parsed(workedExampleSnapshot({ grokShowsPace: true })).pace;
    expect(pace.extra).toEqual({
      'cursor-grok-bot': {
        stage: 'farBehind',
        deltaPercent: -32,
        expectedUsedPercent: 52,
        willLastToReset: true,
        summary: '32% in reserve | Expected 52% used | Lasts until reset',
      },
    });
    expect(parsed(workedExampleSnapshot()).pace.extra).toBeUndefined();
  });

  it('flattens the identity into accountEmail / accountOrganization / loginMethod', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.identity.accountOrganization = 'Example Inc';
    const usage = parsed(snapshot).usage;
    expect(usage.identity.accountOrganization).toBe('Example Inc');
    expect([usage.accountEmail, usage.accountOrganization, usage.loginMethod]).toEqual([
      'dev@example.com',
      'Example Inc',
      'Cursor Pro',
    ]);
  });

  it('writes providerCost.personalUsed for a team pool', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.providerCost = { used: 25, limit: 500, personalUsed: 5, currencyCode: 'USD', updatedAt: NOW };
    expect(compact(snapshot)).toContain(
      '"providerCost":{"used":25,"limit":500,"currencyCode":"USD","personalUsed":5,"updatedAt":"2026-07-20T15:00:00Z"}',
    );
  });
});

describe('usage --json error rows', () => {
  it('writes a provider error with code, message and kind', () => {
    const row = usageErrorRow(new NoSessionError('No Cursor session found.'), 'auto');
    expect(encodeJson([row])).toBe(
      '[{"provider":"cursor","source":"auto","error":{"code":1,"message":"No Cursor session found.","kind":"provider"}}]',
    );
  });

  it('gives a timeout exit code 4', () => {
    expect(usageErrorRow(new TimeoutError('GET /api/usage-summary', 15000), 'web').error?.code).toBe(4);
  });

  it('writes command-level errors as provider "cli", source "cli"', () => {
    const row = cliErrorRow(new ArgumentError('--source must be auto|web|cli|oauth|api.'));
    expect(encodeJson([row])).toBe(
      '[{"provider":"cli","source":"cli","error":{"code":1,"message":"--source must be auto|web|cli|oauth|api.","kind":"args"}}]',
    );
  });
});
