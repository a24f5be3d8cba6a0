import { describe, expect, it } from 'vitest';
import { isoSeconds } from '../../src/lib/iso-date.js';
import { encodeJson } from '../../src/lib/json.js';

describe('encodeJson compact', () => {
  it('keeps insertion order, omits undefined members and keeps an explicit null', () => {
    expect(encodeJson({ z: 1, a: undefined, m: null, b: [] })).toBe('{"z":1,"m":null,"b":[]}');
  });

  it('escapes "/" as "\\/" (so URLs read https:\\/\\/…)', () => {
    expect(encodeJson({ url: 'https://status.cursor.com' })).toBe('{"url":"https:\\/\\/status.cursor.com"}');
  });

  it('writes \\b \\f \\n \\r \\t short and other control chars as lowercase \\u00xx', () => {
    expect(encodeJson('\b\f\n\r\t\u0001\u001f\u001b')).toBe('"\\b\\f\\n\\r\\t\\u0001\\u001f\\u001b"');
  });

  it('escapes DEL and the C1 controls as \\u00xx too, so no terminal obeys them', () => {
    expect(encodeJson('\u007f\u0080\u009b31m\u00a0é')).toBe('"\\u007f\\u0080\\u009b31m\u00a0é"');
  });

  it('escapes quotes and backslashes, and emits non-ASCII raw', () => {
    expect(encodeJson('say "hi" \\ café → 😀 – Ω')).toBe('"say \\"hi\\" \\\\ café → 😀 – Ω"');
  });

  it.each([
    [42.0, '42'],
    [12.34, '12.34'],
    [-8, '-8'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e-7, '1e-7'],
    [true, 'true'],
  ])('prints the number or boolean %s as %s (integral doubles without .0)', (value, expected) => {
    expect(encodeJson(value)).toBe(expected);
  });

  it('writes dates as ISO-8601 UTC without milliseconds', () => {
    expect(encodeJson({ at: new Date('2026-07-20T15:00:01.999Z') })).toBe('{"at":"2026-07-20T15:00:01Z"}');
    expect(isoSeconds(new Date('2026-08-05T00:00:00Z'))).toBe('2026-08-05T00:00:00Z');
  });

  it('writes a non-finite number and an invalid date as null, so the document stays valid JSON', () => {
    expect(encodeJson([Number.NaN, Number.POSITIVE_INFINITY, -Infinity, new Date(Number.NaN), 0])).toBe(
      '[null,null,null,null,0]',
    );
  });

  it('adds no trailing newline (the printer does)', () => {
    expect(encodeJson([{ a: 1 }])).toBe('[{"a":1}]');
    expect(encodeJson([{ a: 1 }], { pretty: true }).endsWith('\n')).toBe(false);
  });
});

describe('encodeJson --pretty', () => {
  it('indents by two spaces and writes "key" : value with a space either side of the colon', () => {
    expect(encodeJson({ b: 1, a: { c: 'x' } }, { pretty: true })).toBe(
      ['{', '  "a" : {', '    "c" : "x"', '  },', '  "b" : 1', '}'].join('\n'),
    );
  });

  it('sorts keys by UTF-8 bytes, not UTF-16 code units', () => {
    // UTF-8: "B" < "a" < "é" < U+FF01 < U+1F600; UTF-16 would put the emoji's surrogate before U+FF01.
    const object = { '😀': 5, '！': 4, é: 3, a: 2, B: 1 };
    const keys = [...encodeJson(object, { pretty: true }).matchAll(/"(.+?)" :/g)].map((match) => match[1]);
    expect(keys).toEqual(['B', 'a', 'é', '！', '😀']);
  });

  it('writes an empty array or object as bracket, blank line, indented closing bracket', () => {
    expect(encodeJson({ projects: [], extra: {} }, { pretty: true })).toBe(
      ['{', '  "extra" : {', '', '  },', '  "projects" : [', '', '  ]', '}'].join('\n'),
    );
    expect(encodeJson([], { pretty: true })).toBe('[\n\n]');
  });

  it('puts each array item on its own line', () => {
    expect(encodeJson([1, 'a', null], { pretty: true })).toBe('[\n  1,\n  "a",\n  null\n]');
  });
});
