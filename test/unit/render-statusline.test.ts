import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConfigError,
  NoSessionError,
  NotLoggedInError,
  ParseError,
  TimeoutError,
  UnsupportedError,
} from '../../src/errors.js';
import {
  DEFAULT_TEMPLATE,
  failureJson,
  failureText,
  isUtf8Locale,
  pendingText,
  STATUSLINE_TOKENS,
  type StatuslineView,
  statuslineJson,
  statuslineText,
  unknownTokens,
} from '../../src/render/statusline.js';
import { pendingEntry, statuslineColour, statuslineEntry } from '../../src/statusline/output.js';
import type { UsageSnapshot } from '../../src/usage/types.js';
import { NOW, workedExampleSnapshot } from '../helpers/usage-sample.js';

/** The statusline's text, tokens, JSON, colours and failure markers. */

function view(overrides: Partial<UsageSnapshot> = {}, stale = false, ageSeconds = 42): StatuslineView {
  return {
    snapshot: { ...workedExampleSnapshot(), ...overrides },
    fetchedAt: new Date(NOW.getTime() - ageSeconds * 1000),
    now: NOW,
    stale,
  };
}

const ON_DEMAND = {
  used: 12.34,
  limit: 50,
  currencyCode: 'USD' as const,
  updatedAt: NOW,
};

describe('the default line', () => {
  it('is the primary window’s percent left, its reset countdown, then on-demand spend', () => {
    expect(statuslineText(DEFAULT_TEMPLATE, view({ providerCost: ON_DEMAND }), false)).toBe(
      'Cursor 58% left · 15d 9h · $12.34/$50',
    );
  });

  it('drops a part that comes out empty, with its separator', () => {
    expect(statuslineText(DEFAULT_TEMPLATE, view(), false)).toBe('Cursor 58% left · 15d 9h');
    expect(statuslineText(DEFAULT_TEMPLATE, view({ providerCost: { ...ON_DEMAND, used: 0 } }), false)).toBe(
      'Cursor 58% left · 15d 9h',
    );
    const noReset = { ...workedExampleSnapshot().primary!, resetsAt: undefined };
    expect(statuslineText(DEFAULT_TEMPLATE, view({ primary: noReset }), false)).toBe('Cursor 58% left');
  });

  it('a stale snapshot gets a leading ~', () => {
    expect(statuslineText(DEFAULT_TEMPLATE, view({}, true), false)).toBe('~Cursor 58% left · 15d 9h');
  });

  it('on-demand without a limit is the spend alone; whole dollars drop their cents', () => {
    expect(
      statuslineText('{ondemand}', view({ providerCost: { ...ON_DEMAND, used: 7, limit: 0 } }), false),
    ).toBe('$7');
    expect(statuslineText('{ondemand}', view({ providerCost: { ...ON_DEMAND, used: 1234.5 } }), false)).toBe(
      '$1234.50/$50',
    );
  });
});

describe('template tokens', () => {
  it('fill every documented token', () => {
    const template = STATUSLINE_TOKENS.map((token) => `${token}=[{${token}}]`).join(' ');
    expect(statuslineText(template, view({ providerCost: ON_DEMAND }), false)).toBe(
      'label=[Cursor] left=[58% left] used=[42% used] reset=[15d 9h] pace=[8% in reserve] ' +
        'ondemand=[$12.34/$50] plan=[Pro] account=[dev@example.com] age=[42s]',
    );
  });

  it.each([
    [0, '0s'],
    [59, '59s'],
    [60, '1m'],
    [3599, '59m'],
    [3600, '1h'],
    [86_400 * 3 + 5, '3d'],
  ])('{age} of %i s is %s', (seconds, text) => {
    expect(statuslineText('{age}', view({}, false, seconds), false)).toBe(text);
  });

  it('rounds percent as usage text does: half to even, and <1% for a sliver', () => {
    const at = (usedPercent: number) =>
      view({ primary: { ...workedExampleSnapshot().primary!, usedPercent } });
    expect(statuslineText('{left}|{used}', at(57.5), false)).toBe('42% left|58% used');
    expect(statuslineText('{left}|{used}', at(99.5), false)).toBe('<1% left|100% used');
    expect(statuslineText('{left}|{used}', at(120), false)).toBe('0% left|120% used');
  });

  it('names the unknown tokens, and only those', () => {
    expect(unknownTokens('{left} {bogus} {Left} {age} {x}')).toEqual(['{bogus}', '{Left}', '{x}']);
    expect(unknownTokens('{left} {} {1} plain { text }')).toEqual([]);
  });
});

