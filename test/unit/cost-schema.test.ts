import { describe, expect, it } from 'vitest';
import { eventsPageSchema, usageEventSchema } from '../../src/api/schemas/events.js';

const decodeEvent = (raw: unknown) => usageEventSchema.parse(raw);
const tokens = (raw: Record<string, unknown>) => decodeEvent({ tokenUsage: raw }).tokenUsage;

describe('events page schema: integer token fields (docs/behaviour.md §18.2)', () => {
  it.each([
    ['a JSON integer', 1532, 1532],
    ['an integral double', 12.0, 12],
    ['a numeric string', '1532', 1532],
    ['a string holding an integral double', '1e3', 1000],
    ['a negative integer (decodes; docs/behaviour.md §19.1 drops the event later)', -5, -5],
    ['a fractional double', 12.5, 0],
    ['a fractional string', '12.5', 0],
    ['text', 'many', 0],
    ['an empty string', '', 0],
    ['a string with spaces', ' 12', 0],
    ['"Infinity"', 'Infinity', 0],
    ['a boolean', true, 0],
    ['null', null, 0],
    ['an object', { n: 1 }, 0],
    ['a double beyond Int64', 1e20, 0],
  ])('inputTokens given %s decodes as %s', (_label, value, expected) => {
    expect(tokens({ inputTokens: value })?.inputTokens).toBe(expected);
  });

  it('omitted token counters (protobuf JSON leaves zeros out) decode as 0', () => {
    expect(tokens({ inputTokens: 10 })).toEqual({
      inputTokens: 10,
      outputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalCents: undefined,
      totalCentsInvalid: false,
    });
  });
});

describe('events page schema: double fields are a finite number or numeric string, else absent', () => {
  it.each([
    ['a number', 6.75, 6.75],
    ['an integer', 4, 4],
    ['a numeric string', '6.75', 6.75],
    ['a negative number', -1, -1],
    ['"NaN"', 'NaN', undefined],
    ['"Infinity"', 'Infinity', undefined],
    ['text', '$0.07', undefined],
    ['a boolean', false, undefined],
    ['null', null, undefined],
  ])('chargedCents, cursorTokenFee and requestsCosts given %s decode as %s', (_label, value, expected) => {
    const event = decodeEvent({ chargedCents: value, cursorTokenFee: value, requestsCosts: value });
    expect(event.chargedCents).toBe(expected);
    expect(event.cursorTokenFee).toBe(expected);
    expect(event.requestsCosts).toBe(expected);
  });
});

describe('events page schema: totalCents keeps "invalid" apart from "absent" (docs/behaviour.md §18.2, §20.1)', () => {
  it.each([
    ['missing', {}, undefined, false],
    ['null', { totalCents: null }, undefined, false],
    ['a number', { totalCents: 6.31 }, 6.31, false],
    ['zero', { totalCents: 0 }, 0, false],
    ['a numeric string', { totalCents: '6.31' }, 6.31, false],
    ['negative', { totalCents: -1 }, undefined, true],
    ['"NaN"', { totalCents: 'NaN' }, undefined, true],
    ['"Infinity"', { totalCents: 'Infinity' }, undefined, true],
    ['text', { totalCents: 'lots' }, undefined, true],
    ['a boolean', { totalCents: true }, undefined, true],
  ])('totalCents %s → totalCents %s, invalid %s', (_label, raw, cents, invalid) => {
    const usage = tokens({ inputTokens: 1, ...raw });
    expect(usage?.totalCents).toBe(cents);
    expect(usage?.totalCentsInvalid).toBe(invalid);
  });
});

