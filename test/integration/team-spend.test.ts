/**
 * `codexbar team spend` in-process against the fake Admin API: text, JSON and CSV, --over exit codes,
 * complete paging, the key's three sources and its refusals, and that the key never shows.
 */
import { describe, expect, it } from 'vitest';
import { seedMembers } from '../fake-cursor/admin-seed.js';
import type { AdminMemberJson } from '../fake-cursor/admin-types.js';
import {
  ADMIN_KEY,
  expectNoKey,
  jsonRow,
  requestsTo,
  runTeam,
  type TeamRunOptions,
} from '../helpers/team-cli.js';

const NOW = new Date('2026-07-20T15:00:00Z');
const CYCLE = Date.parse('2026-07-01T00:00:00Z');
const SPEND = '/teams/spend';

let nextUserId = 1;
const member = (
  fields: Partial<AdminMemberJson> & Pick<AdminMemberJson, 'name' | 'email'>,
): AdminMemberJson => ({
  userId: nextUserId++,
  role: 'member',
  spendCents: 0,
  overallSpendCents: 0,
  fastPremiumRequests: 0,
  ...fields,
});

/** Ada 90 % of $100, Bo exactly 80 % of $50, Cy 125.5 % of $100, Di without a limit. */
const TEAM: AdminMemberJson[] = [
  member({
    name: 'Ada Lovelace',
    email: 'ada@example.test',
    role: 'owner',
    spendCents: 9000,
    overallSpendCents: 12000,
    fastPremiumRequests: 12,
    hardLimitOverrideDollars: 100,
  }),
  member({
    name: 'Bo Chen',
    email: 'bo@example.test',
    spendCents: 4000,
    overallSpendCents: 6000,
    monthlyLimitDollars: 50,
  }),
  member({
    name: 'Cy, Jr.',
    email: 'cy@example.test',
    spendCents: 12550,
    overallSpendCents: 15550,
    effectivePerUserLimitDollars: 100,
  }),
  member({
    name: 'Di',
    email: 'di@example.test',
    spendCents: 0,
    overallSpendCents: 2000,
    hardLimitOverrideDollars: 0,
  }),
];

const spend = async (args: string[], options: Partial<TeamRunOptions> = {}) => {
  const result = await runTeam(['spend', ...args], {
    ...options,
    now: NOW,
    fake: { members: TEAM, cycleStart: CYCLE, ...options.fake },
  });
  expectNoKey(result);
  return result;
};

/** Names in table order: the first cell of each body row. */
const tableNames = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('│') && !line.includes('Name'))
    .map((line) => line.split('│')[1]!.trim());

describe('team spend output', () => {
  it('text: the cycle, team totals, and members sorted by on-demand spend', async () => {
    const result = await spend([]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Cursor Team Spend (cycle since 2026-07-01)',
      'Spend: $255.50 on-demand · $355.50 in total · 4 members',
      'Spend is on-demand spend, measured against each limit; Total adds what the plan includes.',
    ]);
    expect(tableNames(result.stdout)).toEqual(['Cy, Jr.', 'Ada Lovelace', 'Bo Chen', 'Di']);
    expect(result.stdout).toMatch(
      /│ Cy, Jr\. +│ cy@example\.test +│ member +│ +\$125\.50 │ +\$155\.50 │ +\$100\.00 │ +125\.5% │/,
    );
    expect(result.stdout).toMatch(
      /│ Di +│ di@example\.test +│ member +│ +\$0\.00 │ +\$20\.00 │ +none │ +— │/,
    );
  });

  it("a 5,000-character name is cut to 60 columns, as cost's tables cut a model name; JSON keeps it whole", async () => {
    const long = `L${'x'.repeat(4999)}`;
    const team = [
      member({ name: long, email: 'long@example.test', spendCents: 100, overallSpendCents: 200 }),
    ];
    const text = await spend([], { fake: { members: team, cycleStart: CYCLE }, env: { COLUMNS: '100' } });
    expect(text.code).toBe(0);
    expect(tableNames(text.stdout)).toEqual([`L${'x'.repeat(58)}…`]);
    const widths = text.stdout
      .split('\n')
      .filter((line) => /^[│┌├└]/.test(line))
      .map((line) => [...line].length);
    expect(new Set(widths).size).toBe(1);
    expect(widths[0]).toBeLessThan(200);
    const json = await spend(['--json'], { fake: { members: team, cycleStart: CYCLE } });
    expect(json.stdout).toContain(long);
  });

  it('JSON: one row with the totals and every member, unknowns left out', async () => {
    const row = jsonRow(await spend(['--json']));
    expect(row).toMatchObject({
      provider: 'cursor',
      source: 'admin-api',
      updatedAt: '2026-07-20T15:00:00Z',
      subscriptionCycleStart: '2026-07-01T00:00:00Z',
      totalMembers: 4,
      spendUSD: 255.5,
      totalSpendUSD: 355.5,
    });
    const members = row.members as Array<Record<string, unknown>>;
    expect(members[1]).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      role: 'owner',
      spendUSD: 90,
      totalSpendUSD: 120,
      limitUSD: 100,
      percentOfLimit: 90,
      fastPremiumRequests: 12,
    });
    expect(members[3]).not.toHaveProperty('limitUSD');
    expect(members[3]).not.toHaveProperty('percentOfLimit');
  });

  it('CSV: RFC 4180 with CRLF, quoting and plain numbers', async () => {
    const result = await spend(['--csv', '--sort', 'name']);
    expect(result.stdout).toBe(
      [
        'name,email,role,spendUSD,totalSpendUSD,limitUSD,percentOfLimit,fastPremiumRequests',
        'Ada Lovelace,ada@example.test,owner,90,120,100,90,12',
        'Bo Chen,bo@example.test,member,40,60,50,80,0',
        '"Cy, Jr.",cy@example.test,member,125.5,155.5,100,125.5,0',
        'Di,di@example.test,member,0,20,,,0',
        '',
      ].join('\r\n'),
    );
  });
});