describe('colour', () => {
  it.each([
    [58, '\u001b[32m'],
    [24, '\u001b[33m'],
    [9, '\u001b[31m'],
  ])('%i %% left paints the whole line %j', (left, code) => {
    const text = statuslineText(DEFAULT_TEMPLATE, view({ primary: { usedPercent: 100 - left } }), true);
    expect(text).toBe(`${code}Cursor ${left}% left\u001b[39m`);
  });

  const settings = (colorFlag?: boolean) => ({
    template: '',
    json: false,
    pretty: false,
    strict: false,
    colorFlag,
  });
  it.each([
    ['a TTY', settings(), {}, true, true],
    ['a pipe', settings(), {}, false, false],
    ['--color into a pipe', settings(true), {}, false, true],
    ['NO_COLOR over --color', settings(true), { NO_COLOR: '' }, true, false],
    ['NO_COLOR over FORCE_COLOR', settings(), { NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
    ['FORCE_COLOR into a pipe', settings(), { FORCE_COLOR: '1' }, false, true],
    ['--no-color on a TTY', settings(false), {}, true, false],
    ['TERM=dumb on a TTY', settings(), { TERM: 'DUMB' }, true, false],
  ])('%s', (_what, flags, env, tty, expected) => {
    expect(statuslineColour(flags, env, tty)).toBe(expected);
  });

  it('never in JSON', () => {
    expect(statuslineColour({ ...settings(true), json: true }, {}, true)).toBe(false);
  });
});

describe('JSON', () => {
  it('is one object with the figures, the line, staleness and age', () => {
    const shown = view({ providerCost: ON_DEMAND }, true, 90);
    expect(statuslineJson('~Cursor 58% left', shown)).toEqual({
      provider: 'cursor',
      text: '~Cursor 58% left',
      leftPercent: 58,
      usedPercent: 42,
      resetsAt: new Date('2026-08-05T00:00:00Z'),
      stale: true,
      fetchedAt: new Date(NOW.getTime() - 90_000),
      ageSeconds: 90,
    });
  });
});

describe('failures', () => {
  it.each([
    [new NoSessionError('none'), 'Cursor: not logged in'],
    [new NotLoggedInError('GET /api/usage-summary', 401), 'Cursor: not logged in'],
    [new TimeoutError('cursor.com', 3000), 'Cursor: timed out'],
    [new ApiError('GET /api/usage-summary', 'ECONNREFUSED', { transport: true }), 'Cursor: offline'],
    [new ApiError('GET /api/usage-summary', 'HTTP 500', { status: 500 }), 'Cursor: cursor.com error'],
    [new ParseError('GET /api/usage-summary', 'x'), 'Cursor: unexpected response'],
    [new ConfigError('bad'), 'Cursor: config error'],
    [new UnsupportedError('off'), 'Cursor: unavailable'],
    [new Error('boom'), 'Cursor: error'],
  ])('%s gives the marker %j', (error, marker) => {
    expect(failureText(error)).toBe(marker);
  });

  it('JSON carries the marker and the error', () => {
    expect(failureJson(new TimeoutError('cursor.com', 3000))).toEqual({
      provider: 'cursor',
      text: 'Cursor: timed out',
      stale: false,
      error: { code: 4, message: 'Cursor API error: cursor.com timed out after 3 s', kind: 'provider' },
    });
  });
});

describe('a locale that is not UTF-8', () => {
  it.each([
    [{ LANG: 'C.UTF-8' }, true],
    [{ LANG: 'en_US.utf8' }, true],
    [{ LANG: 'de_DE.UTF-8@euro' }, true],
    [{ LANG: 'C' }, false],
    [{ LANG: 'POSIX' }, false],
    [{ LANG: 'en_US.ISO-8859-1' }, false],
    [{ LANG: 'en_US' }, false],
    [{ LANG: 'en_US.UTF-16' }, false],
    [{}, true],
    [{ LANG: '' }, true],
    [{ LC_ALL: 'C', LANG: 'C.UTF-8' }, false],
    [{ LC_ALL: 'C.UTF-8', LANG: 'C' }, true],
    [{ LC_CTYPE: 'C', LANG: 'C.UTF-8' }, false],
    [{ LC_ALL: '', LC_CTYPE: 'C', LANG: 'C.UTF-8' }, false],
    [{ LC_ALL: '', LC_CTYPE: '', LANG: 'C' }, false],
  ])('%j is UTF-8: %s', (env, utf8) => {
    expect(isUtf8Locale(env)).toBe(utf8);
  });

  const settings = { template: DEFAULT_TEMPLATE, json: false, pretty: false, strict: false };
  const line = (env: Record<string, string>, stale = false) =>
    statuslineEntry(settings, env, false, view({ providerCost: ON_DEMAND }, stale)).text;

  it('joins the parts with " | ", so nothing on the line reads as the stale marker', () => {
    expect(line({ LANG: 'C' })).toBe('Cursor 58% left | 15d 9h | $12.34/$50');
    expect(line({ LANG: 'C' }, true)).toBe('~Cursor 58% left | 15d 9h | $12.34/$50');
    expect(line({ LANG: 'C.UTF-8' })).toBe('Cursor 58% left · 15d 9h · $12.34/$50');
    expect(line({})).toBe('Cursor 58% left · 15d 9h · $12.34/$50');
  });

  it('still drops the empty parts, and the JSON text is the line', () => {
    const entry = statuslineEntry(settings, { LANG: 'C' }, false, view());
    expect(entry.text).toBe('Cursor 58% left | 15d 9h');
    expect(entry.json.text).toBe('Cursor 58% left | 15d 9h');
  });

  it("writes --no-wait's placeholder with three dots", () => {
    expect(pendingText(undefined, true)).toBe('Cursor ...');
    expect(pendingText('work', false)).toBe('Cursor (work) …');
    expect(pendingEntry({ LANG: 'C' }, undefined).text).toBe('Cursor ...');
    expect(pendingEntry({ LANG: 'C.UTF-8' }, undefined).json).toEqual({
      provider: 'cursor',
      text: 'Cursor …',
      stale: false,
      pending: true,
    });
  });
});
