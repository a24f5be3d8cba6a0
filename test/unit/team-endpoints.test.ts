/**
 * One Admin API request (src/api/admin/endpoints.ts) against the fake Admin API, in virtual time: how a 429
 * holds the family for the requests after it (docs/invariants.md, "No partial total").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/api/admin/client.js';
import { ADMIN_RATE_LIMITS, type AdminContext, fetchUsageEventsPage } from '../../src/api/admin/endpoints.js';
import { RateLimiters } from '../../src/api/admin/rate-limiter.js';
import { proxySettings } from '../../src/api/transport.js';
import { type FakeAdmin, startFakeAdmin } from '../fake-cursor/admin-server.js';
import { ADMIN_KEY, VirtualClock } from '../helpers/team-cli.js';

const T0 = Date.parse('2026-07-20T15:00:00Z');
const QUERY = { start: new Date(T0 - 86_400_000), end: new Date(T0), page: 1 };

let fake: FakeAdmin | undefined;
let client: AdminClient | undefined;
afterEach(async () => {
  await client?.close();
  await fake?.close();
});

async function contextFor(retryAfter: string): Promise<{ context: AdminContext; clock: VirtualClock }> {
  const clock = new VirtualClock(T0);
  fake = await startFakeAdmin({
    apiKey: ADMIN_KEY,
    now: clock.now,
    events: [],
    faults: [{ path: '/teams/filtered-usage-events', page: 1, status: 429, retryAfter, times: 1 }],
  });
  client = new AdminClient({ baseUrl: fake.url, apiKey: ADMIN_KEY, proxy: proxySettings({}) });
  const limiters = new RateLimiters(clock, ADMIN_RATE_LIMITS);
  return { context: { client, limiters, retry: { sleep: clock.sleep } }, clock };
}

describe('a 429 holds the family', () => {
  it('for its Retry-After when that is within the five-minute cap, then the retry is answered', async () => {
    const { context, clock } = await contextFor('300');
    await expect(fetchUsageEventsPage(context, QUERY)).resolves.toMatchObject({ usageEventsDisplay: [] });
    expect(clock.now() - T0).toBe(300_000);
  });

  it('for the cap at most when its Retry-After is past it: the request fails, and the next one waits 5 min', async () => {
    const { context, clock } = await contextFor('999999999');
    await expect(fetchUsageEventsPage(context, QUERY)).rejects.toThrow(
      /^Cursor API error: rate limited for 999999999 s; try again later/,
    );
    expect(clock.now()).toBe(T0);
    await expect(fetchUsageEventsPage(context, QUERY)).resolves.toMatchObject({ usageEventsDisplay: [] });
    expect(clock.now() - T0).toBe(300_000);
  });
});
