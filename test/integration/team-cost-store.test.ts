/**
 * `team cost` through the team's event store (docs/invariants.md, "When a stored range may be trusted"):
 * repeated runs in one home against the fake Admin API, counting the requests each run makes, with the
 * store's SQLite files real.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { clearCostStores } from '../../src/cost/store/store-files.js';
import { memberStoreKey, teamStoreKey } from '../../src/team/store-key.js';
import { seedAdminEvents, seedMembers } from '../fake-cursor/admin-seed.js';
import type { AdminEventJson, AdminFault } from '../fake-cursor/admin-types.js';
import { type OpenScene, openScene } from '../helpers/scene.js';
import { ADMIN_KEY, expectNoKey, requestsTo, runTeam } from '../helpers/team-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const DAY = 86_400_000;
const SETTLED = NOW.getTime() - 2 * DAY;
const EVENTS = '/teams/filtered-usage-events';
const OTHER_KEY = `key_${'9f'.repeat(32)}`;
const members = seedMembers(20);

/** `--days <days>` events: the window starts at UTC midnight `days − 1` days before NOW. */
function seeded(count: number, days: number, seed: number): AdminEventJson[] {
  const start = new Date(Date.parse('2026-07-20T00:00:00Z') - (days - 1) * DAY);
  return seedAdminEvents({ members, count, start, end: new Date(NOW.getTime() - 1000), seed });
}

/** Pages of a complete fetch of `n` events: the full ones and the short (or empty) one that ends it. */
const pagesFor = (n: number) => Math.floor(n / 1000) + 1;
const recent = (events: AdminEventJson[]) => events.filter((e) => Number(e.timestamp) >= SETTLED).length;
const storeDirOf = (home: string) => path.join(home, '.cache', 'codexbar', 'cost');
const scenes: OpenScene[] = [];

/** A HOME kept over the tests of a block (a later run finds what an earlier one stored); all go at the end. */
function newHome(): string {
  const scene = openScene();
  scenes.push(scene);
  return scene.home;
}

afterAll(async () => {
  for (const scene of scenes) await scene.close();
});

interface RunOptions {
  events: AdminEventJson[];
  apiKey?: string;
  faults?: AdminFault[];
  /** The run's clock; default NOW. */
  now?: Date;
}

/** One `team cost` run in `home`; `eventRequests` counts what it asked the fake for. */
async function teamCost(home: string, args: string[], options: RunOptions) {
  const result = await runTeam(['cost', ...args], {
    now: options.now ?? NOW,
    home,
    apiKey: options.apiKey,
    fake: { events: options.events, faults: options.faults },
  });
  expectNoKey(result, options.apiKey ?? ADMIN_KEY);
  return { ...result, eventRequests: requestsTo(result, EVENTS).length };
}

const truths = new WeakMap<AdminEventJson[], Map<string, Promise<string>>>();

/**
 * What a run that neither reads nor writes a store prints for `events`: once per events and arguments (the
 * clock is NOW's), however many tests compare with it.
 */
function truth(args: string[], events: AdminEventJson[]): Promise<string> {
  const byArgs = truths.get(events) ?? new Map<string, Promise<string>>();
  truths.set(events, byArgs);
  let known = byArgs.get(args.join(' '));
  if (known === undefined) {
    known = teamCost(newHome(), [...args, '--no-cache'], { events }).then((result) => {
      expect(result.code).toBe(0);
      return result.stdout;
    });
    byArgs.set(args.join(' '), known);
  }
  return known;
}

/**
 * Output less what says the stored ranges were checked by count only: the Admin API has no totals of a
 * range, so a warm run says so, and otherwise prints what a cold run would.
 */
const lessCountOnly = (stdout: string) =>
  stdout
    .replace(/,"storedRanges":\{"used":\d+,"checkedByCountOnly":\d+\}/g, '')
    .replace(/^Note: \d+(?: of \d+)? stored ranges? (?:was|were) checked by event count only.*\n/m, '');

/** A file's digest: comparing megabytes of SQLite pages byte by byte through expect is slow. */
const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name));
}

