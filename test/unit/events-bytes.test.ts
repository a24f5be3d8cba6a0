/**
 * The fast decoder of events pages (src/cost/events/byte-decoder.ts) against the schema path (JSON.parse,
 * then eventsPageSchema): on every page it either gives exactly the schema's result or gives up, and it does
 * not give up on the pages cursor.com actually sends. It hands its events on as rows (src/api/schemas/
 * event-rows.ts), so every accepted page is also read back from its rows and must be the schema's events,
 * field for field.
 */
import { describe, expect, it } from 'vitest';
import { type EventsPage, eventsPageSchema, UNKNOWN_COUNT } from '../../src/api/schemas/events.js';
import { decodeEventsPageBytes } from '../../src/cost/events/byte-decoder.js';
import { type EventRowsPage, eventRowsPageSchema } from '../../src/cost/events/rows.js';
import { generateEvents, seededRandom } from '../fake-cursor/generate-events.js';
import {
  ACCEPTED_ENVELOPES,
  DOUBLE_FIELD_CASES,
  INTEGER_FIELD_CASES,
  REJECTED_ENVELOPES,
  TIMESTAMP_CASES,
  TOTAL_CENTS_CASES,
} from '../helpers/events-cases.js';

type Outcome = { fast: 'gave up' | unknown; schema: 'rejected' | unknown };
type Decoder = (bytes: Buffer) => EventRowsPage | undefined;

const decode: Decoder = decodeEventsPageBytes;
/** The share of the fuzzed pages the schema accepts that the decoder must answer itself. */
const FUZZED_SHARE = 0.6;

/** A page of rows read back as the schema's page of event objects. */
function eventsOf(page: EventRowsPage): EventsPage {
  const rows = page.usageEventsDisplay;
  return {
    totalUsageEventsCount: page.totalUsageEventsCount,
    usageEventsDisplay: Array.from({ length: rows.length }, (_, i) => rows.get(i)),
  };
}

function bothPaths(decode: Decoder, text: string): Outcome {
  const bytes = Buffer.from(text, 'utf8');
  const decoded = decode(bytes);
  const fast = decoded === undefined ? 'gave up' : eventsOf(decoded);
  let schema: unknown = 'rejected';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the schema path fails too.
    return { fast, schema };
  }
  const parsed = eventsPageSchema.safeParse(json);
  if (parsed.success) {
    schema = parsed.data;
    // The schema path's rows (what the client hands on when the fast decoder gives up) hold the same events.
    expect(eventsOf(eventRowsPageSchema.parse(json)), 'the schema page as rows').toStrictEqual(schema);
  }
  return { fast, schema };
}

/** The fast path agrees with the schema path or gives up; never a different answer. */
function expectAgreement(decode: Decoder, text: string, label: string): Outcome {
  const outcome = bothPaths(decode, text);
  if (outcome.fast !== 'gave up') expect(outcome.fast, label).toStrictEqual(outcome.schema);
  return outcome;
}

/** The same, and the fast path must have answered itself. */
function expectFast(decode: Decoder, text: string, label: string): void {
  const outcome = expectAgreement(decode, text, label);
  expect(outcome.fast, `${label}: the decoder gave up`).not.toBe('gave up');
}

const page = (events: unknown[], count: unknown = events.length) =>
  JSON.stringify({ totalUsageEventsCount: count, usageEventsDisplay: events });

