/**
 * Page-boundary overlap (src/cost/overlap.ts): events carry no id, so a repeated row is recognised only
 * when every decoded field is equal. A row that differs in any of them is another event and must be kept.
 */
import { describe, expect, it } from 'vitest';
import { EventRows } from '../../src/cost/events/rows.js';
import { rowsOverlap } from '../../src/cost/overlap.js';
import { page, rows } from '../helpers/cost-events.js';

const asRows = (events: Record<string, unknown>[]) => EventRows.fromEvents(page(events).usageEventsDisplay);

describe('rows at a page boundary', () => {
  const [last, next] = rows(2);
  const previous = asRows([next!, last!]);

  it.each([
    ['totalCents', { tokenUsage: { inputTokens: 10, totalCents: 1.5 } }],
    ['chargedCents', { chargedCents: 2 }],
    ['inputTokens', { tokenUsage: { inputTokens: 11, totalCents: 1 } }],
  ])('that differ only in %s are two events: neither is dropped', (_field, change) => {
    expect(rowsOverlap(previous, asRows([last!, next!]))).toBe(1);
    expect(rowsOverlap(previous, asRows([{ ...last!, ...change }, next!]))).toBe(0);
  });
});
