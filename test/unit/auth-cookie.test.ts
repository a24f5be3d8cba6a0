import { describe, expect, it } from 'vitest';
import { makeJwt, sessionCookieValue } from '../../fixtures/builders/jwt.js';
import {
  cookieForToken,
  normalizeCookieHeader,
  parseCookiePairs,
  sessionTokenFromCookie,
  sessionTokenIdentityFromCookie,
} from '../../src/auth/cookie.js';
import { inspectAccessToken } from '../../src/auth/jwt.js';

const NOW = new Date('2026-07-20T15:00:00Z');

describe('cookieForToken', () => {
  it('sends WorkosCursorSessionToken=<userId>%3A%3A<jwt> for sub auth0|user_test', async () => {
    const jwt = await makeJwt({ sub: 'auth0|user_test', now: NOW });
    const inspection = inspectAccessToken(jwt, NOW);
    if (inspection.kind !== 'usable') throw new Error('fixture token should be usable');
    const cookie = cookieForToken(inspection.identity, jwt);
    expect(cookie).toBe(`WorkosCursorSessionToken=user_test%3A%3A${jwt}`);
    expect(cookie).toMatch(/^WorkosCursorSessionToken=user_test%3A%3AeyJ[\w-]+\.eyJ[\w-]+\.[\w-]+$/);
    expect(cookie).toBe(`WorkosCursorSessionToken=${sessionCookieValue('user_test', jwt)}`);
  });

  it('keeps the user ID case and does not percent-encode the JWT', () => {
    expect(cookieForToken({ userId: 'User_Test' }, 'a-b_c.d-e.f_g')).toBe(
      'WorkosCursorSessionToken=User_Test%3A%3Aa-b_c.d-e.f_g',
    );
  });
});

describe('normalizeCookieHeader: pasted forms', () => {
  const cases: Array<{ form: string; raw: string; expected: string | undefined }> = [
    {
      form: 'a bare header value',
      raw: 'WorkosCursorSessionToken=abc; other=1',
      expected: 'WorkosCursorSessionToken=abc; other=1',
    },
    { form: 'a `Cookie:` header line', raw: '  Cookie: a=1; b=2  ', expected: 'a=1; b=2' },
    {
      form: "curl -H 'Cookie: …'",
      raw: "curl 'https://cursor.com/api/usage-summary' -H 'accept: */*' -H 'Cookie: a=1; b=2' -H 'x-y: z'",
      expected: 'a=1; b=2',
    },
    {
      form: 'curl -H "Cookie: …"',
      raw: 'curl https://cursor.com -H "Cookie: a=1; b=2" --compressed',
      expected: 'a=1; b=2',
    },
    { form: "-H 'cookie: …' in lower case", raw: "curl URL -H 'cookie: a=1'", expected: 'a=1' },
    { form: "--header 'Cookie: …'", raw: "curl URL --header 'Cookie: a=1'", expected: 'a=1' },
    { form: "bash $'…' quoting", raw: "curl URL -H $'Cookie: a=1; b=2' -b $'c=3'", expected: 'a=1; b=2' },
    { form: "cookie: '…'", raw: "cookie: 'a=1; b=2'", expected: 'a=1; b=2' },
    { form: 'cookie: "…"', raw: 'Cookie: "a=1; b=2"', expected: 'a=1; b=2' },
    {
      form: 'cookie: X to the end of the line',
      raw: 'accept: */*\ncookie: a=1; b=2\nuser-agent: x',
      expected: 'a=1; b=2',
    },
    { form: "--cookie '…'", raw: "curl URL --cookie 'a=1; b=2'", expected: 'a=1; b=2' },
    {
      form: "-b '…'",
      raw: "curl 'https://cursor.com/api/auth/me' -b 'a=1; b=2' -H 'x: y'",
      expected: 'a=1; b=2',
    },
    { form: '--cookie "…"', raw: 'curl URL --cookie "a=1; b=2"', expected: 'a=1; b=2' },
    { form: '-b "…"', raw: 'curl URL -b "a=1; b=2"', expected: 'a=1; b=2' },
    {
      form: '-bname=value',
      raw: 'curl URL -bWorkosCursorSessionToken=abc -H x',
      expected: 'WorkosCursorSessionToken=abc',
    },
    { form: '--cookie X', raw: 'curl URL --cookie a=1 -H x', expected: 'a=1' },
    { form: '-b X', raw: 'curl URL -b a=1', expected: 'a=1' },
    { form: 'a double-quoted value', raw: '"a=1; b=2"', expected: 'a=1; b=2' },
    { form: 'a single-quoted value', raw: "'a=1'", expected: 'a=1' },
    { form: 'the first pattern in order wins', raw: "curl URL -b 'b=2' -H 'Cookie: a=1'", expected: 'a=1' },
    {
      form: '`-b` inside a cookie value is not a flag',
      raw: 'tok=ab-bc=d; e=f',
      expected: 'tok=ab-bc=d; e=f',
    },
    { form: 'an empty string', raw: '', expected: undefined },
    { form: 'whitespace only', raw: ' \n\t ', expected: undefined },
    { form: 'a bare `Cookie:`', raw: 'Cookie:', expected: undefined },
    { form: 'empty quotes', raw: "''", expected: undefined },
    { form: 'an empty -H cookie', raw: "curl URL -H 'Cookie: '", expected: undefined },
  ];
  it.each(cases)('$form', ({ raw, expected }) => {
    expect(normalizeCookieHeader(raw)).toBe(expected);
  });

  it('undefined input is missing', () => {
    expect(normalizeCookieHeader(undefined)).toBeUndefined();
  });
});

