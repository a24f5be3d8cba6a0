/**
 * The real `--json` output of every command validates, strictly, against the schema docs/json.md is generated
 * from (test/helpers/json-rows/): a field the program writes but the schema does not name, or one it leaves
 * out although the schema says it is always there, fails here. `usage` and `cost` rows are also checked by
 * usage-output.test.ts and cost-json-schema.test.ts, and every run that reads a row through `usageJson`,
 * `onlyRow` or `jsonRow`; this file covers the shapes those do not reach.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedAdminEvents, seedDailyUsage, seedMembers } from '../fake-cursor/admin-seed.js';
import { generateEvents } from '../fake-cursor/events.js';
import type { Handler } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { type CliResult, type RunOptions, runCli } from '../helpers/cli.js';
import { makeToken, writeAppToken, writeCachedCookie, writeConfig } from '../helpers/home.js';
import { costOutputSchema } from '../helpers/json-rows/cost.js';
import { doctorOutputSchema } from '../helpers/json-rows/doctor.js';
import {
  cacheClearOutputSchema,
  configProvidersOutputSchema,
  configToggleOutputSchema,
  configValidateOutputSchema,
  loginOutputSchema,
  logoutOutputSchema,
} from '../helpers/json-rows/files.js';
import { guardOutputSchema, statuslineOutputSchema } from '../helpers/json-rows/prompt.js';
import {
  teamCostOutputSchema,
  teamSpendOutputSchema,
  teamUsageOutputSchema,
} from '../helpers/json-rows/team.js';
import { usageOutputSchema } from '../helpers/json-rows/usage.js';
import { later, PROMPT_NOW } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';
import { runTeam } from '../helpers/team-cli.js';
import { fakeFor, makeTokenAccounts, writeTokenAccountsConfig } from '../helpers/token-accounts.js';

const scene = useScene();

/** The CLI in-process at PROMPT_NOW (proAccount's mid-cycle), against this test's fake cursor.com. */
function cli(args: readonly string[], options: Partial<RunOptions> = {}): Promise<CliResult> {
  const url = scene.fake?.url;
  if (url === undefined) throw new Error('start the fake first: no run may reach the network');
  return runCli(args, {
    home: scene.home,
    now: PROMPT_NOW,
    frozen: true,
    ...options,
    env: { CODEXBAR_CURSOR_BASE_URL: url, CODEXBAR_CURSOR_STATUS_URL: url, ...options.env },
  });
}

/** stdout, parsed and checked against the output's documented schema; the message shows what differs. */
function documented<S extends z.ZodType>(schema: S, result: { stdout: string }): z.output<S> {
  const parsed = schema.safeParse(JSON.parse(result.stdout));
  if (!parsed.success) {
    throw new Error(
      `stdout is not what docs/json.md says:\n${z.prettifyError(parsed.error)}\n${result.stdout}`,
    );
  }
  return parsed.data;
}

const STATUS_PAGE: Handler = {
  json: {
    page: {
      id: 'x',
      name: 'Cursor',
      url: 'https://status.cursor.com',
      updated_at: '2026-11-30T14:00:00.250Z',
    },
    status: { indicator: 'minor', description: 'Partially Degraded Service' },
  },
};

/** `work` (a Pro account with events), `broken` (cursor.com rejects it) and `personal`, `work` active. */
async function threeAccounts(): Promise<void> {
  const accounts = await makeTokenAccounts(['work', 'broken', 'personal']);
  writeTokenAccountsConfig(scene.home, accounts);
  const events = generateEvents({
    count: 40,
    start: new Date('2026-11-01T00:00:00Z'),
    end: PROMPT_NOW,
    seed: 4,
  });
  await scene.serve(
    [
      fakeFor(accounts[0]!, { events: { events } }),
      fakeFor(accounts[1]!, { usageSummary: { status: 401, json: {} }, events: { status: 401, json: {} } }),
      fakeFor(accounts[2]!, { events: { events: [] } }),
    ],
    { statusPage: STATUS_PAGE },
  );
}

