import { describe, expect, it } from 'vitest';
import { makeJwt } from '../../fixtures/builders/jwt.js';
import { redact, registerSecret } from '../../src/lib/redact.js';

describe('redact', () => {
  it('hides every piece of a registered Cookie header: raw, decoded, the user id and each JWT part', async () => {
    const jwt = await makeJwt({ sub: 'auth0|user_01REDACTUNIT', exp: 4_102_444_800 });
    registerSecret(`other=plain-secret-value; WorkosCursorSessionToken=user_01REDACTUNIT%3A%3A${jwt}`);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    for (const text of [
      `echo user_01REDACTUNIT%3A%3A${jwt}`,
      `echo user_01REDACTUNIT::${jwt}`,
      `parts ${payload} and ${signature} and ${header}`,
      'another cookie: plain-secret-value',
    ]) {
      const out = redact(text);
      expect(out).toContain('[REDACTED]');
      for (const piece of ['user_01REDACTUNIT', header, payload, signature, 'plain-secret-value']) {
        expect(out).not.toContain(piece);
      }
    }
  });

  it('hides anything shaped like a JWT, whole or cut short, registered or not', () => {
    expect(redact('a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln b')).toBe('a [REDACTED] b');
    expect(redact('cut eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4')).toBe('cut [REDACTED]');
    expect(redact('header eyJhbGciOiJIUzI1NiJ9')).toBe('header [REDACTED]');
  });

  it("hides a session cookie's value and keeps its name", () => {
    expect(redact('Cookie: WorkosCursorSessionToken=abc%3A%3Adef; theme=dark')).toBe(
      'Cookie: WorkosCursorSessionToken=[REDACTED]; theme=dark',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(redact('Cursor API error: HTTP 500 (GET /api/usage-summary)')).toBe(
      'Cursor API error: HTTP 500 (GET /api/usage-summary)',
    );
  });
});
