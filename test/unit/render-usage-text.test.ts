import { describe, expect, it } from 'vitest';
import { WORKED_MONTHLY_TEXT } from '../../fixtures/worked-example.js';
import { renderUsageText } from '../../src/render/usage-text.js';
import type { RateWindow, UsageSnapshot } from '../../src/usage/types.js';
import { legacyRequestSnapshot, NOW, workedExampleSnapshot } from '../helpers/usage-sample.js';

const ESC = '\u001b';
const plain = (snapshot: UsageSnapshot) => renderUsageText(snapshot, { now: NOW, colour: false });

function withPrimary(window: RateWindow): UsageSnapshot {
  return {
    ...workedExampleSnapshot(),
    primary: window,
    secondary: null,
    tertiary: null,
    extraRateWindows: [],
  };
}

function primaryLines(window: RateWindow): string[] {
  return plain(withPrimary(window)).split('\n').slice(1, -2);
}

describe('usage text: the worked example', () => {
  it('prints the worked example byte for byte (Grok Bot without pace, as upstream)', () => {
    expect(plain(workedExampleSnapshot())).toBe(
      [
        ...WORKED_MONTHLY_TEXT,
        'Grok Bot: 80% left [=========---]',
        'Resets in 3d 9h',
        'Account: dev@example.com',
        'Plan: Cursor Pro',
      ].join('\n'),
    );
  });

  it('adds a Pace line between the rate and reset lines of a paid weekly Grok Bot (showsPace)', () => {
    const lines = plain(workedExampleSnapshot({ grokShowsPace: true })).split('\n');
    const grok = lines.indexOf('Grok Bot: 80% left [=========---]');
    expect(lines.slice(grok, grok + 3)).toEqual([
      'Grok Bot: 80% left [=========---]',
      'Pace: 32% in reserve | Expected 52% used | Lasts until reset',
      'Resets in 3d 9h',
    ]);
  });

  it('prints the legacy request plan example with its Request quota row', () => {
    expect(plain(legacyRequestSnapshot())).toBe(
      [
        '== Cursor (web) ==',
        'Total: 76% left [=========---]',
        'Pace: 26% in reserve | Expected 50% used | Lasts until reset',
        'Resets in 15d 9h',
        'Request quota: 120 / 500',
        'Account: dev@example.com',
        'Plan: Cursor Enterprise',
      ].join('\n'),
    );
  });

  it('uses the snapshot labels, e.g. "Weekly" when the unified pool is primary', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.labels = { ...snapshot.labels, primary: 'Weekly' };
    expect(plain(snapshot).split('\n')[1]).toBe('Weekly: 58% left [======------]');
  });
});

describe('usage text: percent and bar', () => {
  it.each([
    [57.5, 'Total: 42% left [=====-------]'], // 42.5 left: %.0f ties to even
    [56.5, 'Total: 44% left [=====-------]'], // 43.5 left
    [99.5, 'Total: <1% left [------------]'],
    [100, 'Total: 0% left [------------]'],
    [120, 'Total: 0% left [------------]'], // legacy plans can pass 100 %; remaining clamps at 0
    [-5, 'Total: 100% left [============]'],
    [0, 'Total: 100% left [============]'],
    [91.7, 'Total: 8% left [------------]'], // 8.3 % left: floor(0.996) = 0 filled
  ])('%s %% used prints "%s"', (usedPercent, expected) => {
    expect(plain(withPrimary({ usedPercent })).split('\n')[1]).toBe(expected);
  });
});

describe('usage text: reset lines', () => {
  it('prints "Resets now" once the reset time has passed', () => {
    expect(primaryLines({ usedPercent: 10, resetsAt: new Date('2026-07-20T14:00:00Z') })).toEqual([
      'Total: 90% left [==========--]',
      'Resets now',
    ]);
  });

  it('falls back to resetDescription, keeping a leading "Resets "', () => {
    expect(primaryLines({ usedPercent: 10, resetDescription: 'Resets Aug 5 at 12:00AM' })).toContain(
      'Resets Aug 5 at 12:00AM',
    );
  });

  it('puts "Resets " in front of a description that lacks it', () => {
    expect(primaryLines({ usedPercent: 24, resetDescription: '120 / 500 requests' })).toContain(
      'Resets 120 / 500 requests',
    );
  });

  it('prints no reset line and no pace line when neither resetsAt nor a description is known', () => {
    expect(primaryLines({ usedPercent: 10, windowMinutes: 44640 })).toEqual([
      'Total: 90% left [==========--]',
    ]);
  });
});

