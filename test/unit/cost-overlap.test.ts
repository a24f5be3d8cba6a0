/**
 * Page-boundary overlap (src/cost/overlap.ts): events carry no id, so a repeated row is recognised only
 * when every decoded field is equal. A row that differs in any of them is another event and must be kept.
 */
import { describe, expect, it } from 'vitest';
import { EventRows } from '../../src/cost/events/rows.js';
import { rowsOverlap, rowsSignature } from '../../src/cost/overlap.js';
import { page, rows } from '../helpers/cost-events.js';

const asRows = (events: Record<string, unknown>[]) => EventRows.fromEvents(page(events).usageEventsDisplay);

describe('rows at a page boundary', () => {
  const [last, next] = rows(2);
  const previous = asRows([next!, last!]);

  it.each([
    ['totalCents', { tokenUsage: { inputTokens: 10, totalCents: 1.5 } }],
    ['chargedCents', { chargedCents: 2 }],
    ['inputTokens', { tokenUsage: { inputTokens: 11, totalCents: 1 } }],
    ['model', { model: 'gpt-4' }],
    ['kind', { kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO' }],
    ['isChargeable', { isChargeable: true }],
    ['usageBasedCosts', { usageBasedCosts: '$0.01' }],
    ['owningUser', { owningUser: '42' }],
    ['owningTeam', { owningTeam: '7' }],
    ['chargedCents being absent', { chargedCents: undefined }],
  ])('that differ only in %s are two events: neither is dropped', (_field, change) => {
    expect(rowsOverlap(previous, asRows([last!, next!]))).toBe(1);
    expect(rowsOverlap(previous, asRows([{ ...last!, ...change }, next!]))).toBe(0);
  });

  it('that both lack a number are still one event: an absent field equals itself', () => {
    const bare = { ...last!, chargedCents: undefined, requestsCosts: undefined };
    expect(rowsOverlap(asRows([next!, bare]), asRows([bare, next!]))).toBe(1);
  });
});

describe('the overlap of two pages', () => {
  // Pages over a two-letter alphabet, each letter one distinct event: every way a tail can repeat itself.
  const [a, b] = rows(2);
  const words = (length: number): string[] =>
    length === 0 ? [''] : words(length - 1).flatMap((word) => [`${word}a`, `${word}b`]);
  const all = Array.from({ length: 7 }, (_, length) => words(length)).flat();
  const pages = new Map(
    all.map((word) => [word, asRows([...word].map((letter) => (letter === 'a' ? a! : b!)))]),
  );
  const longest = (previous: string, current: string) => {
    for (let n = Math.min(previous.length, current.length); n > 0; n--)
      if (previous.endsWith(current.slice(0, n))) return n;
    return 0;
  };

  it('is the largest n with the last n rows of the previous page equal to the first n of the next', () => {
    const wrong: string[] = [];
    for (const previous of all)
      for (const current of all) {
        const got = rowsOverlap(pages.get(previous)!, pages.get(current)!);
        if (got !== longest(previous, current)) wrong.push(`${previous}|${current}: ${got}`);
      }
    expect(wrong).toEqual([]);
  });
});

describe('a page signature', () => {
  const signature = (events: Record<string, unknown>[]) => rowsSignature(asRows(events));
  const [first, second] = rows(2);

  it.each([
    ['model', { model: 'claude-4-sonnet' }],
    ['a model present or absent', { model: undefined }],
    ['an input token count', { tokenUsage: { inputTokens: 11, totalCents: 1 } }],
    ['a cache read token count', { tokenUsage: { inputTokens: 10, cacheReadTokens: 5, totalCents: 1 } }],
  ])('differs between pages that differ only in %s', (_field, change) => {
    expect(signature([first!, second!])).toBe(signature([first!, second!]));
    expect(signature([{ ...first!, ...change }, second!])).not.toBe(signature([first!, second!]));
  });

  it('tells a row without token usage from one with zero tokens and no totalCents', () => {
    const none = { ...first!, tokenUsage: undefined };
    const zero = { ...first!, tokenUsage: { inputTokens: 0 } };
    expect(signature([none])).toBe(signature([{ ...first!, tokenUsage: null }]));
    expect(signature([zero])).not.toBe(signature([none]));
  });

  it('depends on the rows alone, not on spare room in the columns', () => {
    const events = page([first!, second!]).usageEventsDisplay;
    const roomy = new EventRows(1000);
    for (const event of events) roomy.push(event);
    expect(rowsSignature(roomy)).toBe(rowsSignature(EventRows.fromEvents(events)));
  });
});
