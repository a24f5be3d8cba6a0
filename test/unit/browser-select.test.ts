import { describe, expect, it } from 'vitest';
import { makeJwt } from '../../fixtures/builders/jwt.js';
import { type Outcome, ok, skip } from '../../src/auth/sources/browser/outcome.js';
import { type CandidateCookie, pickSessionHeader } from '../../src/auth/sources/browser/select.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const at = (iso: string) => new Date(iso).getTime();

function cookie(
  name: string,
  value: Outcome<string> | string,
  created: string,
  expires?: string,
): CandidateCookie & { reads: number } {
  const candidate = {
    name,
    host: '.cursor.com',
    createdMs: at(created),
    reads: 0,
    read: async () => {
      candidate.reads += 1;
      return typeof value === 'string' ? ok(value) : value;
    },
  } as CandidateCookie & { reads: number };
  if (expires !== undefined) candidate.expiresMs = at(expires);
  return candidate;
}

/** The header picked, and the expiry of the session cookie in it (absent: a cookie kept until the browser closes). */
const picked = (header: string, expires?: string) =>
  ok(expires === undefined ? { header } : { header, expiresMs: at(expires) });

async function sessionValue(userId: string, exp: number): Promise<string> {
  return `${userId}%3A%3A${await makeJwt({ sub: `auth0|${userId}`, exp, now: NOW })}`;
}

const inADay = Math.floor(NOW.getTime() / 1000) + 86_400;

describe('pickSessionHeader: the newest unexpired session cookie wins', () => {
  it('picks by creation time, not by order or name', async () => {
    const older = await sessionValue('old_user', inADay);
    const newer = await sessionValue('new_user', inADay);
    const result = await pickSessionHeader(
      [
        cookie('WorkosCursorSessionToken', older, '2026-10-01T00:00:00Z', '2027-01-01T00:00:00Z'),
        cookie('WorkosCursorSessionToken', newer, '2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z'),
        cookie('next-auth.session-token', 'legacy-jwe', '2026-09-01T00:00:00Z', '2027-01-01T00:00:00Z'),
      ],
      NOW,
    );
    expect(result).toEqual(picked(`WorkosCursorSessionToken=${newer}`, '2027-01-01T00:00:00Z'));
  });

  it('skips a newer cookie that has expired, without reading it', async () => {
    const live = await sessionValue('live_user', inADay);
    const expired = cookie(
      'WorkosCursorSessionToken',
      'never-read',
      '2026-11-19T00:00:00Z',
      '2026-11-20T11:00:00Z',
    );
    const result = await pickSessionHeader(
      [expired, cookie('WorkosCursorSessionToken', live, '2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z')],
      NOW,
    );
    expect(result).toEqual(picked(`WorkosCursorSessionToken=${live}`, '2027-01-01T00:00:00Z'));
    expect(expired.reads).toBe(0);
  });

  it('a cookie that expires exactly now is expired, as a stored cookie is; one that expires 1 ms later is live', async () => {
    const value = await sessionValue('edge_user', inADay);
    const expiring = (expires: string) =>
      pickSessionHeader([cookie('WorkosCursorSessionToken', value, '2026-11-01T00:00:00Z', expires)], NOW);
    expect(await expiring('2026-11-20T12:00:00.000Z')).toEqual(
      skip('expired', 'its cursor.com session cookie expired 2026-11-20T12:00:00Z'),
    );
    expect(await expiring('2026-11-20T12:00:00.001Z')).toEqual(
      picked(`WorkosCursorSessionToken=${value}`, '2026-11-20T12:00:00.001Z'),
    );
  });

  it('a cookie without an expiry (kept until the browser closes) is live', async () => {
    const result = await pickSessionHeader(
      [cookie('__Secure-next-auth.session-token', 'jwe', '2026-11-01T00:00:00Z')],
      NOW,
    );
    expect(result).toEqual(picked('__Secure-next-auth.session-token=jwe'));
  });

  it('a session token whose JWT expires within 60 s passes the turn to the next newest', async () => {
    const soon = await sessionValue('soon_user', Math.floor(NOW.getTime() / 1000) + 30);
    const fine = await sessionValue('fine_user', inADay);
    const result = await pickSessionHeader(
      [
        cookie('WorkosCursorSessionToken', soon, '2026-11-19T00:00:00Z', '2027-01-01T00:00:00Z'),
        cookie('WorkosCursorSessionToken', fine, '2026-11-01T00:00:00Z', '2027-01-01T00:00:00Z'),
      ],
      NOW,
    );
    expect(result).toEqual(picked(`WorkosCursorSessionToken=${fine}`, '2027-01-01T00:00:00Z'));
  });

  it('a value that does not decrypt passes the turn; the team cookies of the profile ride along', async () => {
    const fine = await sessionValue('fine_user', inADay);
    const result = await pickSessionHeader(
      [
        cookie('WorkosCursorSessionToken', skip('undecryptable', 'bad'), '2026-11-19T00:00:00Z'),
        cookie('WorkosCursorSessionToken', fine, '2026-11-01T00:00:00Z'),
        cookie('team_id', '77', '2026-11-02T00:00:00Z'),
        cookie('portal-selected-team-id', '42', '2026-11-02T00:00:00Z'),
        cookie('portal-selected-team-id', '41', '2026-10-02T00:00:00Z'),
        cookie('team_id', skip('undecryptable', 'bad'), '2026-11-03T00:00:00Z'),
      ],
      NOW,
    );
    expect(result).toEqual(
      picked(`WorkosCursorSessionToken=${fine}; portal-selected-team-id=42; team_id=77`),
    );
  });

  it('team cookies alone are not a session', async () => {
    expect(await pickSessionHeader([cookie('team_id', '77', '2026-11-02T00:00:00Z')], NOW)).toMatchObject({
      ok: false,
      skip: { kind: 'no-cookie', reason: 'no cursor.com session cookie' },
    });
  });

  it('every session cookie expired: says when', async () => {
    const result = await pickSessionHeader(
      [
        cookie('WorkosCursorSessionToken', 'x', '2026-01-01T00:00:00Z', '2026-10-01T00:00:00Z'),
        cookie('WorkosCursorSessionToken', 'y', '2026-02-01T00:00:00Z', '2026-11-01T00:00:00Z'),
      ],
      NOW,
    );
    expect(result).toEqual(skip('expired', 'its cursor.com session cookie expired 2026-11-01T00:00:00Z'));
  });

  it('when nothing decrypts, the failure the user can act on is reported (app-bound before "did not decrypt")', async () => {
    const appBound = skip('app-bound', 'v20', 'use Firefox');
    const result = await pickSessionHeader(
      [
        cookie('WorkosCursorSessionToken', skip('undecryptable', 'bad'), '2026-11-19T00:00:00Z'),
        cookie('WorkosCursorSessionToken', appBound, '2026-11-01T00:00:00Z'),
      ],
      NOW,
    );
    expect(result).toEqual(appBound);
  });
});
