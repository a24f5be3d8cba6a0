import { describe, expect, it } from 'vitest';
import { ADMIN_MAX_SPAN_MS, DAY_MS, splitWindow } from '../../src/team/chunks.js';

describe('30-day pieces', () => {
  it('a 95-day window is four requests that meet without overlap or gap', () => {
    const start = new Date('2026-04-17T00:00:00Z');
    const end = new Date('2026-07-20T15:00:00Z');
    const pieces = splitWindow(start, end);
    expect(pieces).toHaveLength(4);
    expect(pieces[0]!.start).toEqual(start);
    expect(pieces.at(-1)!.end).toEqual(end);
    for (const [i, piece] of pieces.entries()) {
      expect(piece.end.getTime() - piece.start.getTime()).toBeLessThan(ADMIN_MAX_SPAN_MS);
      if (i > 0) expect(piece.start.getTime()).toBe(pieces[i - 1]!.end.getTime() + 1);
    }
  });

  it('a window of exactly 30 days is one request; one millisecond more is two', () => {
    const start = new Date('2026-06-01T00:00:00Z');
    expect(splitWindow(start, new Date(start.getTime() + 30 * DAY_MS - 1))).toHaveLength(1);
    const two = splitWindow(start, new Date(start.getTime() + 30 * DAY_MS));
    expect(two.map((p) => [p.start.getTime() - start.getTime(), p.end.getTime() - start.getTime()])).toEqual([
      [0, 30 * DAY_MS - 1],
      [30 * DAY_MS, 30 * DAY_MS],
    ]);
  });
});