describe('the byte decoder', () => {
  describe('the schema tests’ edge cases', () => {
    const fieldValues: [string, string, unknown][] = [
      ...INTEGER_FIELD_CASES.map(([label, value]): [string, string, unknown] => [
        'inputTokens',
        label,
        value,
      ]),
      ...DOUBLE_FIELD_CASES.flatMap(([label, value]): [string, string, unknown][] => [
        ['chargedCents', label, value],
        ['cursorTokenFee', label, value],
        ['requestsCosts', label, value],
      ]),
      ...TIMESTAMP_CASES.map(([label, value]): [string, string, unknown] => ['timestamp', label, value]),
    ];

    it.each(fieldValues)('%s given %s decodes exactly as the schema decodes it', (field, label, value) => {
      const raw =
        field === 'inputTokens'
          ? { timestamp: '1781519582153', tokenUsage: { inputTokens: value, totalCents: 1 } }
          : { timestamp: '1781519582153', [field]: value, tokenUsage: { inputTokens: 1 } };
      const text = page([raw]);
      const isContainer = typeof value === 'object' && value !== null;
      // Primitives are the decoder's own work; containers are handed to JSON.parse, still in agreement.
      if (isContainer) expectAgreement(decode, text, label);
      else expectFast(decode, text, label);
    });

    it.each(TOTAL_CENTS_CASES)('totalCents %s decodes exactly as the schema decodes it', (label, raw) => {
      expectFast(
        decode,
        page([{ timestamp: '1781519582153', tokenUsage: { inputTokens: 1, ...raw } }]),
        label,
      );
    });

    it.each(ACCEPTED_ENVELOPES)('page %s: same result or left to the schema', (label, raw) => {
      expectAgreement(decode, JSON.stringify(raw), label);
    });

    it.each(REJECTED_ENVELOPES)(
      'page %s: the decoder gives up, the schema words the error',
      (_label, raw) => {
        expect(bothPaths(decode, JSON.stringify(raw))).toEqual({ fast: 'gave up', schema: 'rejected' });
      },
    );

    it.each([
      ['a model of the wrong type', { model: 42 }],
      ['tokenUsage as text', { tokenUsage: 'none' }],
      ['isChargeable as text', { isChargeable: 'yes' }],
      ['owningUser as an object', { owningUser: { id: 1 } }],
    ])('an event with %s: both fail (the schema words the error)', (_label, raw) => {
      expect(bothPaths(decode, page([raw]))).toEqual({ fast: 'gave up', schema: 'rejected' });
    });

    it.each([
      ['an escaped key spelling a known field', '{"usageEventsDisplay":[{"\\u006dodel":"gpt-5"}]}'],
      ['an escaped value in a kept field', '{"usageEventsDisplay":[{"model":"gpt\\u002d5"}]}'],
      ['non-ASCII text in a kept field', '{"usageEventsDisplay":[{"model":"modèle"}]}'],
      ['a byte-order mark', '\uFEFF{"usageEventsDisplay":[]}'],
      [
        'duplicate keys (the last wins)',
        '{"usageEventsDisplay":[{"model":"a","model":"b","tokenUsage":{"inputTokens":1},"tokenUsage":null}]}',
      ],
      [
        'escapes and non-ASCII in skipped fields',
        '{"usageEventsDisplay":[{"note":"caf\\u00e9 \\"x\\" é","model":"m"}]}',
      ],
      [
        'nested unknown fields',
        '{"x":{"a":[1,{"b":[]},"c"],"d":null},"usageEventsDisplay":[{"extra":[[[]]],"model":"m"}]}',
      ],
      [
        'whitespace everywhere',
        ' \n{ "usageEventsDisplay" :\t[ { "model" : "m" , "timestamp" : "1" } ] , "totalUsageEventsCount" : 1 }\r\n',
      ],
      ['a trailing comma', '{"usageEventsDisplay":[{"model":"m"},]}'],
      ['a leading zero', '{"usageEventsDisplay":[{"chargedCents":01}]}'],
      ['a bare decimal point', '{"usageEventsDisplay":[{"chargedCents":1.}]}'],
      ['text after the page', '{"usageEventsDisplay":[]} x'],
      ['a control character in a string', '{"usageEventsDisplay":[{"model":"a\tb"}]}'],
      ['a truncated page', '{"usageEventsDisplay":[{"model":"m"}'],
    ])('%s: same result, or left to the schema', (label, text) => {
      expectAgreement(decode, text, label);
    });

    // Texts repeat on a page: the decoder remembers each field's first few.
    it.each([
      [
        'texts on one page that extend one another',
        page(
          ['gpt-5', 'gpt-5-codex', 'gpt-5', '', 'gpt-5-codex', 'gpt-', 'gpt-5-codex-x', 'g', 'gpt-5'].map(
            (model, i) => ({ model, kind: i % 2 ? 'K' : 'KK', owningUser: i % 3 ? '1' : 10 }),
          ),
        ),
      ],
      [
        'more distinct texts on one page than are remembered',
        page(Array.from({ length: 30 }, (_, i) => ({ model: `m${i % 12}`, owningTeam: String(i % 10) }))),
      ],
      // A value the decoder reads itself and one it hands on for one field: whichever comes last wins, as in
      // JSON.parse.
      [
        'a number given as text, then as a number, and the other way round',
        '{"usageEventsDisplay":[{"chargedCents":"1.5","tokenUsage":{"totalCents":"-1","inputTokens":"7"}},' +
          '{"chargedCents":"1.5","chargedCents":2,"tokenUsage":{"totalCents":"x","totalCents":3}},' +
          '{"chargedCents":2,"chargedCents":"1e2","tokenUsage":{"totalCents":3,"totalCents":"-0"}}]}',
      ],
      [
        'a second tokenUsage replacing one with values given as text',
        '{"usageEventsDisplay":[{"tokenUsage":{"inputTokens":"7","totalCents":"x"},' +
          '"tokenUsage":{"outputTokens":"1e2","cacheReadTokens":2.5e1}}]}',
      ],
      [
        'counts that are not plain numbers',
        '{"totalUsageEventsCount":"1e3","totalUsageEventsCount":2.0,"usageEventsDisplay":[]}',
      ],
      ['a count given in exponent form', '{"totalUsageEventsCount":1E1,"usageEventsDisplay":[]}'],
    ])('%s: decoded by the decoder itself, exactly as the schema does', (label, text) => {
      expectFast(decode, text, label);
    });

    // Escaped and non-ASCII text in a kept field, and numeric owners: left to JSON.parse and the schema.
    it.each([
      ['an escaped value in a kept field', '{"usageEventsDisplay":[{"model":"gpt\\u002d5","kind":"a\\"b"}]}'],
      ['non-ASCII text in a kept field', '{"usageEventsDisplay":[{"model":"modèle"},{"model":"modèle"}]}'],
      [
        'numeric owners and teams',
        '{"usageEventsDisplay":[{"owningUser":10,"owningTeam":-0},{"owningUser":1.5e3,"owningTeam":0}]}',
      ],
    ])('%s: same result, or left to the schema', (label, text) => {
      expectAgreement(decode, text, label);
    });
  });

  describe('numbers convert exactly as JSON.parse converts them', () => {
    const literals = [
      '0',
      '-0',
      '0.0',
      '-0.0',
      '1',
      '-1',
      '12.5',
      '6.31',
      '0.1',
      '0.30000000000000004',
      '1e3',
      '1E3',
      '1e+3',
      '1e-3',
      '2.5e-7',
      '123456789012345',
      '1234567890123456',
      '12345678901234567890',
      '9007199254740993',
      '0.000000000000000000000000001',
      '1e22',
      '1e23',
      '1e-22',
      '1e-23',
      '1e308',
      '1e309',
      '-1e400',
      '4.9e-324',
      '1781519582153',
      '1781519582153.0',
      '99.99999999999999999',
      '0.1234567890123456789',
    ];

    it.each(literals)('%s', (literal) => {
      const text = `{"usageEventsDisplay":[{"chargedCents":${literal},"tokenUsage":{"totalCents":${literal}}}]}`;
      const outcome = bothPaths(decode, text);
      expect(outcome.fast).toStrictEqual(outcome.schema);
    });

    it('20,000 random decimal literals, in every numeric field and as digit strings', () => {
      const next = seededRandom(99);
      const fields = [...NUMBER_FIELDS, ...TOKEN_FIELDS];
      // 50 events a page, one literal each: a page is decoded and parsed once, not once per literal.
      for (let from = 0; from < 20_000; from += 50) {
        const members: string[] = [];
        for (let i = from; i < from + 50; i++) {
          const literal = randomNumberLiteral(next);
          // Every third value is sent as text, as cursor.com sends timestamps.
          const value = i % 3 === 2 ? JSON.stringify(literal) : literal;
          members.push(`"${fields[i % fields.length]!}":${value}`);
        }
        const events = members.map((member, i) =>
          TOKEN_FIELDS.includes(fields[(from + i) % fields.length]!)
            ? `{"tokenUsage":{${member}}}`
            : `{${member}}`,
        );
        const text = `{"usageEventsDisplay":[${events.join(',')}]}`;
        const decoded = decode(Buffer.from(text));
        const fast = decoded && eventsOf(decoded).usageEventsDisplay;
        const expected = eventsPageSchema.parse(JSON.parse(text)).usageEventsDisplay;
        members.forEach((member, i) => {
          const got = fast && JSON.stringify(fast[i], exactNumbers);
          const want = JSON.stringify(expected[i], exactNumbers);
          if (got !== want) expect(`${member} → ${got}`).toBe(`${member} → ${want}`);
        });
      }
    });
  });

  describe('a token count past 2^53 − 1 is unknown, never 0, on both paths', () => {
    const exact = 2 ** 53 - 1;
    const literals: [string, number, string][] = [
      ['9007199254740991', exact, 'kept exactly'],
      ['"9007199254740991"', exact, 'kept exactly'],
      ['9007199254740992', UNKNOWN_COUNT, 'unknown'],
      ['9223372036854775807', UNKNOWN_COUNT, 'unknown'],
      ['"9223372036854775807"', UNKNOWN_COUNT, 'unknown'],
      ['1e400', UNKNOWN_COUNT, 'unknown'],
    ];
    const cases = ['inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens'].flatMap((field) =>
      literals.map(([literal, count, outcome]): [string, string, string, number] => [
        field,
        literal,
        outcome,
        count,
      ]),
    );

    it.each(cases)('%s written %s is %s, and the event keeps its totalCents', (field, literal, _, count) => {
      const text = `{"usageEventsDisplay":[{"tokenUsage":{"${field}":${literal},"totalCents":1}}]}`;
      const outcome = bothPaths(decode, text);
      expect(outcome.fast).not.toBe('gave up');
      expect(outcome.fast).toStrictEqual(outcome.schema);
      const usage = (outcome.fast as EventsPage).usageEventsDisplay[0]!.tokenUsage!;
      expect(usage[field as 'inputTokens']).toBe(count);
      expect(usage.totalCents).toBe(1);
    });
  });

  describe('generated and fuzzed pages', () => {
    it('decodes realistic pages itself, exactly as the schema does', () => {
      const events = generateEvents({
        count: 3000,
        start: new Date('2026-06-01T00:00:00Z'),
        end: new Date('2026-07-01T00:00:00Z'),
        seed: 5,
        withoutTotalCentsEvery: 7,
        withoutChargedCentsEvery: 11,
      });
      for (let from = 0; from < events.length; from += 1000) {
        expectFast(decode, page(events.slice(from, from + 1000), events.length), `page from ${from}`);
      }
    });

    it('2,000 fuzzed pages: every answer is the schema’s, and most are the decoder’s own', () => {
      const next = seededRandom(2026);
      let accepted = 0;
      let fast = 0;
      for (let round = 0; round < 2000; round++) {
        const text = fuzzedPage(next);
        const outcome = expectAgreement(decode, text, `round ${round}: ${text.slice(0, 300)}`);
        if (outcome.schema !== 'rejected') accepted++;
        if (outcome.fast !== 'gave up') fast++;
      }
      expect(accepted).toBeGreaterThan(500);
      expect(fast).toBeGreaterThan(accepted * FUZZED_SHARE);
    });
  });
});

