import { describe, expect, it } from 'vitest';
import { type BarEntry, renderBar } from '../../src/render/status-bars.js';
import { DEFAULT_TEMPLATE, type StatuslineView, statuslineText } from '../../src/render/statusline.js';
import type { UsageSnapshot } from '../../src/usage/types.js';
import { NOW, workedExampleSnapshot } from '../helpers/usage-sample.js';

/**
 * `statusline --format waybar|swiftbar|i3blocks`, pinned: what each bar reads, the level by the
 * most-constrained window, stale and failed accounts, several accounts, and text that could break a format.
 */

const ON_DEMAND = { used: 12.34, limit: 50, currencyCode: 'USD' as const, updatedAt: NOW };

function usage(overrides: Partial<UsageSnapshot> = {}, stale = false, account?: string): BarEntry {
  const view: StatuslineView = {
    snapshot: { ...workedExampleSnapshot(), providerCost: ON_DEMAND, ...overrides },
    fetchedAt: new Date(NOW.getTime() - 42_000),
    now: NOW,
    stale,
    account,
  };
  return { kind: 'usage', text: statuslineText(DEFAULT_TEMPLATE, view, false), view };
}

/** The worked example with its Third Party window (the most constrained) at `left` % left. */
const thirdPartyLeft = (left: number) =>
  usage({ tertiary: { ...workedExampleSnapshot().tertiary!, usedPercent: 100 - left } });

const FAILED: BarEntry = { kind: 'failure', text: 'Cursor (broken): not logged in' };

const TOOLTIP = [
  'Cursor · Pro · dev@example.com',
  'Total: 58% left · resets in 15d 9h · 8% in reserve',
  'Cursor: 65% left · resets in 15d 9h',
  'Third Party: 39% left · resets in 15d 9h',
  'Grok Bot: 80% left · resets in 3d 9h',
  'On-demand: $12.34 of $50',
  'Updated 42s ago',
];

const waybar = (entries: BarEntry[]) => {
  const output = renderBar('waybar', entries);
  expect(output.endsWith('\n')).toBe(true);
  expect(output.trimEnd()).not.toContain('\n');
  return JSON.parse(output);
};

