/**
 * The local zone comes from the run's own TZ. An empty TZ means unset (the system
 * zone); a TZ no one can use (`Factory`, a typo) is UTC with a --verbose note. Neither ever ends a run with
 * "Invalid time zone" after requests went out, in `usage` or in `cost`. `--timezone` with a bad value stays
 * an argument error before any request.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { proAccount } from '../helpers/accounts.js';
import { MANUAL_COOKIE_VALUE, onlyRow, runCost } from '../helpers/cost-cli.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const VALUE = 'user_zone%3A%3Amanual';

/** The zone this machine is set to, as Linux keeps it: the /etc/localtime link, else UTC. */
function systemZone(): string {
  try {
    const name = /zoneinfo\/(.+)$/.exec(fs.readlinkSync('/etc/localtime'))?.[1];
    if (name) return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {}
  return 'UTC';
}

const scene = useScene({
  now: NOW,
  env: { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${VALUE}` },
  setup: (scene) => scene.serve([proAccount([VALUE])]),
});

const usage = (tz: string | undefined, args: string[]) =>
  scene.run(['usage', '--verbose', ...args], { env: { TZ: tz } });

const events = [
  // 23:30 UTC on Nov 19 is Nov 20 in Tokyo: which day it lands on shows the zone in use.
  {
    timestamp: String(Date.parse('2026-11-19T23:30:00Z')),
    model: 'gpt-5',
    tokenUsage: { inputTokens: 5, totalCents: 1 },
  },
];
const cost = (tz: string | undefined, args: string[] = []) =>
  runCost(
    [{ cookies: [MANUAL_COOKIE_VALUE], events: { events } }],
    ['--json', '--verbose', ...(args.includes('--since') ? [] : ['--days', '7']), ...args],
    {
      now: NOW,
      env: { TZ: tz },
    },
  );

const dayKeys = (row: Record<string, unknown>) =>
  (row.daily as Array<{ date: string }>).map((day) => day.date);

describe('usage with TZ= and TZ=Factory', () => {
  it('TZ= (empty): the system zone, no note, no crash', async () => {
    const result = await usage('', ['--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('time zone');
    const unset = await usage(undefined, ['--json']);
    // Empty is the same as unset.
    expect(JSON.parse(result.stdout)[0].usage.primary.resetDescription).toBe(
      JSON.parse(unset.stdout)[0].usage.primary.resetDescription,
    );
  });

  it('TZ=Factory: UTC, with a --verbose note, in text and JSON', async () => {
    const json = await usage('Factory', ['--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toContain('[cursor] TZ=Factory is not a time zone this system knows; using UTC');
    // The billing cycle ends at midnight UTC: in UTC that reads 12:00AM.
    expect(JSON.parse(json.stdout)[0].usage.primary.resetDescription).toBe('Resets Dec 15 at 12:00AM');
    const text = await usage('Factory', []);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Total: 55% left');
    expect(text.stderr).not.toContain('Invalid time zone');
  });

  it('a named zone is still used as it is', async () => {
    const result = await usage('Asia/Tokyo', ['--json']);
    expect(JSON.parse(result.stdout)[0].usage.primary.resetDescription).toBe('Resets Dec 15 at 9:00AM');
    expect(result.stderr).not.toContain('time zone');
  });
});

describe('cost with TZ= and TZ=Factory', () => {
  it('TZ= (empty): the system zone for the window and the day keys, no note', async () => {
    const run = await cost('');
    expect(run.code, run.stderr).toBe(0);
    const row = onlyRow(run);
    expect((row.window as { timeZone: string }).timeZone).toBe(systemZone());
    expect(run.stderr).not.toContain('time zone');
  });

  it('TZ=Factory: UTC with a --verbose note', async () => {
    const run = await cost('Factory');
    expect(run.code, run.stderr).toBe(0);
    const row = onlyRow(run);
    expect((row.window as { timeZone: string }).timeZone).toBe('UTC');
    expect(dayKeys(row)).toEqual(['2026-11-19']);
    expect(run.stderr).toContain('[cursor-cost] TZ=Factory is not a time zone this system knows; using UTC');
  });

  it('TZ=Asia/Tokyo puts the same event on the next day', async () => {
    const row = onlyRow(await cost('Asia/Tokyo'));
    expect((row.window as { timeZone: string }).timeZone).toBe('Asia/Tokyo');
    expect(dayKeys(row)).toEqual(['2026-11-20']);
  });

  it('--timezone Factory is an argument error before any request', async () => {
    const run = await cost(undefined, ['--timezone', 'Factory']);
    expect(run.code).toBe(1);
    expect(onlyRow(run)).toMatchObject({
      provider: 'cli',
      error: { message: expect.stringMatching(/--timezone/) },
    });
    expect(run.requests).toEqual([]);
  });
});

describe('--since before the Unix epoch is refused before any request', () => {
  it('1970-01-01 starts before the epoch in Tokyo, not in New York', async () => {
    const tokyo = await cost(undefined, ['--since', '1970-01-01', '--timezone', 'Asia/Tokyo']);
    expect(tokyo.code).toBe(1);
    expect(onlyRow(tokyo)).toMatchObject({
      provider: 'cli',
      error: { message: '--since 1970-01-01 starts before the Unix epoch in Asia/Tokyo.' },
    });
    expect(tokyo.requests).toEqual([]);

    const newYork = await cost(undefined, ['--since', '1970-01-01', '--timezone', 'America/New_York']);
    expect(newYork.code, newYork.stdout).toBe(0);
    const bodies = newYork.requests.map((request) => request.body as { startDate: string });
    expect(bodies[0]?.startDate).toBe(String(Date.parse('1970-01-01T05:00:00Z')));
  });
});