describe('a warm `team cost` asks only for verification and the last 48 hours', () => {
  const events = seeded(1500, 30, 41);
  const home = newHome();
  // Every test but the first finds the store a complete run leaves in `home` (a cold one the first time,
  // a warm one after): tests may run in any order, and one of them clears the store.
  beforeEach(async () => {
    expect((await teamCost(home, ['--days', '30', '--json'], { events })).code).toBe(0);
  });

  it('cold, then warm: one verification request plus the recent pages, and byte-identical JSON', async () => {
    const fresh = newHome();
    const storeFile = path.join(storeDirOf(fresh), `${teamStoreKey(ADMIN_KEY)}.sqlite`);
    const cold = await teamCost(fresh, ['--days', '30', '--json'], { events });
    expect(cold.code).toBe(0);
    expect(cold.eventRequests).toBe(pagesFor(1500));
    expect(fs.existsSync(storeFile)).toBe(true);

    const warm = await teamCost(fresh, ['--days', '30', '--json', '--verbose'], { events });
    expect(warm.code).toBe(0);
    expect(recent(events)).toBeGreaterThan(0);
    expect(warm.eventRequests).toBe(1 + pagesFor(recent(events)));
    expect(JSON.parse(warm.stdout)[0].storedRanges).toEqual({ used: 1, checkedByCountOnly: 1 });
    expect(lessCountOnly(warm.stdout)).toBe(cold.stdout);
    expect(warm.stderr).toMatch(
      /\[cursor-team\] From the event store: 2026-06-21T00:00:00Z – 2026-07-18T15:00:00Z, \d+ events \(verified by count only\)/,
    );
    expect(warm.stderr).toContain('[cursor-team] Fetching 2026-07-18T15:00:00Z – 2026-07-20T15:00:00Z');
    // The verification request is page 1 of the stored span, asked for with inclusive bounds.
    const [verify] = requestsTo(warm, EVENTS);
    expect(verify!.body).toMatchObject({
      startDate: Date.parse('2026-06-21T00:00:00Z'),
      endDate: SETTLED - 1,
    });
    expect(verify!.body).toMatchObject({ page: 1 });
  });

  it('text output is the same warm as cold, and says the stored range was checked by count only', async () => {
    const text = await teamCost(home, ['--days', '30'], { events });
    expect(text.stdout).toContain(
      'Note: 1 stored range was checked by event count only, which cannot see a settled event re-rated in place; --refresh fetches everything again.\n',
    );
    expect(lessCountOnly(text.stdout)).toBe(await truth(['--days', '30'], events));
    expect(text.eventRequests).toBe(1 + pagesFor(recent(events)));
  });

  it('the store is 0600 in 0700 directories, and no file written holds the Admin API key', () => {
    const dir = storeDirOf(home);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(dir))
      expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    const forms = [ADMIN_KEY, Buffer.from(`${ADMIN_KEY}:`).toString('base64'), ADMIN_KEY.slice(4)];
    const files = filesUnder(home).filter((file) => fs.statSync(file).isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(path.basename(file)).not.toContain(ADMIN_KEY.slice(4, 20));
      const bytes = fs.readFileSync(file);
      for (const form of forms) expect(bytes.includes(form), `${form} in ${file}`).toBe(false);
    }
  });

  it('--no-cache fetches everything and leaves the store alone', async () => {
    const dir = storeDirOf(home);
    const snapshot = () => fs.readdirSync(dir).map((name) => `${name} ${digest(path.join(dir, name))}`);
    const before = snapshot();
    const run = await teamCost(home, ['--days', '30', '--json', '--no-cache', '--verbose'], { events });
    expect(run.eventRequests).toBe(pagesFor(1500));
    expect(run.stderr).not.toContain('event store');
    expect(snapshot()).toEqual(before);
  });

  it.each([
    ['less than a day ago is used, checked by its count', DAY - 1, true],
    ['a day ago or more is fetched again in full: the Admin API has no totals to check it by', DAY, false],
  ])('a range stored %s', async (_, age, used) => {
    const fresh = newHome();
    const storedAt = new Date(NOW.getTime() - age);
    expect((await teamCost(fresh, ['--days', '30', '--json'], { events, now: storedAt })).code).toBe(0);
    const warm = await teamCost(fresh, ['--days', '30', '--json', '--verbose'], { events });
    expect(warm.stderr.includes('(verified by count only)')).toBe(used);
    expect(warm.stderr.includes('can only be checked by count; fetching it again')).toBe(!used);
    expect(lessCountOnly(warm.stdout)).toBe(await truth(['--days', '30', '--json'], events));
    // Page 1 of the stored span (fetched again, every page of it), then what was not settled when it was
    // stored.
    const unstored = events.filter((e) => Number(e.timestamp) >= storedAt.getTime() - 2 * DAY).length;
    expect(warm.eventRequests).toBe((used ? 1 : pagesFor(1500 - unstored)) + pagesFor(unstored));
  });

  it('a range dated a day ahead of the clock (set back since) is fetched again in full too', async () => {
    const fresh = newHome();
    const ahead = new Date(NOW.getTime() + DAY);
    expect((await teamCost(fresh, ['--days', '30', '--json'], { events, now: ahead })).code).toBe(0);
    const warm = await teamCost(fresh, ['--days', '30', '--json', '--verbose'], { events });
    expect(warm.stderr).toContain('can only be checked by count; fetching it again');
    expect(warm.stderr).not.toContain('(verified');
    expect(warm.stdout).toBe(await truth(['--days', '30', '--json'], events));
  });

  it('--refresh fetches everything, and the next run uses what it stored', async () => {
    const run = await teamCost(home, ['--days', '30', '--json', '--refresh', '--verbose'], { events });
    expect(run.eventRequests).toBe(pagesFor(1500));
    expect(run.stderr).not.toContain('From the event store');
    const next = await teamCost(home, ['--days', '30', '--json', '--verbose'], { events });
    expect(next.stderr).toContain('(verified by count only)');
    expect(lessCountOnly(next.stdout)).toBe(run.stdout);
  });

  it('cache clear --cost (clearCostStores) removes the team store with the others', async () => {
    const env = { platform: 'linux' as const, env: { HOME: home }, homeDir: home, now: () => NOW };
    expect(await clearCostStores(env)).toBeGreaterThan(0);
    expect(fs.readdirSync(storeDirOf(home))).toEqual([]);
  });
});

