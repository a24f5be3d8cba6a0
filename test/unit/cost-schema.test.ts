import { describe, expect, it } from 'vitest';
import { eventsPageSchema, usageEventSchema } from '../../src/api/schemas/events.js';
import {
  ACCEPTED_ENVELOPES,
  DOUBLE_FIELD_CASES,
  INTEGER_FIELD_CASES,
  REJECTED_ENVELOPES,
  TIMESTAMP_CASES,
  TOTAL_CENTS_CASES,
} from '../helpers/events-cases.js';

const decodeEvent = (raw: unknown) => usageEventSchema.parse(raw);
const tokens = (raw: Record<string, unknown>) => decodeEvent({ tokenUsage: raw }).tokenUsage;

describe('events page schema: integer token fields', () => {
  it.each(INTEGER_FIELD_CASES)('inputTokens given %s decodes as %s', (_label, value, expected) => {
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
  it.each(DOUBLE_FIELD_CASES)(
    'chargedCents, cursorTokenFee and requestsCosts given %s decode as %s',
    (_label, value, expected) => {
      const event = decodeEvent({ chargedCents: value, cursorTokenFee: value, requestsCosts: value });
      expect(event.chargedCents).toBe(expected);
      expect(event.cursorTokenFee).toBe(expected);
      expect(event.requestsCosts).toBe(expected);
    },
  );
});

describe('events page schema: totalCents keeps "invalid" apart from "absent"', () => {
  it.each(TOTAL_CENTS_CASES)('totalCents %s → totalCents %s, invalid %s', (_label, raw, cents, invalid) => {
    const usage = tokens({ inputTokens: 1, ...raw });
    expect(usage?.totalCents).toBe(cents);
    expect(usage?.totalCentsInvalid).toBe(invalid);
  });
});

describe('events page schema: timestamps, models and ids', () => {
  it.each(TIMESTAMP_CASES)('timestamp given %s decodes as %s', (_label, value, expected) => {
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
  it.each(ACCEPTED_ENVELOPES)('accepts %s', (_label, raw, count, events) => {
    const page = eventsPageSchema.parse(raw);
    expect(page.totalUsageEventsCount).toBe(count);
    expect(page.usageEventsDisplay).toHaveLength(events);
  });

  it.each(REJECTED_ENVELOPES)('rejects %s', (_label, raw) => {
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
