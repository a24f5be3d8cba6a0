import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { makeJwt } from '../../fixtures/builders/jwt.js';
import { decodeAccessToken, inspectAccessToken } from '../../src/auth/jwt.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const key = new TextEncoder().encode('auth-jwt-test-key');

/** A real jose token carrying exactly `payload` (for claims makeJwt cannot express: string/boolean/missing exp). */
async function signPayload(payload: Record<string, unknown>): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
}

function withPayloadSegment(token: string, segment: string): string {
  const [header, , signature] = token.split('.');
  return `${header}.${segment}.${signature}`;
}

describe('inspectAccessToken: user ID rules', () => {
  const cases: Array<{ rule: string; sub: string; userId: string }> = [
    { rule: 'the last `|` segment is the user ID', sub: 'auth0|user_test', userId: 'user_test' },
    { rule: 'a trailing empty segment is dropped (`auth0|` gives `auth0`)', sub: 'auth0|', userId: 'auth0' },
    { rule: 'empty middle segments are dropped (`a||b` gives `b`)', sub: 'a||b', userId: 'b' },
    { rule: 'a subject without `|` is the user ID', sub: 'user_123', userId: 'user_123' },
    { rule: 'case is kept', sub: 'google-oauth2|User_Test', userId: 'User_Test' },
    { rule: '`.`, `_` and `-` are allowed', sub: 'auth0|a.b_c-d', userId: 'a.b_c-d' },
    { rule: 'Unicode letters are allowed', sub: 'auth0|jürgen', userId: 'jürgen' },
    { rule: 'combining marks are allowed', sub: 'auth0|e\u0301', userId: 'e\u0301' },
    { rule: 'Unicode digits are allowed', sub: 'auth0|user\u0663', userId: 'user\u0663' },
  ];
  it.each(cases)('$rule: sub $sub → $userId', async ({ sub, userId }) => {
    const token = await makeJwt({ sub, now: NOW });
    const result = inspectAccessToken(token, NOW);
    expect(result.kind).toBe('usable');
    if (result.kind === 'usable') {
      expect(result.identity.userId).toBe(userId);
      expect(result.identity.subject).toBe(sub);
    }
  });

  const invalid: Array<{ rule: string; sub: string }> = [
    { rule: 'a space is not allowed', sub: 'auth0|user test' },
    { rule: '`@` is not allowed', sub: 'auth0|user@example.com' },
    { rule: '`/` is not allowed', sub: 'auth0|a/b' },
    { rule: 'a percent sign is not allowed', sub: 'auth0|a%3A' },
  ];
  it.each(invalid)('$rule: sub $sub is malformed (invalid user ID)', async ({ sub }) => {
    const token = await makeJwt({ sub, now: NOW });
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'invalid user ID' });
  });

  it('a subject of only `|` has no user ID', async () => {
    const token = await makeJwt({ sub: '|', now: NOW });
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'missing a user ID' });
  });

  it.each([
    { rule: 'a missing sub', payload: { exp: NOW_S + 3600 } },
    { rule: 'a numeric sub', payload: { sub: 42, exp: NOW_S + 3600 } },
    { rule: 'an empty sub', payload: { sub: '', exp: NOW_S + 3600 } },
  ])('$rule gives "missing a user ID"', async ({ payload }) => {
    const token = await signPayload(payload);
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'missing a user ID' });
  });
});

