/**
 * Edge cases of the events page schema, shared by the schema tests and by the test
 * that holds the byte decoder to the schema (test/unit/events-bytes.test.ts).
 */
import { UNKNOWN_COUNT } from '../../src/api/schemas/events.js';

/** Integer token fields: label, raw value, decoded value (UNKNOWN_COUNT: too large to hold exactly). */
export const INTEGER_FIELD_CASES: readonly [string, unknown, number][] = [
  ['a JSON integer', 1532, 1532],
  ['an integral double', 12.0, 12],
  ['a numeric string', '1532', 1532],
  ['a string holding an integral double', '1e3', 1000],
  ['a negative integer (decodes; aggregation drops the event later)', -5, -5],
  ['a fractional double', 12.5, 0],
  ['a fractional string', '12.5', 0],
  ['text', 'many', 0],
  ['an empty string', '', 0],
  ['a string with spaces', ' 12', 0],
  ['"Infinity"', 'Infinity', 0],
  ['a boolean', true, 0],
  ['null', null, 0],
  ['an object', { n: 1 }, 0],
  ['2^53 − 1, the largest count a double holds exactly', 2 ** 53 - 1, 2 ** 53 - 1],
  ['2^53 − 1 as text', '9007199254740991', 2 ** 53 - 1],
  ['2^53, past it (unknown)', 2 ** 53, UNKNOWN_COUNT],
  ['2^53 as text (unknown)', '9007199254740992', UNKNOWN_COUNT],
  ['Int64.max as JSON.parse reads it, 2^63 (unknown)', 2 ** 63, UNKNOWN_COUNT],
  ['Int64.max as text (unknown)', '9223372036854775807', UNKNOWN_COUNT],
  ['a double beyond Int64 (unknown)', 1e20, UNKNOWN_COUNT],
  ['text past the largest double (unknown)', '1e400', UNKNOWN_COUNT],
  ['a negative count past −2^53 (decodes; aggregation drops the event later)', -1e20, -1e20],
];

/** Double fields (chargedCents, cursorTokenFee, requestsCosts): label, raw value, decoded value. */
export const DOUBLE_FIELD_CASES: readonly [string, unknown, number | undefined][] = [
  ['a number', 6.75, 6.75],
  ['an integer', 4, 4],
  ['a numeric string', '6.75', 6.75],
  ['a negative number', -1, -1],
  ['"NaN"', 'NaN', undefined],
  ['"Infinity"', 'Infinity', undefined],
  ['text', '$0.07', undefined],
  ['a boolean', false, undefined],
  ['null', null, undefined],
];

/**
 * totalCents: label, raw tokenUsage fields, decoded cents, the invalid mark
 * (docs/invariants.md, "No unknown price as zero").
 */
export const TOTAL_CENTS_CASES: readonly [string, Record<string, unknown>, number | undefined, boolean][] = [
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
];

/** Timestamps: label, raw value, decoded value. */
export const TIMESTAMP_CASES: readonly [string, unknown, number | undefined][] = [
  ['an ms string', '1781519582153', 1781519582153],
  ['an ms number', 1781519582153, 1781519582153],
  ['an integral double string', '1.781519582153e12', 1781519582153],
  ['a fractional value', '1781519582153.5', undefined],
  ['text', 'yesterday', undefined],
  ['null', null, undefined],
];

/** Pages the schema accepts: label, raw page, count, number of events. */
export const ACCEPTED_ENVELOPES: readonly [string, unknown, number | undefined, number][] = [
  ['a page with events', { totalUsageEventsCount: 2, usageEventsDisplay: [{}, {}] }, 2, 2],
  ['`{}` (an empty window)', {}, undefined, 0],
  ['an empty terminal page that omits the array but keeps the count', { totalUsageEventsCount: 3 }, 3, 0],
  [
    '`{"totalUsageEventsCount":0}` (an empty window that keeps its count)',
    { totalUsageEventsCount: 0 },
    0,
    0,
  ],
  ['a count as a numeric string', { totalUsageEventsCount: '1500', usageEventsDisplay: [] }, 1500, 0],
  [
    'a count of "Infinity" (absent)',
    { totalUsageEventsCount: 'Infinity', usageEventsDisplay: [] },
    undefined,
    0,
  ],
  ['a non-integral count (absent)', { totalUsageEventsCount: 2.5, usageEventsDisplay: [] }, undefined, 0],
  ['extra fields beside the array', { usageEventsDisplay: [], usageEvents: [{}] }, undefined, 0],
];

/** Pages the schema rejects: label, raw page. */
export const REJECTED_ENVELOPES: readonly [string, unknown][] = [
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
];