describe('session cookie parsing', () => {
  it('splits pairs on `;` and then on the first `=`', () => {
    expect(parseCookiePairs('a=1; b=x=y ;c')).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: 'x=y' },
      { name: 'c', value: '' },
    ]);
  });

  it('decodes the JWT identity of the first WorkosCursorSessionToken pair', async () => {
    const jwt = await makeJwt({ sub: 'auth0|user_test', email: 'me@example.com', now: NOW });
    const header = `other=1; WorkosCursorSessionToken=${sessionCookieValue('user_test', jwt)}; x=2`;
    const identity = sessionTokenIdentityFromCookie(header);
    expect(identity).toMatchObject({
      userId: 'user_test',
      subject: 'auth0|user_test',
      email: 'me@example.com',
    });
  });

  it('accepts a raw `::` separator as well as %3A%3A', async () => {
    const jwt = await makeJwt({ sub: 'auth0|user_test', now: NOW });
    expect(sessionTokenFromCookie(`WorkosCursorSessionToken=user_test::${jwt}`)).toEqual({
      userPart: 'user_test',
      token: jwt,
    });
  });

  it('still gives the identity of an expired token (cursor.com decides about cookies)', async () => {
    const jwt = await makeJwt({ sub: 'auth0|user_test', exp: NOW.getTime() / 1000 - 3600, now: NOW });
    expect(sessionTokenIdentityFromCookie(`WorkosCursorSessionToken=user_test%3A%3A${jwt}`)?.userId).toBe(
      'user_test',
    );
  });

  it.each([
    { rule: 'no `::` in the value gives no token', header: 'WorkosCursorSessionToken=abc.def.ghi' },
    { rule: 'a last part without a `.` gives no token', header: 'WorkosCursorSessionToken=user%3A%3Aopaque' },
    { rule: 'no session cookie gives no token', header: 'a=1; b=2' },
    {
      rule: 'only the first session pair is consulted',
      header: 'WorkosCursorSessionToken=bad; WorkosCursorSessionToken=user%3A%3Aa.b.c',
    },
  ])('$rule', ({ header }) => {
    expect(sessionTokenFromCookie(header)).toBeUndefined();
    expect(sessionTokenIdentityFromCookie(header)).toBeUndefined();
  });
});