describe('usage text: detail rows and on-demand lines', () => {
  it('joins a detail secondaryValue with " · "', () => {
    const snapshot = legacyRequestSnapshot();
    snapshot.details = [{ rows: [{ label: 'Request quota', value: '120 / 500', secondaryValue: '24%' }] }];
    expect(plain(snapshot)).toContain('\nRequest quota: 120 / 500 · 24%\n');
  });

  it('prints "On-demand: used / limit" after the windows and before Account when capped', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.providerCost = { used: 12, limit: 60, currencyCode: 'USD', updatedAt: NOW };
    const lines = plain(snapshot).split('\n');
    expect(lines.slice(-3)).toEqual([
      'On-demand: $12.00 / $60.00',
      'Account: dev@example.com',
      'Plan: Cursor Pro',
    ]);
    expect(lines[lines.length - 4]).toBe('Resets in 3d 9h');
  });

  it('prints only the spend when the limit is 0 (unlimited)', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.providerCost = { used: 10, limit: 0, currencyCode: 'USD', updatedAt: NOW };
    expect(plain(snapshot)).toContain('\nOn-demand: $10.00\nAccount:');
  });

  it('adds "Your spend" for a team pool when the member spent something', () => {
    const snapshot = workedExampleSnapshot();
    snapshot.providerCost = {
      used: 1234.5,
      limit: 5000,
      personalUsed: 44.71,
      currencyCode: 'USD',
      updatedAt: NOW,
    };
    expect(plain(snapshot)).toContain('\nOn-demand: $1,234.50 / $5,000.00\nYour spend: $44.71\n');
  });

  it('prints no on-demand line without providerCost (the worked example has none)', () => {
    expect(plain(workedExampleSnapshot())).not.toContain('On-demand');
  });
});

describe('usage text: colours', () => {
  const coloured = (snapshot: UsageSnapshot) => renderUsageText(snapshot, { now: NOW, colour: true });

  it('emits no escape codes when colour is off', () => {
    expect(plain(workedExampleSnapshot())).not.toContain(ESC);
  });

  it('makes the header bold bright magenta (1;95)', () => {
    expect(coloured(workedExampleSnapshot()).split('\n')[0]).toBe(
      `${ESC}[1m${ESC}[95m== Cursor (web) ==${ESC}[39m${ESC}[22m`,
    );
  });

  it.each([
    [95, '31', '5% left'],
    [80, '33', '20% left'],
    [75, '32', '25% left'],
  ])('at %s %% used the percent text is coloured %s', (usedPercent, code, text) => {
    const line = coloured(withPrimary({ usedPercent })).split('\n')[1];
    expect(line).toContain(`Total: ${ESC}[${code}m${text}${ESC}[39m ${ESC}[95m[`);
  });

  it('colours the labels of Pace, Account and Plan 95 and reset lines grey (90), not rate titles', () => {
    const lines = coloured(workedExampleSnapshot()).split('\n');
    expect(lines[1]?.startsWith('Total: ')).toBe(true);
    expect(lines[2]).toBe(`${ESC}[95mPace${ESC}[39m: 8% in reserve | Expected 50% used | Lasts until reset`);
    expect(lines[3]).toBe(`${ESC}[90mResets in 15d 9h${ESC}[39m`);
    expect(lines.slice(-2)).toEqual([
      `${ESC}[95mAccount${ESC}[39m: dev@example.com`,
      `${ESC}[95mPlan${ESC}[39m: Cursor Pro`,
    ]);
  });
});
