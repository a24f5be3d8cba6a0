/**
 * docs/invariants.md, "Best-effort lookups never fail a run": auth/me and /api/usage are best-effort lookups
 * with the optional budget (5 s, not the summary's 15 s), so a slow one cannot hold the run. The budgets are
 * injected: the optional one is made tiny and the request one large, so the test shows which budget each
 * lookup gets without waiting for either.
 */
import { expect, it } from 'vitest';
import { proAccount } from '../helpers/accounts.js';
import { makeToken, writeAppToken } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();

it('a slow auth/me and /api/usage are dropped at the optional budget; usage prints', async () => {
  // An app token, so /api/usage has a user id (the JWT's) even without auth/me.
  const token = await makeToken('slow_user', { email: 'slow@example.com' });
  writeAppToken(scene.home, token.jwt);
  await scene.serve([
    proAccount([token.cookieValue], 'me@example.com', {
      me: { delayMs: 60_000, json: { email: 'me@example.com', sub: 'auth0|slow_user' } },
      legacyUsage: { delayMs: 60_000, json: { 'gpt-4': { numRequests: 5, maxRequestUsage: 500 } } },
    }),
  ]);
  const result = await scene.run(['usage', '--json', '--verbose'], {
    timing: { optionalTimeoutMs: 100, requestTimeoutMs: 20_000 },
  });
  expect(result.code, result.stderr).toBe(0);
  const row = JSON.parse(result.stdout)[0];
  expect(row.usage.primary.usedPercent).toBe(45);
  // The JWT's email, since auth/me never answered; no request quota, since /api/usage never did.
  expect(row.usage.accountEmail).toBe('slow@example.com');
  expect(row.usage.details).toBeUndefined();
  expect(result.stderr).toContain(
    '[cursor] GET /api/auth/me unavailable (timed out after 0.1 s); continuing without it',
  );
  expect(result.stderr).toContain(
    '[cursor] GET /api/usage unavailable (timed out after 0.1 s); continuing without it',
  );
});
