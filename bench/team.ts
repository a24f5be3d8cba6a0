/**
 * `npm run bench:team`: `codexbar team cost --days 30` for a team of 500 members with 200,000 events over 30
 * days, against the fake Admin API at Cursor's documented 60 requests a minute. Prints the wall time, the
 * number of requests, and how close the run stays to the limit (requests per minute achieved ÷ 60, plus the
 * busiest 60-second window the fake counted). It takes minutes by construction: 201 pages at 60 a minute.
 * Then, once the fake's rate-limit window has emptied, the same command again (warm: the team's event store
 * from the first run): its requests and wall time, and whether its figures equal the cold run's. Asserts
 * nothing; talks only to the fake on 127.0.0.1 and removes its temp dirs whatever happens.
 */

import { seedAdminEvents, seedMembers } from '../test/fake-cursor/admin-seed.js';
import { startFakeAdmin } from '../test/fake-cursor/admin-server.js';
import type { FakeAdmin } from '../test/fake-cursor/admin-types.js';
import { expectSuccess, runNode } from './lib/child.js';
import { cleanupTempDirs, cliEnv, jsonRow, makeTempDir, snapshotBuild } from './lib/cli-env.js';
import { printSummary } from './lib/summary.js';

const MEMBERS = 500;
const EVENTS = 200_000;
const DAYS = 30;
const LIMIT_PER_MINUTE = 60;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const EVENTS_PATH = '/teams/filtered-usage-events';
const KEY = `key_${'b'.repeat(64)}`;
const SETTLED_MS = 48 * 3_600_000;

/** The row without what depends on the moment of the run (updatedAt, the window's end). */
function figures(row: Record<string, unknown>): string {
  const { updatedAt: _at, window: _window, ...rest } = row;
  return JSON.stringify(rest);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const cli = snapshotBuild();
  const home = makeTempDir('codexbar-bench-team-');
  const now = Date.now();
  // The `--days 30` window starts at UTC midnight 29 days ago (TZ=UTC below) and ends now.
  const start = new Date(Math.floor(now / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS);
  console.log(
    `Generating ${EVENTS.toLocaleString('en-US')} events for ${MEMBERS} members over ${DAYS} days…`,
  );
  const members = seedMembers(MEMBERS);
  const events = seedAdminEvents({ members, count: EVENTS, start, end: new Date(now - 1000), seed: 2026 });

  let fake: FakeAdmin | undefined;
  try {
    fake = await startFakeAdmin({ apiKey: KEY, members, events });
    console.log(
      `Running: codexbar team cost --days ${DAYS} --json (about ${Math.ceil(EVENTS / 1000 / LIMIT_PER_MINUTE)}+ minutes)…`,
    );
    const env = cliEnv(home, 'http://127.0.0.1:9', {
      CODEXBAR_CURSOR_BASE_URL: undefined,
      CODEXBAR_CURSOR_ADMIN_BASE_URL: fake.url,
      CURSOR_ADMIN_API_KEY: KEY,
      CODEXBAR_CONFIG: `${home}/missing-config.json`,
    });
    const teamCost = async (what: string) =>
      expectSuccess(
        await runNode([cli, 'team', 'cost', '--days', String(DAYS), '--json'], {
          env,
          timeoutMs: 20 * MINUTE_MS,
        }),
        what,
      );
    const coldAt = Date.now();
    const run = await teamCost('team cost (cold)');
    const row = jsonRow(run.stdout, 'team cost');
    const counted = Object.values(row.byKind as Record<string, { requests: number }>).reduce(
      (sum, kind) => sum + kind.requests,
      0,
    );
    const requests = fake.requests.filter((request) => request.path === EVENTS_PATH).length;
    const { stats } = fake;
    const rateLimited = stats.rateLimited.usageEvents;
    // A new process knows nothing of the last one's requests: wait until the fake's window is empty, so
    // the warm run measures the store rather than a wait for the rate limit.
    console.log('Waiting 61 s for the rate-limit window to empty, then the warm run…');
    await sleep(61_000);
    const warm = await teamCost('team cost (warm)');
    const warmRow = jsonRow(warm.stdout, 'team cost (warm)');
    const warmRequests = fake.requests.filter((request) => request.path === EVENTS_PATH).length - requests;
    // The cold run stored everything older than 48 hours before it started; the warm run verifies that
    // span (one request per 30-day piece) and pages the rest.
    const recent = events.filter((event) => Number(event.timestamp) >= coldAt - SETTLED_MS).length;
    const expectedWarm = 1 + Math.floor(recent / 1000) + 1;
    const minutes = run.ms / MINUTE_MS;
    const perMinute = requests / minutes;
    // The fake's own count: the most requests it accepted inside any 60-second window.
    const busiest = stats.peakInWindow.usageEvents;
    printSummary('team cost: 500 members, 200,000 events, 30 days, 60 requests/min', [
      {
        figure: 'wall time',
        value: `${(run.ms / 1000).toFixed(1)} s (${minutes.toFixed(2)} min)`,
        target: '-',
      },
      {
        figure: 'events counted',
        value: counted.toLocaleString('en-US'),
        target: EVENTS.toLocaleString('en-US'),
        met: counted === EVENTS,
      },
      {
        figure: 'requests (filtered-usage-events)',
        value: String(requests),
        target: '201 (200 full pages + the empty one)',
        met: requests === 201,
      },
      {
        figure: 'members in byMember',
        value: String((row.byMember as unknown[]).length),
        target: String(MEMBERS),
        met: (row.byMember as unknown[]).length === MEMBERS,
      },
      {
        figure: 'requests per minute achieved ÷ 60',
        value: (perMinute / LIMIT_PER_MINUTE).toFixed(3),
        target: 'about 1; above 1 when the run ends soon after a full window opened with a burst',
      },
      {
        figure: 'busiest 60 s window ÷ 60',
        value: (busiest / LIMIT_PER_MINUTE).toFixed(3),
        target: '≤ 1.000',
        met: busiest <= LIMIT_PER_MINUTE,
      },
      {
        figure: '429s from the fake',
        value: String(rateLimited),
        target: '0',
        met: rateLimited === 0,
      },
      {
        figure: 'warm run: wall time',
        value: `${(warm.ms / 1000).toFixed(1)} s (${((warm.ms / run.ms) * 100).toFixed(1)} % of cold)`,
        target: '-',
      },
      {
        figure: 'warm run: requests',
        value: String(warmRequests),
        target: `about ${expectedWarm} (1 verification + the pages of ${recent.toLocaleString('en-US')} recent events)`,
        met: Math.abs(warmRequests - expectedWarm) <= 1,
      },
      {
        figure: 'warm run: figures equal the cold run',
        value: figures(warmRow) === figures(row) ? 'yes' : 'no',
        target: 'yes',
        met: figures(warmRow) === figures(row),
      },
    ]);
  } finally {
    await fake?.close();
    cleanupTempDirs();
  }
}

await main();
