import { describe, expect, it } from 'vitest';
import { PRICE_TABLE } from '../../src/cost/price-table.js';
import { createListPricer, eventCost, priceKeyFor } from '../../src/cost/pricing.js';

const AT = Date.parse('2026-07-20T12:00:00Z');
const pricer = createListPricer();
const million = (input: number, output = 0, cacheWrite = 0, cacheRead = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheWriteTokens: cacheWrite,
  cacheReadTokens: cacheRead,
});

describe('model-name mapping', () => {
  it.each([
    ['claude-4-sonnet', 'claude-sonnet-4'],
    ['claude-4-sonnet-thinking', 'claude-sonnet-4'],
    ['claude-4.5-sonnet-thinking', 'claude-sonnet-4-5'],
    ['claude-4.6-sonnet-medium-thinking', 'claude-sonnet-4-6'],
    ['claude-4.5-opus-high-thinking', 'claude-opus-4-5'],
    ['claude-4.1-opus', 'claude-opus-4-1'],
    ['claude-opus-4-7-thinking-high', 'claude-opus-4-7'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-opus-4-20250514', 'claude-opus-4'],
    ['claude-sonnet-4-0', 'claude-sonnet-4'],
    ['claude-4.5-sonnet-1m', 'claude-sonnet-4-5'],
    ['  Anthropic/Claude-Sonnet-4-5 ', 'claude-sonnet-4-5'],
    ['openai:o3', 'o3'],
    ['gpt-5-high', 'gpt-5'],
    ['gpt-5-extra-high', 'gpt-5'],
    ['gpt-5-codex-high', 'gpt-5-codex'],
    ['gpt-5.1-codex-max', 'gpt-5.1-codex'],
    ['gpt-5-fast', 'gpt-5-fast'],
    ['gpt-5.3-codex-high-fast', 'gpt-5.3-codex-fast'],
    ['composer-2-fast', 'composer-2-fast'],
    ['composer-2-standard', 'composer-2'],
    ['grok-code-fast-1', 'grok-code-fast-1'],
    ['gemini-3-pro-preview', 'gemini-3-pro'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['gpt-5-preview', 'gpt-5-preview'],
    ['gpt-5-extra-low', 'gpt-5-extra'],
    ['extra-high', 'extra'],
    ['high', 'high'],
    ['thinking-high', 'thinking'],
    ['auto', 'cursor-auto'],
    ['default', 'cursor-auto'],
  ])('%s → %s', (name, key) => {
    expect(priceKeyFor(name)).toBe(key);
  });

  it.each([
    ['gpt-5.3-codex-high-fast', '-fast on a model without a -fast row is not stripped to the standard price'],
    ['composer-2-fast', 'Composer Fast prices disagree between sources, so it has no row'],
    ['claude-3.5-sonnet', 'an older model outside the table'],
    ['gpt-5.1-fast', '-fast is never silently stripped'],
    ['cursor-small', 'a Cursor-only model without a published price'],
    ['agent_review', 'Bugbot has no per-token row'],
    ['gpt-5-turbo', 'unknown names are never fuzzy-matched'],
    ['gpt-5-preview', 'only a Gemini name drops -preview'],
    ['gpt-5-extra-low', '"extra" is an effort word only before "high"'],
  ])('%s stays unpriced (%s)', (name) => {
    expect(pricer.estimateCents(name, million(1_000_000), AT)).toBeNull();
  });

  it('an absent model is unpriced', () => {
    expect(pricer.estimateCents(undefined, million(1_000_000), AT)).toBeNull();
  });
});

describe('list-price estimate: Cursor counters do not overlap', () => {
  it.each([
    [
      'claude-4.5-sonnet-thinking',
      million(5e4, 1e6, 5e4, 5e4),
      (0.05 * 3 + 15 + 0.05 * 3.75 + 0.05 * 0.3) * 100,
    ],
    [
      'gpt-5 (cache writes bill at the input rate)',
      million(1e6, 1e6, 1e6, 1e6),
      (1.25 + 10 + 1.25 + 0.125) * 100,
    ],
    ['gpt-5-fast (its own row)', million(1e6, 0, 0, 0), 250],
    ['default (Cursor Auto)', million(1e6, 1e6, 1e6, 1e6), (1.25 + 6 + 1.25 + 0.25) * 100],
    ['composer-1', million(0, 1e6, 0, 0), 1000],
    ['claude-opus-4-7-thinking-high', million(2e5, 1e5, 0, 0), (0.2 * 5 + 0.1 * 25) * 100],
  ])('%s', (label, counts, cents) => {
    const model = label.split(' ')[0]!;
    expect(pricer.estimateCents(model, counts, AT)).toBeCloseTo(cents, 9);
  });

  it('a prompt over 200k tokens bills Sonnet 4.5 at the long-context rates', () => {
    const cents = pricer.estimateCents('claude-4.5-sonnet', million(150_000, 10_000, 0, 60_000), AT);
    expect(cents).toBeCloseTo((0.15 * 6 + 0.01 * 22.5 + 0.06 * 0.6) * 100, 9);
  });

  it('a prompt of exactly 200k tokens bills at the normal rates; one token more at the long-context rates', () => {
    // The prompt is input + cache writes + cache reads: 150,000 + 0 + 50,000.
    const at = (input: number) => pricer.estimateCents('claude-4.5-sonnet', million(input, 0, 0, 50_000), AT);
    expect(at(150_000)).toBeCloseTo((0.15 * 3 + 0.05 * 0.3) * 100, 9);
    expect(at(150_001)).toBeCloseTo((0.150_001 * 6 + 0.05 * 0.6) * 100, 9);
  });

  it('cache writes count toward the 200k-token prompt: at exactly 200k normal rates, one more long-context', () => {
    // The prompt is input + cache writes + cache reads: 100,000 + 50,000 + 50,000.
    const at = (input: number) =>
      pricer.estimateCents('claude-4.5-sonnet', million(input, 0, 50_000, 50_000), AT);
    expect(at(100_000)).toBeCloseTo((0.1 * 3 + 0.05 * 3.75 + 0.05 * 0.3) * 100, 9);
    expect(at(100_001)).toBeCloseTo((0.100_001 * 6 + 0.05 * 7.5 + 0.05 * 0.6) * 100, 9);
  });

  it('a Gemini name with or without -preview has the same list price', () => {
    const counts = million(1e6);
    expect(pricer.estimateCents('gemini-2.5-pro', counts, AT)).not.toBeNull();
    expect(pricer.estimateCents('gemini-2.5-pro-preview', counts, AT)).toBe(
      pricer.estimateCents('gemini-2.5-pro', counts, AT),
    );
  });

  it('a row outside its validity dates does not price the event', () => {
    const dated = createListPricer([
      {
        key: 'gpt-5',
        input: 1,
        output: 1,
        cacheRead: 1,
        source: 't',
        asOf: '2026-01-01',
        validUntil: '2026-03-01',
      },
      {
        key: 'gpt-5',
        input: 2,
        output: 2,
        cacheRead: 2,
        source: 't',
        asOf: '2026-03-01',
        validFrom: '2026-03-01',
      },
    ]);
    expect(dated.estimateCents('gpt-5', million(1e6), Date.parse('2026-02-28T23:59:59Z'))).toBe(100);
    expect(dated.estimateCents('gpt-5', million(1e6), Date.parse('2026-03-01T00:00:00Z'))).toBe(200);
    const future = createListPricer([
      {
        key: 'o3',
        input: 1,
        output: 1,
        cacheRead: 1,
        source: 't',
        asOf: '2026-01-01',
        validFrom: '2026-06-01',
      },
    ]);
    expect(future.estimateCents('o3', million(1e6), Date.parse('2026-05-31T00:00:00Z'))).toBeNull();
  });

  it('every bundled row names its source and as-of date', () => {
    for (const row of PRICE_TABLE) {
      expect(row.source, row.key).not.toBe('');
      expect(row.asOf, row.key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe('event cost: reported first, list price only when totalCents is missing', () => {
  const usage = (extra: Record<string, unknown>) => ({
    inputTokens: 1_000_000,
    outputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    totalCents: undefined as number | undefined,
    totalCentsInvalid: false,
    ...extra,
  });

  it.each([
    ['a reported value is used as-is', { totalCents: 7 }, { source: 'reported', cents: 7 }],
    ['a reported zero stays zero', { totalCents: 0 }, { source: 'reported', cents: 0 }],
    ['a missing value on a known model is estimated', {}, { source: 'estimated', cents: 125 }],
    ['an invalid reported value fails closed', { totalCentsInvalid: true }, { source: 'invalid' }],
  ])('%s', (_label, extra, expected) => {
    expect(eventCost(usage(extra), 'gpt-5', AT, pricer)).toEqual(expected);
  });

  it.each([
    ['a negative', -1],
    ['a NaN', Number.NaN],
    ['an infinite', Number.POSITIVE_INFINITY],
  ])('%s reported value fails closed even when not flagged invalid', (_label, totalCents) => {
    expect(eventCost(usage({ totalCents }), 'gpt-5', AT, pricer)).toEqual({ source: 'invalid' });
  });

  it('a missing value on an unknown model is unpriced, never zero', () => {
    expect(eventCost(usage({}), 'mystery-model', AT, pricer)).toEqual({ source: 'unpriced' });
  });

  it('without a price table (CodexBar behaviour) a missing value is unpriced', () => {
    expect(eventCost(usage({}), 'gpt-5', AT, null)).toEqual({ source: 'unpriced' });
  });
});