/** JSON.stringify replacer that keeps -0, undefined and every digit of a number apart. */
function exactNumbers(_key: string, value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : `n:${value}`;
  return value === undefined ? 'undefined' : value;
}

const pick = <T>(next: () => number, values: readonly T[]): T => values[Math.floor(next() * values.length)]!;

function digits(next: () => number, count: number, leadingNonZero: boolean): string {
  let text = '';
  for (let i = 0; i < count; i++)
    text += String(i === 0 && leadingNonZero ? 1 + Math.floor(next() * 9) : Math.floor(next() * 10));
  return text;
}

function randomNumberLiteral(next: () => number): string {
  const sign = next() < 0.2 ? '-' : '';
  const integer = next() < 0.3 ? '0' : digits(next, 1 + Math.floor(next() * 20), true);
  const fraction = next() < 0.6 ? `.${digits(next, 1 + Math.floor(next() * 20), false)}` : '';
  const exponent =
    next() < 0.3 ? `${pick(next, ['e', 'E'])}${pick(next, ['', '+', '-'])}${Math.floor(next() * 330)}` : '';
  return sign + integer + fraction + exponent;
}

/** A raw JSON value for a field: the representations the schema tests name, plus random ones. */
function fieldLiteral(next: () => number): string {
  const choice = next();
  if (choice < 0.35) return randomNumberLiteral(next);
  if (choice < 0.55)
    return JSON.stringify(pick(next, [...INTEGER_FIELD_CASES, ...DOUBLE_FIELD_CASES, ...TIMESTAMP_CASES])[1]);
  if (choice < 0.7) return JSON.stringify(String(Math.floor(next() * 1e13)));
  if (choice < 0.8) return pick(next, ['null', 'true', 'false', '""', '"gpt-5"', '"1e3"', '" 12"']);
  if (choice < 0.9) return JSON.stringify(randomNumberLiteral(next));
  return pick(next, ['{}', '[]', '{"n":1}', '[1,"x"]', '"\\u0031"', '"é"']);
}