describe('team spend --over (exit code 3 for cron)', () => {
  it('exit 3 when anyone is strictly over the share, listing only them', async () => {
    const result = await spend(['--over', '80']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('2 members are over 80% of their limit.');
    expect(tableNames(result.stdout)).toEqual(['Cy, Jr.', 'Ada Lovelace']);
  });

  it('exit 3 with JSON and CSV too, whatever --limit shows', async () => {
    const json = await spend(['--over', '80', '--limit', '1', '--json']);
    expect(json.code).toBe(3);
    expect(jsonRow(json)).toMatchObject({ over: { percent: 80, count: 2 } });
    expect((jsonRow(json).members as unknown[]).length).toBe(1);
    const csv = await spend(['--over', '100', '--format', 'csv']);
    expect(csv.code).toBe(3);
    expect(csv.stdout.split('\r\n')).toHaveLength(3);
  });

  it('exit 0 when nobody is over', async () => {
    const result = await spend(['--over', '130']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No member is over 130% of their limit.');
    expect(result.stdout).not.toContain('│');
  });

  it.each([
    [['--over', 'lots'], "--over must be a percentage of the limit from 0, e.g. 80 (got 'lots')."],
    [['--sort', 'age'], "--sort must be one of spend, total, percent, name, email (got 'age')."],
    [['--limit', '0'], "--limit must be a whole number from 1 to 1000000 (got '0')."],
    [['--json', '--csv'], "option '--json' cannot be used with option '--csv'"],
  ])('%j is refused before any request', async (args, message) => {
    const result = await spend(args);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain(message);
    expect(result.requests).toHaveLength(0);
  });
});

describe('team spend paging', () => {
  it('reads every page in a fixed order and counts every member', async () => {
    const members = seedMembers(250);
    const result = await spend(['--json'], { fake: { members } });
    expect(result.code).toBe(0);
    const bodies = requestsTo(result, SPEND).map((request) => request.body);
    expect(bodies).toEqual(
      [1, 2, 3].map((page) => ({ page, pageSize: 100, sortBy: 'user', sortDirection: 'asc' })),
    );
    const row = jsonRow(result);
    expect((row.members as unknown[]).length).toBe(250);
    expect(row.spendUSD).toBeCloseTo(members.reduce((sum, m) => sum + m.spendCents, 0) / 100, 6);
  });

  it('a team that changes while it is read fails closed: nothing on stdout', async () => {
    const result = await spend([], {
      fake: { members: seedMembers(250), spendTotalMembers: (page) => (page === 1 ? 250 : 251) },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'Error: Cursor team spend changed while it was being read (250 members, then 251).\nHint: Run the command again; members joined or left',
    );
  });

  it('fewer members than reported fail closed', async () => {
    const result = await spend(['--json'], { fake: { spendTotalMembers: () => 5 } });
    expect(result.code).toBe(1);
    expect(jsonRow(result)).toMatchObject({
      error: { message: 'Cursor team spend was incomplete (received 4 of 5 members).' },
    });
  });
});

describe('the Admin API key', () => {
  it('is sent only as Basic auth: the key as user name, an empty password', async () => {
    const result = await spend([]);
    expect(result.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${ADMIN_KEY}:`).toString('base64')}`,
    );
  });

  it('comes from --api-key-stdin before the environment, and from the config file last', async () => {
    const wrongEnv = 'key_revokedrevokedrevoked0000';
    const fromStdin = await spend(['--api-key-stdin'], { envKey: wrongEnv, stdin: `${ADMIN_KEY}\n` });
    expect(fromStdin.code).toBe(0);
    const fromConfig = await spend(['-v'], {
      envKey: null,
      config: { version: 1, providers: [{ id: 'cursor', apiKey: ADMIN_KEY }] },
    });
    expect(fromConfig.code).toBe(0);
    expect(fromConfig.stderr).toBe('[cursor-team] Using the Admin API key from the config file\n');
  });

  it('missing: names the three ways to give one, sends nothing', async () => {
    const result = await spend([], { envKey: null });
    expect(result.code).toBe(1);
    expect(result.requests).toHaveLength(0);
    expect(result.stderr).toMatch(
      /^Error: No Cursor Admin API key\.\nHint: .*CURSOR_ADMIN_API_KEY.*--api-key-stdin.*"apiKey"/,
    );
    const json = await spend(['--json'], { envKey: null });
    // A missing key is a configuration error: a command-level row, as for any other.
    expect(jsonRow(json)).toEqual({
      provider: 'cli',
      source: 'cli',
      error: { code: 1, message: 'No Cursor Admin API key.', kind: 'config' },
    });
  });

  it('of the wrong shape: refused before any request, never echoed', async () => {
    const pasted = 'WorkosCursorSessionToken=user_01%3A%3Asecret';
    const result = await spend([], { envKey: pasted });
    expect(result.code).toBe(1);
    expect(result.requests).toHaveLength(0);
    expect(result.stderr).toContain('does not look like one: it does not start with key_ or crsr_');
    expectNoKey(result, pasted);
  });

  it('rejected (401) or without Admin API access (403): a clear error and hint, exit 1', async () => {
    const rejected = await spend([], { envKey: 'key_revokedrevokedrevoked0000' });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toMatch(
      /^Error: Cursor rejected the Admin API key \(HTTP 401, POST \/teams\/spend\)\.\nHint: /,
    );
    expectNoKey(rejected, 'key_revokedrevokedrevoked0000');
    const forbidden = await spend([], { fake: { forbidden: true } });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(
      /^Error: Cursor refused the Admin API request \(HTTP 403, POST \/teams\/spend\)\.\nHint: .*Team or Enterprise plan/,
    );
  });

  it('a huge or endless answer fails at the 64 MiB cap, naming the endpoint, exit 1', async () => {
    const declared = await spend([], {
      fake: {
        faults: [
          {
            path: SPEND,
            status: 200,
            answer: {
              headers: { 'content-length': String(65 * 1024 * 1024) },
              stream: { chunk: '{', bytes: 1 },
            },
          },
        ],
      },
    });
    expect(declared.code).toBe(1);
    expect(declared.stderr).toBe(
      'Error: Cursor API error: response larger than 64 MiB (POST /teams/spend)\n',
    );
    const endless = await spend([], {
      fake: {
        faults: [{ path: SPEND, status: 200, answer: { stream: { chunk: `[${'0,'.repeat(32 * 1024)}` } } }],
      },
    });
    expect(endless.code).toBe(1);
    expect(endless.stderr).toBe('Error: Cursor API error: response larger than 64 MiB (POST /teams/spend)\n');
    expectNoKey(endless);
  });

  it('is never sent to a base URL that is neither https nor loopback', async () => {
    const result = await spend([], { env: { CODEXBAR_CURSOR_ADMIN_BASE_URL: 'http://admin.example.com' } });
    expect(result.code).toBe(1);
    expect(result.requests).toHaveLength(0);
    expect(result.stderr).toContain('Refusing CODEXBAR_CURSOR_ADMIN_BASE_URL http://admin.example.com');
  });
});