/** A Cursor app token that signs in as a@example.com, and nothing else. */
async function appSession(): Promise<void> {
  const token = await makeToken('user_rows_a', { email: 'a@example.com' });
  writeAppToken(scene.home, token.jwt);
  await scene.serve([proAccount([token.cookieValue], 'a@example.com')]);
}

describe('usage --json', () => {
  it('--all-accounts --status: usage rows and an error row, each with account and status', async () => {
    await threeAccounts();
    const result = await cli(['usage', '--all-accounts', '--status', '--json']);
    expect(result.code).toBe(1);
    const rows = documented(usageOutputSchema, result);
    expect(rows.map((row) => ('account' in row ? row.account : undefined))).toEqual([
      'work',
      'broken',
      'personal',
    ]);
    expect(rows.map((row) => 'error' in row)).toEqual([false, true, false]);
    expect(rows.every((row) => 'status' in row && row.status?.indicator === 'minor')).toBe(true);
  });

  it('an argument error is a `cli` row', async () => {
    await scene.serve([]);
    const rows = documented(usageOutputSchema, await cli(['usage', '--provider', 'claude', '--json']));
    expect(rows).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});

describe('cost --json', () => {
  it('--all-accounts: rows and an error row, each with account', async () => {
    await threeAccounts();
    const result = await cli(['cost', '--all-accounts', '--json', '--by', 'kind']);
    expect(result.code).toBe(1);
    const rows = documented(costOutputSchema, result);
    expect(rows.map((row) => ('account' in row ? row.account : undefined))).toEqual([
      'work',
      'broken',
      'personal',
    ]);
    expect(rows.map((row) => 'error' in row)).toEqual([false, true, false]);
  });

  it('an argument error is a `cli` row', async () => {
    await scene.serve([]);
    const rows = documented(costOutputSchema, await cli(['cost', '--days', 'x', '--json']));
    expect(rows).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});

describe('statusline --json', () => {
  it('one object, live and then stale', async () => {
    await appSession();
    const live = documented(statuslineOutputSchema, await cli(['statusline', '--json']));
    const stale = documented(
      statuslineOutputSchema,
      await cli(['statusline', '--json'], { now: later(125) }),
    );
    expect(live).toMatchObject({ stale: false, ageSeconds: 0 });
    expect(stale).toMatchObject({ stale: true, ageSeconds: 125 });
  });

  it('--no-wait before the first snapshot: the placeholder object', async () => {
    await appSession();
    const result = await cli(['statusline', '--no-wait', '--json']);
    expect(documented(statuslineOutputSchema, result)).toMatchObject({ pending: true, text: 'Cursor …' });
  });

  it('a failure object when there is no session', async () => {
    await scene.serve([]);
    const result = await cli(['statusline', '--json']);
    expect(result.code).toBe(0);
    expect(documented(statuslineOutputSchema, result)).toMatchObject({ text: 'Cursor: not logged in' });
  });

  it('--account: the object names the account', async () => {
    await threeAccounts();
    const named = documented(
      statuslineOutputSchema,
      await cli(['statusline', '--account', 'personal', '--json']),
    );
    const broken = documented(
      statuslineOutputSchema,
      await cli(['statusline', '--account', 'broken', '--json']),
    );
    expect(named).toMatchObject({ account: 'personal' });
    expect(broken).toMatchObject({ account: 'broken', text: 'Cursor (broken): not logged in' });
  });

  it('--all-accounts: an array, a failing account as its failure object', async () => {
    await threeAccounts();
    const lines = documented(statuslineOutputSchema, await cli(['statusline', '--all-accounts', '--json']));
    expect(Array.isArray(lines) && lines.map((line) => 'error' in line)).toEqual([false, true, false]);
  });

  it('an argument error is a `cli` row in an array', async () => {
    await scene.serve([]);
    const result = await cli(['statusline', '--json', '--template', '{bogus}']);
    expect(result.code).toBe(1);
    expect(documented(statuslineOutputSchema, result)).toEqual([
      expect.objectContaining({ provider: 'cli' }),
    ]);
  });
});

describe('guard --json', () => {
  it.each([
    [['--min-remaining', '10'], 0, 'ok'],
    [['--min-remaining', '90'], 1, 'blocked'],
    [['--window', 'weekly', '--min-remaining', '10'], 0, 'ok'],
  ])('%j: exit %i, %s', async (args, code, decision) => {
    await appSession();
    const result = await cli(['guard', '--json', ...args]);
    expect(result.code).toBe(code);
    expect(documented(guardOutputSchema, result)).toMatchObject({ decision });
  });

  it.each([
    [[], 69],
    [['--fail-open'], 0],
  ])('no session %j: unknown, exit %i', async (args, code) => {
    await scene.serve([]);
    const result = await cli(['guard', '--json', ...args]);
    expect(result.code).toBe(code);
    expect(documented(guardOutputSchema, result)).toMatchObject({ unavailableReason: 'account-resolution' });
  });

  it('--account: the object names the account', async () => {
    await threeAccounts();
    const result = await cli(['guard', '--account', 'broken', '--json']);
    expect(result.code).toBe(69);
    expect(documented(guardOutputSchema, result)).toMatchObject({
      account: 'broken',
      unavailableReason: 'account-resolution',
    });
  });

  it('--all-accounts: an array, each with account', async () => {
    await threeAccounts();
    const result = await cli(['guard', '--all-accounts', '--json']);
    expect(result.code).toBe(69);
    const gates = documented(guardOutputSchema, result);
    expect(Array.isArray(gates) && gates.map((gate) => 'account' in gate && gate.account)).toEqual([
      'work',
      'broken',
      'personal',
    ]);
  });

  it('an argument error is a `cli` row with code 64', async () => {
    await scene.serve([]);
    const result = await cli(['guard', '--json', '--min-remaining', '101']);
    expect(result.code).toBe(64);
    expect(documented(guardOutputSchema, result)).toEqual([
      expect.objectContaining({ provider: 'cli', error: expect.objectContaining({ code: 64 }) }),
    ]);
  });
});

describe('cache clear --json', () => {
  it('--all after a usage run: each cache, cleared or not', async () => {
    await appSession();
    await cli(['usage', '--json']);
    writeCachedCookie(scene.home, 'a=1');
    const results = documented(cacheClearOutputSchema, await cli(['cache', 'clear', '--all', '--json']));
    expect(results).toEqual([
      { cache: 'cookies', cleared: 1 },
      { cache: 'cost', cleared: 0 },
      { cache: 'usage', cleared: 1 },
      { cache: 'models', cleared: 0 },
    ]);
  });

  it('--cookies --provider cursor, and a cache that cannot be cleared', async () => {
    await scene.serve([]);
    documented(
      cacheClearOutputSchema,
      await cli(['cache', 'clear', '--cookies', '--provider', 'cursor', '--json']),
    );
    fs.mkdirSync(path.join(scene.home, '.cache'), { recursive: true });
    fs.writeFileSync(path.join(scene.home, '.cache', 'codexbar'), '');
    const failed = await cli(['cache', 'clear', '--usage', '--json']);
    expect(failed.code).toBe(1);
    expect(documented(cacheClearOutputSchema, failed)).toEqual([
      expect.objectContaining({ error: expect.any(String) }),
    ]);
  });

  it('an argument error is a `cli` row', async () => {
    await scene.serve([]);
    const rows = documented(cacheClearOutputSchema, await cli(['cache', 'clear', '--json']));
    expect(rows).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});

describe('config --json', () => {
  it('validate: no file, a file with warnings and errors, a file that is not JSON', async () => {
    await scene.serve([]);
    expect(documented(configValidateOutputSchema, await cli(['config', 'validate', '--json']))).toEqual([]);
    writeConfig(scene.home, {
      version: 2,
      providers: [
        {
          id: 'cursor',
          source: 'api',
          cookieSource: 'manual',
          region: 'eu',
          tokenAccounts: {
            version: 1,
            activeIndex: 3,
            accounts: [{ id: 'a', label: '', token: ' ', addedAt: 1 }],
          },
        },
      ],
    });
    const issues = documented(configValidateOutputSchema, await cli(['config', '--json']));
    expect(issues.length).toBeGreaterThan(5);
    writeConfig(scene.home, '{"version": 1,');
    documented(configValidateOutputSchema, await cli(['config', 'validate', '--json']));
    const unknownFlag = await cli(['config', 'validate', '--json', '--bogus']);
    expect(documented(configValidateOutputSchema, unknownFlag)).toEqual([
      expect.objectContaining({ provider: 'cli' }),
    ]);
  });

  it('providers, enable and disable', async () => {
    await scene.serve([]);
    writeConfig(scene.home, { version: 1, providers: [{ id: 'codex' }, { id: 'claude', enabled: true }] });
    expect(
      documented(configProvidersOutputSchema, await cli(['config', 'providers', '--json'])),
    ).toHaveLength(3);
    for (const command of ['enable', 'disable']) {
      const result = await cli(['config', command, '--provider', 'cursor', '--json']);
      expect(documented(configToggleOutputSchema, result)).toMatchObject({ enabled: command === 'enable' });
    }
  });

  it('an unknown provider is a `cli` row; a broken file is one for providers', async () => {
    await scene.serve([]);
    const unknown = await cli(['config', 'enable', '--provider', 'nope', '--json']);
    expect(documented(configToggleOutputSchema, unknown)).toEqual([
      expect.objectContaining({ provider: 'cli' }),
    ]);
    writeConfig(scene.home, '{"version": 1,');
    const broken = await cli(['config', 'providers', '--json']);
    expect(documented(configProvidersOutputSchema, broken)).toEqual([
      expect.objectContaining({ provider: 'cli' }),
    ]);
  });
});

describe('login and logout --json', () => {
  it('login stores the session; again with the same label it replaces it', async () => {
    const token = await makeToken('user_rows_login', { email: 'dev@example.com' });
    await scene.serve([proAccount([token.cookieValue])]);
    const header = `WorkosCursorSessionToken=${token.cookieValue}\n`;
    const first = await cli(['login', '--stdin', '--json'], { stdin: header });
    const again = await cli(['login', '--stdin', '--json', '--no-activate'], { stdin: header });
    expect(documented(loginOutputSchema, first)).toMatchObject({ replaced: false, plan: 'Cursor Pro' });
    expect(documented(loginOutputSchema, again)).toMatchObject({ replaced: true });
  });

  it('a session cursor.com rejects is a `cli` row', async () => {
    await scene.serve([proAccount(['someone-else'])]);
    const result = await cli(['login', '--stdin', '--json'], {
      stdin: 'WorkosCursorSessionToken=nobody%3A%3Ax\n',
    });
    expect(result.code).toBe(1);
    expect(documented(loginOutputSchema, result)).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });

  it('logout removes one, then all; with none left it is a `cli` row', async () => {
    await scene.serve([]);
    writeTokenAccountsConfig(scene.home, await makeTokenAccounts(['work', 'personal', 'ci']));
    expect(documented(logoutOutputSchema, await cli(['logout', '--json']))).toMatchObject({
      active: 'personal',
    });
    const all = documented(logoutOutputSchema, await cli(['logout', '--all', '--json']));
    expect(all).toMatchObject({ remaining: 0 });
    expect(all).not.toHaveProperty('active');
    const none = await cli(['logout', '--json']);
    expect(none.code).toBe(1);
    expect(documented(logoutOutputSchema, none)).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});

describe('doctor --json', () => {
  it('token accounts, an app token and a proxy: the report, no error', async () => {
    const accounts = await makeTokenAccounts(['work', 'stale']);
    writeTokenAccountsConfig(scene.home, accounts);
    const app = await makeToken('rows_app', { email: 'app@example.com' });
    writeAppToken(scene.home, app.jwt);
    await scene.serve([fakeFor(accounts[0]!), proAccount([app.cookieValue])]);
    const env = {
      HTTPS_PROXY: 'http://alice:secret@proxy.example.com:3128',
      NO_PROXY: '127.0.0.1,localhost',
    };
    const report = documented(doctorOutputSchema, await cli(['doctor', '--json'], { env }));
    expect(report).toMatchObject({ source: 'web', proxy: { noProxy: '127.0.0.1,localhost' } });
    expect(report).not.toHaveProperty('error');
  });

  it('no session and a broken config: the error category', async () => {
    await scene.serve([]);
    writeConfig(scene.home, '{"version": 1,');
    const result = await cli(['diagnose', '--format', 'json', '--pretty']);
    expect(result.code).toBe(0);
    expect(documented(doctorOutputSchema, result)).toMatchObject({
      source: 'failed',
      error: { category: 'configuration' },
    });
  });

  it('an unknown flag is a `cli` row', async () => {
    await scene.serve([]);
    const result = await cli(['doctor', '--json', '--bogus']);
    expect(result.code).toBe(1);
    expect(documented(doctorOutputSchema, result)).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});

describe('team --json', () => {
  const NOW = new Date('2026-07-20T15:00:00Z');
  const members = seedMembers(12);
  const events = seedAdminEvents({
    members,
    count: 400,
    start: new Date('2026-07-10T00:00:00Z'),
    end: NOW,
    seed: 7,
  });
  const daily = seedDailyUsage(members, new Date('2026-07-10T00:00:00Z'), 11);
  const team = (args: string[], fake: Parameters<typeof runTeam>[1]['fake'] = {}) =>
    runTeam(args, {
      now: NOW,
      fake: { members, events, daily, cycleStart: Date.parse('2026-07-01T00:00:00Z'), ...fake },
    });

  it('spend, with --over', async () => {
    documented(teamSpendOutputSchema, await team(['spend', '--json']));
    const over = await team(['spend', '--over', '20', '--limit', '2', '--json']);
    expect(over.code).toBe(3);
    expect(documented(teamSpendOutputSchema, over)).toEqual([
      expect.objectContaining({ over: expect.anything() }),
    ]);
  });

  it('usage, and one --member', async () => {
    documented(teamUsageOutputSchema, await team(['usage', '--days', '7', '--json']));
    documented(
      teamUsageOutputSchema,
      await team(['usage', '--days', '7', '--member', members[1]!.email, '--json']),
    );
  });

  it('cost', async () => {
    const result = await team(['cost', '--days', '10', '--json']);
    expect(result.code, result.stderr).toBe(0);
    documented(teamCostOutputSchema, result);
  });

  it('a key the Admin API refuses is a team error row; no key at all is a `cli` row', async () => {
    const refused = await team(['spend', '--json'], { forbidden: true });
    expect(documented(teamSpendOutputSchema, refused)).toEqual([
      expect.objectContaining({ source: 'admin-api' }),
    ]);
    const failing = await team(['usage', '--json'], {
      faults: [{ path: '/teams/daily-usage-data', status: 500 }],
    });
    expect(documented(teamUsageOutputSchema, failing)).toEqual([
      expect.objectContaining({ error: expect.anything() }),
    ]);
    const incomplete = await team(['cost', '--days', '3', '--json'], {
      eventsCount: (_page, actual) => actual + 5,
    });
    expect(documented(teamCostOutputSchema, incomplete)).toEqual([
      expect.objectContaining({ source: 'admin-api' }),
    ]);
    const missing = await runTeam(['cost', '--json'], { now: NOW, envKey: null });
    expect(documented(teamCostOutputSchema, missing)).toEqual([expect.objectContaining({ provider: 'cli' })]);
  });
});