const STRING_FIELDS = ['model', 'kind', 'usageBasedCosts', 'owningUser', 'owningTeam'];
const BOOLEAN_FIELDS = ['isTokenBasedCall', 'isChargeable', 'isHeadless'];
const NUMBER_FIELDS = ['timestamp', 'requestsCosts', 'cursorTokenFee', 'chargedCents'];
const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheWriteTokens', 'cacheReadTokens', 'totalCents'];

const space = (next: () => number) => (next() < 0.85 ? '' : pick(next, [' ', '\n', '\t', '\r\n  ']));

function object(next: () => number, members: [string, string][]): string {
  const parts = members.map(
    ([key, value]) => `${space(next)}${JSON.stringify(key)}${space(next)}:${space(next)}${value}`,
  );
  return `{${parts.join(',')}${space(next)}}`;
}

function fuzzedEvent(next: () => number): string {
  const members: [string, string][] = [];
  for (const field of NUMBER_FIELDS) if (next() < 0.8) members.push([field, fieldLiteral(next)]);
  for (const field of STRING_FIELDS) {
    if (next() < 0.7)
      members.push([
        field,
        next() < 0.9
          ? JSON.stringify(
              pick(next, ['gpt-5', 'default', 'USAGE_EVENT_KIND_USAGE_BASED', '', '0', '184467', '$0.07']),
            )
          : fieldLiteral(next),
      ]);
  }
  for (const field of BOOLEAN_FIELDS)
    if (next() < 0.5)
      members.push([field, next() < 0.9 ? pick(next, ['true', 'false', 'null']) : fieldLiteral(next)]);
  if (next() < 0.85) {
    const usage: [string, string][] = TOKEN_FIELDS.filter(() => next() < 0.75).map((field) => [
      field,
      fieldLiteral(next),
    ]);
    if (next() < 0.1) usage.push(['extra', '{"deep":[1,2,{"x":"y"}]}']);
    members.push(['tokenUsage', next() < 0.95 ? object(next, usage) : pick(next, ['null', '"none"', '[]'])]);
  }
  if (next() < 0.3) members.push(['maxMode', pick(next, ['true', '{"a":[1,2]}', '"caf\\u00e9"', '[]'])]);
  if (next() < 0.05) members.push(['model', JSON.stringify('second')]);
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return object(next, members);
}

function fuzzedPage(next: () => number): string {
  const events = Array.from({ length: Math.floor(next() * 6) }, () => fuzzedEvent(next));
  const members: [string, string][] = [['usageEventsDisplay', `[${events.join(',')}]`]];
  if (next() < 0.8) members.unshift(['totalUsageEventsCount', fieldLiteral(next)]);
  if (next() < 0.1) members.push(['usageEvents', '[{"x":1}]']);
  let text = object(next, members);
  // Now and then, break it: JSON.parse must then fail and the decoder gives up.
  if (next() < 0.05) text = text.slice(0, Math.floor(next() * text.length));
  if (next() < 0.05) {
    const at = Math.floor(next() * text.length);
    text = text.slice(0, at) + pick(next, ['}', ',', '"', 'x', '\u0001']) + text.slice(at + 1);
  }
  return text;
}
