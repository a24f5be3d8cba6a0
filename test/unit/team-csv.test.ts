import { describe, expect, it } from 'vitest';
import { csvField, encodeCsv, encodeCsvColumns } from '../../src/render/csv.js';

describe('CSV writer (RFC 4180)', () => {
  it('writes a header row and CRLF after every line, quoting only where needed', () => {
    const text = encodeCsv(
      ['name', 'note', 'count'],
      [
        ['Ada', 'plain', 3],
        ['Lovelace, Ada', 'said "hi"', 0],
      ],
    );
    expect(text).toBe('name,note,count\r\nAda,plain,3\r\n"Lovelace, Ada","said ""hi""",0\r\n');
  });

  it('text shows control characters as visible escapes, so every record is one line', () => {
    const text = encodeCsv(
      ['name', 'note'],
      [
        ['multi', 'line\nbreak\r'],
        ['\u001b]8;;x\u0007', 'a\u001f\u007f\u0080\u009fb'],
      ],
    );
    expect(text).toBe('name,note\r\nmulti,line\\x0abreak\\x0d\r\n\\x1b]8;;x\\x07,a\\x1f\\x7f\\x80\\x9fb\r\n');
    // Just past each edge of the rule: a space, `~` and a no-break space are text.
    expect(csvField(' ~\u00a0')).toBe(' ~\u00a0');
  });

  it('numbers are plain: no grouping or currency, integers exact, fractions without binary noise', () => {
    expect(csvField(1234567)).toBe('1234567');
    expect(csvField(9_007_199_254_740_991)).toBe('9007199254740991');
    expect(csvField(0.1 + 0.2)).toBe('0.3');
    expect(csvField(0.36850200000000005)).toBe('0.368502');
    expect(csvField(-2.5)).toBe('-2.5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(false)).toBe('false');
  });

  it('text a spreadsheet would run as a formula gets a leading apostrophe, unless turned off', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@sum')).toBe("'@sum");
    expect(csvField('-x')).toBe("'-x");
    // A leading tab or CR is a visible escape by now, which no spreadsheet runs.
    expect(csvField('\tx')).toBe('\\x09x');
    expect(csvField('\rx')).toBe('\\x0dx');
    expect(csvField('-x', { neutraliseFormulas: false })).toBe('-x');
    // Only at the start: a formula character later in the text is just text.
    expect(csvField('a-b=c')).toBe('a-b=c');
  });

  it('a column list gives the header and each record’s fields in column order', () => {
    const columns = [
      ['name', (member: { name: string; spend: number | null }) => member.name],
      ['spend', (member: { name: string; spend: number | null }) => member.spend],
    ] as const;
    const text = encodeCsvColumns(columns, [
      { name: 'Ada', spend: 1.5 },
      { name: 'Bob', spend: null },
    ]);
    expect(text).toBe('name,spend\r\nAda,1.5\r\nBob,\r\n');
    expect(encodeCsvColumns(columns, [])).toBe('name,spend\r\n');
  });

  it('a row with the wrong number of fields is a bug, not a shifted column', () => {
    expect(() => encodeCsv(['a', 'b'], [['1']])).toThrow('CSV row has 1 fields, the header 2');
  });
});