describe('inspectAccessToken: expiry rules', () => {
  const cases: Array<{ rule: string; exp: number; kind: 'usable' | 'expired' }> = [
    { rule: 'a day away is usable', exp: NOW_S + 86_400, kind: 'usable' },
    { rule: '61 s away is usable', exp: NOW_S + 61, kind: 'usable' },
    { rule: 'fractions count: 60.5 s away is usable', exp: NOW_S + 60.5, kind: 'usable' },
    { rule: 'exactly 60 s away is not usable (strictly more than 60 s)', exp: NOW_S + 60, kind: 'expired' },
    { rule: '30 s away is not usable', exp: NOW_S + 30, kind: 'expired' },
    { rule: 'exactly now is expired', exp: NOW_S, kind: 'expired' },
    { rule: 'an hour ago is expired', exp: NOW_S - 3600, kind: 'expired' },
  ];
  it.each(cases)('$rule', async ({ exp, kind }) => {
    const token = await makeJwt({ sub: 'auth0|user_test', exp, now: NOW });
    const result = inspectAccessToken(token, NOW);
    expect(result.kind).toBe(kind);
    if (result.kind !== 'malformed') expect(result.identity.expiresAt.getTime()).toBe(exp * 1000);
  });

  it('JSON `true` as exp counts as epoch second 1, so the token is long expired', async () => {
    const token = await signPayload({ sub: 'auth0|user_test', exp: true });
    const result = inspectAccessToken(token, NOW);
    expect(result.kind).toBe('expired');
    if (result.kind === 'expired')
      expect(result.identity.expiresAt.toISOString()).toBe('1970-01-01T00:00:01.000Z');
  });

  it('a string exp is malformed', async () => {
    const token = await signPayload({ sub: 'auth0|user_test', exp: String(NOW_S + 3600) });
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'invalid expiry' });
  });

  it('a missing exp is never usable', async () => {
    const token = await signPayload({ sub: 'auth0|user_test' });
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'missing an expiry' });
  });
});

describe('inspectAccessToken: token shape', () => {
  it('a token with fewer than two `.`-parts is not a JWT', () => {
    expect(inspectAccessToken('opaque-session-token', NOW)).toEqual({
      kind: 'malformed',
      reason: 'not a JWT',
    });
  });

  it('a blank token is never usable', () => {
    expect(inspectAccessToken('   ', NOW)).toEqual({ kind: 'malformed', reason: 'empty' });
  });

  it('two `.`-parts are enough: the payload is the second part', async () => {
    const [header, payload] = (await makeJwt({ sub: 'auth0|user_test', now: NOW })).split('.');
    expect(inspectAccessToken(`${header}.${payload}`, NOW).kind).toBe('usable');
  });

  it('email is read as an identity claim when it is a string', async () => {
    const token = await makeJwt({ sub: 'auth0|user_test', email: 'Me@Example.com', now: NOW });
    const result = inspectAccessToken(token, NOW);
    expect(result.kind === 'usable' && result.identity.email).toBe('Me@Example.com');
  });

  const payloads: Array<{ rule: string; segment: string }> = [
    { rule: 'a payload with characters outside base64url', segment: 'eyJzdWIiOiJhIn0@@' },
    { rule: 'a payload with whitespace', segment: 'eyJzdWIi OiJhIn0' },
    { rule: 'an empty payload', segment: '' },
    { rule: 'a payload that is not JSON', segment: Buffer.from('not json').toString('base64url') },
    { rule: 'a payload that is a JSON array', segment: Buffer.from('[1,2]').toString('base64url') },
    { rule: 'a payload that is a JSON string', segment: Buffer.from('"auth0|x"').toString('base64url') },
  ];
  it.each(payloads)('$rule has an invalid payload', async ({ segment }) => {
    const token = withPayloadSegment(await makeJwt({ sub: 'auth0|user_test', now: NOW }), segment);
    expect(inspectAccessToken(token, NOW)).toEqual({ kind: 'malformed', reason: 'invalid payload' });
  });

  it('malformed reasons never contain the token or any part of it', async () => {
    const good = await makeJwt({ sub: 'auth0|bad user', now: NOW });
    const tokens = [
      good,
      'opaque-session-token',
      withPayloadSegment(good, 'eyJzdWIiOiJhIn0@@'),
      await signPayload({ sub: 'auth0|user_test', exp: 'soon' }),
    ];
    for (const token of tokens) {
      const result = inspectAccessToken(token, NOW);
      expect(result.kind).toBe('malformed');
      if (result.kind !== 'malformed') continue;
      for (const part of token.split('.').filter((p) => p.length > 3))
        expect(result.reason).not.toContain(part);
    }
  });

  it('decodeAccessToken gives the identity of an expired token without judging expiry', async () => {
    const token = await makeJwt({ sub: 'auth0|user_test', exp: NOW_S - 10, now: NOW });
    const decoded = decodeAccessToken(token);
    expect(decoded.kind === 'ok' && decoded.identity.userId).toBe('user_test');
  });
});