describe('events page schema: timestamps, models and ids', () => {
  it.each([
    ['an ms string', '1781519582153', 1781519582153],
    ['an ms number', 1781519582153, 1781519582153],
    ['an integral double string', '1.781519582153e12', 1781519582153],
    ['a fractional value', '1781519582153.5', undefined],
    ['text', 'yesterday', undefined],
    ['null', null, undefined],
  ])('timestamp given %s decodes as %s', (_label, value, expected) => {
    expect(decodeEvent({ timestamp: value }).timestamp).toBe(expected);
  });

  it('an empty model name is absent', () => {
    expect(decodeEvent({ model: '' }).model).toBeUndefined();
    expect(decodeEvent({ model: 'gpt-5' }).model).toBe('gpt-5');
  });

  it('owningUser as a number or a numeric string decodes to the same text', () => {
    expect(decodeEvent({ owningUser: 184467 }).owningUser).toBe('184467');
    expect(decodeEvent({ owningUser: '184467' }).owningUser).toBe('184467');
  });

  it('an event with a string field of the wrong JSON type fails (schema drift is loud)', () => {
    expect(usageEventSchema.safeParse({ model: 42 }).success).toBe(false);
    expect(usageEventSchema.safeParse({ tokenUsage: 'none' }).success).toBe(false);
  });

  it('an event without tokenUsage decodes with tokenUsage absent (no invented zero counts)', () => {
    expect(decodeEvent({ timestamp: '1', isTokenBasedCall: false }).tokenUsage).toBeUndefined();
  });
});

describe('events page schema: the envelope', () => {
  it.each([
    ['a page with events', { totalUsageEventsCount: 2, usageEventsDisplay: [{}, {}] }, 2, 2],
    ['`{}` (an empty window)', {}, undefined, 0],
    ['an empty terminal page that omits the array but keeps the count', { totalUsageEventsCount: 3 }, 3, 0],
    ['a count as a numeric string', { totalUsageEventsCount: '1500', usageEventsDisplay: [] }, 1500, 0],
    [
      'a count of "Infinity" (absent)',
      { totalUsageEventsCount: 'Infinity', usageEventsDisplay: [] },
      undefined,
      0,
    ],
    ['a non-integral count (absent)', { totalUsageEventsCount: 2.5, usageEventsDisplay: [] }, undefined, 0],
    ['extra fields beside the array', { usageEventsDisplay: [], usageEvents: [{}] }, undefined, 0],
  ])('accepts %s', (_label, raw, count, events) => {
    const page = eventsPageSchema.parse(raw);
    expect(page.totalUsageEventsCount).toBe(count);
    expect(page.usageEventsDisplay).toHaveLength(events);
  });

  it.each([
    ['a negative count', { totalUsageEventsCount: -1, usageEventsDisplay: [] }],
    ['a negative count as a string', { totalUsageEventsCount: '-3', usageEventsDisplay: [] }],
    ['a missing array with other content', { totalUsageEventsCount: 3, usageEvents: [] }],
    ['a missing array with an error field', { error: 'nope' }],
    ['an object instead of the array', { usageEventsDisplay: {} }],
    ['null instead of the array', { usageEventsDisplay: null }],
    ['a null element', { usageEventsDisplay: [{}, null] }],
    ['a number element', { usageEventsDisplay: [1] }],
    ['a top-level array', []],
    ['a top-level string', 'ok'],
  ])('rejects %s', (_label, raw) => {
    expect(eventsPageSchema.safeParse(raw).success).toBe(false);
  });

  it('decodes the verbatim CodexBar example page', () => {
    const page = eventsPageSchema.parse(
      JSON.parse(
        '{"totalUsageEventsCount":3,"usageEventsDisplay":[' +
          '{"timestamp":"1700000000000","model":"claude-4.5-sonnet","tokenUsage":{"inputTokens":100,"outputTokens":50,"cacheWriteTokens":0,"cacheReadTokens":0,"totalCents":100},"chargedCents":4},' +
          '{"timestamp":"1700003600000","model":"gpt-5","tokenUsage":{"inputTokens":10,"outputTokens":5,"cacheWriteTokens":0,"cacheReadTokens":0,"totalCents":50},"chargedCents":4}]}',
      ),
    );
    expect(page.totalUsageEventsCount).toBe(3);
    expect(
      page.usageEventsDisplay.map((e) => [e.timestamp, e.model, e.tokenUsage?.totalCents, e.chargedCents]),
    ).toEqual([
      [1700000000000, 'claude-4.5-sonnet', 100, 4],
      [1700003600000, 'gpt-5', 50, 4],
    ]);
  });
});