describe('waybar: one JSON object on one line', () => {
  it('the line, every window in the tooltip, and class and percentage by the most-constrained window', () => {
    expect(waybar([usage()])).toEqual({
      text: 'Cursor 58% left · 15d 9h · $12.34/$50',
      alt: 'ok',
      tooltip: TOOLTIP.join('\n'),
      class: 'ok',
      percentage: 39,
    });
  });

  it.each([
    [25, 'ok'],
    [24.6, 'warning'],
    [10, 'warning'],
    [9.6, 'critical'],
    [0, 'critical'],
  ])('%s percent left is %s', (left, level) => {
    expect(waybar([thirdPartyLeft(left)])).toMatchObject({
      class: level,
      alt: level,
      percentage: Math.round(left),
    });
  });

  it('a window whose usage cursor.com does not know is unknown, and never the most constrained', () => {
    const snapshot = workedExampleSnapshot();
    const grok = { ...snapshot.extraRateWindows[0]!, usageKnown: false, window: { usedPercent: 100 } };
    const shown = waybar([usage({ extraRateWindows: [grok] })]);
    expect(shown.tooltip).toContain('\nGrok Bot: unknown\n');
    expect(shown.percentage).toBe(39);
  });

  it('no window at all: class unknown and no percentage', () => {
    const shown = waybar([usage({ primary: null, secondary: null, tertiary: null, extraRateWindows: [] })]);
    expect(shown).toEqual({
      text: expect.stringMatching(/^Cursor +· \$12\.34\/\$50$/),
      alt: 'unknown',
      tooltip: 'Cursor · Pro · dev@example.com\nOn-demand: $12.34 of $50\nUpdated 42s ago',
      class: 'unknown',
    });
  });

  it('stale: the ~ line, class ["ok", "stale"], and the tooltip says so', () => {
    expect(waybar([usage({}, true)])).toMatchObject({
      text: '~Cursor 58% left · 15d 9h · $12.34/$50',
      class: ['ok', 'stale'],
      tooltip: expect.stringMatching(/\nUpdated 42s ago \(stale\)$/),
    });
  });

  it('a failure: the marker, class error, no percentage', () => {
    expect(waybar([FAILED])).toEqual({
      text: 'Cursor (broken): not logged in',
      alt: 'error',
      tooltip: 'Cursor (broken): not logged in',
      class: 'error',
    });
  });

  it('several accounts: one object, the worst level, the lowest percentage, error for the failed one', () => {
    const shown = waybar([usage({}, false, 'work'), FAILED, thirdPartyLeft(8)]);
    expect(shown.text).toBe(
      'Cursor (work) 58% left · 15d 9h · $12.34/$50 | Cursor (broken): not logged in | Cursor 58% left · 15d 9h · $12.34/$50',
    );
    expect(shown.class).toEqual(['critical', 'error']);
    expect(shown.alt).toBe('critical');
    expect(shown.percentage).toBe(8);
    expect(shown.tooltip.split('\n\n')).toHaveLength(3);
    expect(shown.tooltip).toMatch(/^Cursor \(work\) · Pro/);
  });

  it('escapes Pango markup and keeps control characters out', () => {
    const shown = waybar([
      usage({
        identity: { providerID: 'cursor', accountEmail: '<b>a&b</b>\u001b]0;x\u0007', loginMethod: 'Pro' },
      }),
    ]);
    expect(shown.tooltip.split('\n')[0]).toBe('Cursor · Pro · &lt;b&gt;a&amp;b&lt;/b&gt;\\x1b]0;x\\x07');
    expect(JSON.stringify(shown)).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('swiftbar (and xbar): a title, ---, then menu lines with their parameters', () => {
  it('pinned', () => {
    expect(renderBar('swiftbar', [usage()])).toBe(
      [
        'Cursor 58% left · 15d 9h · $12.34/$50 | emojize=false symbolize=false',
        '---',
        ...TOOLTIP.map((line) => `${line} | emojize=false symbolize=false`),
        '---',
        'Refresh | refresh=true',
        '',
      ].join('\n'),
    );
  });

  it('a low window colours the title and its own line', () => {
    const lines = renderBar('swiftbar', [thirdPartyLeft(8)]).split('\n');
    expect(lines[0]).toBe(
      'Cursor 58% left · 15d 9h · $12.34/$50 | color=#FF3B30 emojize=false symbolize=false',
    );
    expect(lines.filter((line) => line.includes('color='))).toEqual([
      lines[0],
      'Third Party: 8% left · resets in 15d 9h | color=#FF3B30 emojize=false symbolize=false',
    ]);
    expect(renderBar('swiftbar', [thirdPartyLeft(20)]).split('\n')[0]).toContain('color=#FFB000 ');
  });

  it('several accounts: a title each (the bar cycles through them), a section each', () => {
    const output = renderBar('swiftbar', [usage({}, true, 'work'), FAILED]);
    const lines = output.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      '~Cursor (work) 58% left · 15d 9h · $12.34/$50 | emojize=false symbolize=false',
      'Cursor (broken): not logged in | color=#8E8E93 emojize=false symbolize=false',
      '---',
    ]);
    expect(output).toContain(
      '\nUpdated 42s ago (stale) | emojize=false symbolize=false\n---\n' +
        'Cursor (broken): not logged in | color=#8E8E93 emojize=false symbolize=false\n---\nRefresh | refresh=true\n',
    );
  });

  it('a | in the text cannot add parameters, a leading - cannot make a separator, a newline cannot add a line', () => {
    const entry = { ...usage(), text: '--- | href=https://evil.example\nbash=/bin/sh' };
    const [title] = renderBar('swiftbar', [entry]).split('\n');
    expect(title).toBe('\u2010-- ¦ href=https://evil.example bash=/bin/sh | emojize=false symbolize=false');
    const extra = { ...workedExampleSnapshot().extraRateWindows[0]!, title: '-x | color=red' };
    expect(renderBar('swiftbar', [usage({ extraRateWindows: [extra] })])).toContain(
      '\n\u2010x ¦ color=red: 80% left · resets in 3d 9h | emojize=false symbolize=false\n',
    );
  });
});

describe('i3blocks: full text, short text, colour', () => {
  it.each([
    ['ok: no colour line', usage(), 'Cursor 58% left · 15d 9h · $12.34/$50\n58%\n'],
    ['stale', usage({}, true), '~Cursor 58% left · 15d 9h · $12.34/$50\n~58%\n'],
    ['warning', thirdPartyLeft(20), 'Cursor 58% left · 15d 9h · $12.34/$50\n58%\n#FFB000\n'],
    ['critical', thirdPartyLeft(5), 'Cursor 58% left · 15d 9h · $12.34/$50\n58%\n#FF3B30\n'],
    ['a failure', FAILED, 'Cursor (broken): not logged in\nCursor (broken): not logged in\n#8E8E93\n'],
  ])('%s', (_what, entry, output) => {
    expect(renderBar('i3blocks', [entry])).toBe(output);
  });

  it('several accounts: each line joins theirs, the colour is the worst', () => {
    expect(renderBar('i3blocks', [usage({}, false, 'work'), FAILED, thirdPartyLeft(20)])).toBe(
      'Cursor (work) 58% left · 15d 9h · $12.34/$50 | Cursor (broken): not logged in | Cursor 58% left · 15d 9h · $12.34/$50\n' +
        '58% | Cursor (broken): not logged in | 58%\n#FFB000\n',
    );
  });
});