describe('stored spans are verified before use', () => {
  const base = seeded(1500, 40, 42);
  const oldDay = Date.parse('2026-07-01T09:30:00Z');
  const extra: AdminEventJson = {
    timestamp: String(oldDay),
    userEmail: members[3]!.email,
    model: 'gpt-5',
    kind: 'Usage-based',
    tokenUsage: { inputTokens: 1000, outputTokens: 100, totalCents: 1234.5 },
    chargedCents: 1300,
    cursorTokenFee: 65.5,
  };
  const withExtra = [...base, extra].sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
  const home = newHome();
  const args = ['--days', '40', '--json', '--verbose'];
  const row = (stdout: string) => (JSON.parse(stdout) as Record<string, number>[])[0]!;

  it('a 40-day stored span is verified in two 30-day requests, each within the API limit', async () => {
    const fresh = newHome();
    const cold = await teamCost(fresh, args, { events: base });
    expect(cold.code).toBe(0);
    const warm = await teamCost(fresh, args, { events: base });
    expect(lessCountOnly(warm.stdout)).toBe(cold.stdout);
    expect(warm.eventRequests).toBe(2 + pagesFor(recent(base)));
    expect(warm.stderr.match(/\(verified by count only\)/g)).toHaveLength(2);
    for (const request of requestsTo(warm, EVENTS)) {
      const body = request.body as { startDate: number; endDate: number };
      expect(body.endDate - body.startDate).toBeLessThan(30 * DAY);
    }
  });

  it('an event inserted into an old stored day is noticed, its piece fetched again, and the total is right', async () => {
    // The store holds `base` (tests may run in any order).
    const stored = await teamCost(home, args, { events: base });
    expect(stored.code).toBe(0);
    const after = await teamCost(home, args, { events: withExtra });
    expect(after.code).toBe(0);
    expect(after.stderr).toMatch(
      /\[cursor-team\] The event store holds (\d+) events for 2026-06-\d\dT00:00:00Z – 2026-07-\d\dT00:00:00Z, the Admin API reports \d+; fetching it again/,
    );
    expect(lessCountOnly(after.stdout)).toBe(await truth(['--days', '40', '--json'], withExtra));
    expect(row(after.stdout).apiRateCostUSD! - row(stored.stdout).apiRateCostUSD!).toBeCloseTo(12.345, 6);
    expect(row(after.stdout).tokenFeeUSD! - row(stored.stdout).tokenFeeUSD!).toBeCloseTo(0.655, 6);
    // The piece fetched again replaced what was stored: the next run verifies it and prints the same.
    const again = await teamCost(home, args, { events: withExtra });
    expect(again.stderr).not.toContain('fetching it again');
    expect(lessCountOnly(again.stdout)).toBe(lessCountOnly(after.stdout));
  });

  it('an event deleted from an old stored day is noticed too', async () => {
    const victim = base.find((e) => Number(e.timestamp) < Date.parse('2026-07-10T00:00:00Z'))!;
    const fewer = base.filter((e) => e !== victim);
    expect((await teamCost(home, args, { events: base })).code).toBe(0);
    const after = await teamCost(home, args, { events: fewer });
    expect(after.stderr).toContain('fetching it again');
    expect(lessCountOnly(after.stdout)).toBe(await truth(['--days', '40', '--json'], fewer));
  });

  it('a verification request that fails fails the run: no stored total is shown', async () => {
    await teamCost(home, args, { events: base });
    const run = await teamCost(home, ['--days', '40'], {
      events: base,
      faults: [{ path: EVENTS, page: 1, status: 400, times: 1 }],
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('HTTP 400');
  });
});

describe('stores of other teams and members are never read', () => {
  const events = seeded(1500, 10, 43);
  const args = ['--days', '10', '--json', '--verbose'];

  it("another team's store under this team's file name is set aside, never read", async () => {
    const home = newHome();
    const dir = storeDirOf(home);
    await teamCost(home, args, { events, apiKey: OTHER_KEY });
    const theirs = path.join(dir, `${teamStoreKey(OTHER_KEY)}.sqlite`);
    const mine = path.join(dir, `${teamStoreKey(ADMIN_KEY)}.sqlite`);
    expect(theirs).not.toBe(mine);
    fs.copyFileSync(theirs, mine);
    fs.chmodSync(mine, 0o600);
    const run = await teamCost(home, args, { events });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('could not be used (it belongs to another team)');
    expect(run.stderr).not.toContain('From the event store');
    expect(run.eventRequests).toBe(pagesFor(1500));
  });

  it('--member keeps its events in a store of its own; the team store is not touched', async () => {
    const home = newHome();
    const dir = storeDirOf(home);
    const member = members[5]!.email;
    const team = await teamCost(home, args, { events });
    const teamFile = path.join(dir, `${teamStoreKey(ADMIN_KEY)}.sqlite`);
    const teamBytes = digest(teamFile);
    const cold = await teamCost(home, [...args, '--member', member], { events });
    const warm = await teamCost(home, [...args, '--member', member], { events });
    expect(lessCountOnly(warm.stdout)).toBe(cold.stdout);
    expect(warm.stderr).toContain('(verified by count only)');
    expect(warm.stdout).not.toBe(team.stdout);
    for (const request of requestsTo(warm, EVENTS)) expect(request.body).toMatchObject({ email: member });
    const memberFile = `${memberStoreKey(teamStoreKey(ADMIN_KEY), member)}.sqlite`;
    expect(
      fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.sqlite'))
        .sort(),
    ).toEqual([path.basename(teamFile), memberFile].sort());
    expect(digest(teamFile)).toBe(teamBytes);
    expect(warm.stderr).not.toContain('@');
  });

  it('two concurrent runs both succeed, and the store they leave is verified and used', async () => {
    const home = newHome();
    const [a, b] = await Promise.all([
      teamCost(home, ['--days', '10', '--json'], { events }),
      teamCost(home, ['--days', '10', '--json'], { events }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(b.stdout).toBe(a.stdout);
    const warm = await teamCost(home, args, { events });
    expect(warm.stderr).toContain('(verified by count only)');
    expect(lessCountOnly(warm.stdout)).toBe(a.stdout);
  });

  it('a store that cannot be opened costs only the saving: every event is fetched, the output is right', async () => {
    const home = newHome();
    fs.mkdirSync(storeDirOf(home), { recursive: true, mode: 0o700 });
    fs.chmodSync(storeDirOf(home), 0o755);
    const run = await teamCost(home, args, { events });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('[cursor-team] No event store this run:');
    expect(run.eventRequests).toBe(pagesFor(1500));
    expect(run.stdout).toBe(await truth(['--days', '10', '--json'], events));
  });
});
