/**
 * The command line as commander parses it: which command runs, which values each
 * flag accepts, and the form of an argument error, through the real `run(argv, io)` against the fake
 * cursor.com. An argument error never sends a request.
 */
import { describe, expect, it } from 'vitest';
import { generateEvents } from '../fake-cursor/events.js';
import { proAccount } from '../helpers/accounts.js';
import { useScene } from '../helpers/scene.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const COOKIE_VALUE = 'user_cli%3A%3Amanual';
const EVENTS_PATH = '/api/dashboard/get-filtered-usage-events';

const scene = useScene({
  now: NOW,
  frozen: true,
  env: { CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${COOKIE_VALUE}` },
  setup(scene) {
    const events = generateEvents({ count: 40, start: new Date('2026-11-10T00:00:00Z'), end: NOW, seed: 3 });
    return scene.serve([proAccount([COOKIE_VALUE], 'dev@example.com', { events: { events } })]);
  },
});
const cli = (args: string[], env: Record<string, string> = {}) => scene.run(args, { env });

const paths = () => scene.given.requests.map((request) => request.path);

describe('usage is the default command', () => {
  it.each([[[]], [['--json']], [['--json', '--pretty']], [['-v']], [['--provider', 'cursor']]])(
    'codexbar %j runs usage',
    async (args) => {
      const result = await cli(args);
      expect(result.code, result.stderr).toBe(0);
      expect(paths()).toContain('/api/usage-summary');
      expect(paths()).not.toContain(EVENTS_PATH);
      if (args.includes('--json')) expect(JSON.parse(result.stdout)[0].provider).toBe('cursor');
      else expect(result.stdout).toContain('== Cursor (web) ==');
      if (args.includes('--pretty')) expect(result.stdout).toContain('"provider" : "cursor"');
    },
  );

  it('codexbar cost --days 3 runs cost over three local days', async () => {
    const result = await cli(['cost', '--days', '3', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const bodies = scene.given.requests
      .filter((r) => r.path === EVENTS_PATH)
      .map((r) => r.body as { startDate: string });
    expect(bodies[0]?.startDate).toBe(String(Date.parse('2026-11-18T00:00:00Z')));
    expect(JSON.parse(result.stdout)[0].historyDays).toBe(3);
  });

  it('a word that is not a command is refused, naming the commands', async () => {
    const result = await cli(['foo']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toBe(
      "Error: unknown command 'foo' (commands: usage, cost, statusline, guard, alert, cache, serve, proxy, config, login, logout, doctor, team, models, mcp, completion)\n",
    );
    expect(scene.given.requests).toHaveLength(0);
  });
});

describe('fixed value sets: case-insensitive, anything else refused with the accepted values', () => {
  it.each([['cursor'], ['all'], ['Both']])('--provider %s is Cursor', async (provider) => {
    const result = await cli(['--provider', provider, '--json']);
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([
    [['--provider', 'codex'], "unknown provider 'codex' (supported: cursor)"],
    [['--source', 'browser'], '--source must be auto|web|cli|rpc|oauth|api.'],
    [['--format', 'toon'], "--format must be one of text, json (got 'toon')."],
    [
      ['--log-level', 'loud'],
      "--log-level must be one of trace, verbose, debug, info, warning, error, critical (got 'loud').",
    ],
    [['cost', '--days', 'x'], "--days must be a whole number from 1 to 365 (got 'x')."],
    [['cost', '--days', '400'], "--days must be a whole number from 1 to 365 (got '400')."],
    [['cost', '--days', '0'], "--days must be a whole number from 1 to 365 (got '0')."],
    [['cost', '--concurrency', '17'], "--concurrency must be a whole number from 1 to 16 (got '17')."],
    [
      ['cost', '--since', '2026-02-30'],
      "--since must be a date as YYYY-MM-DD or YYYYMMDD, e.g. 2026-11-01 (got '2026-02-30').",
    ],
    [
      ['cost', '--timezone', 'Mars/Base'],
      "--timezone must be an IANA time zone name such as America/New_York, Europe/Berlin or UTC (got 'Mars/Base').",
    ],
    [['cost', '--days', '3', '--month'], "option '--days <n>' cannot be used with option '--month'"],
    [['cost', '--since', '20261101', '--all'], "option '--since <date>' cannot be used with option '--all'"],
    [['cost', '--month', '--all'], "option '--month' cannot be used with option '--all'"],
    [['--bogus'], "unknown option '--bogus'"],
  ])(
    '%j: text prints "Error: <message>" once; the JSON row holds the bare message',
    async (args, message) => {
      const text = await cli(args);
      expect(text).toMatchObject({ code: 1, stdout: '', stderr: `Error: ${message}\n` });
      const json = await cli([...args, '--json']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual([
        { provider: 'cli', source: 'cli', error: { code: 1, message, kind: 'args' } },
      ]);
      expect(scene.given.requests).toHaveLength(0);
    },
  );

  it('--format JSON is json; an explicit --format text beats --json', async () => {
    expect(JSON.parse((await cli(['--format', 'JSON'])).stdout)[0].provider).toBe('cursor');
    expect((await cli(['--json', '--format', 'text'])).stdout).toContain('== Cursor (web) ==');
  });
});

describe('--source', () => {
  it.each([
    ['api', 'api'],
    ['OAuth', 'oauth'],
  ])('--source %s is a Cursor row error, not an argument error', async (source, label) => {
    const result = await cli(['--source', source, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        provider: 'cursor',
        source: label,
        error: { code: 1, message: `Source '${label}' is not supported for cursor.`, kind: 'provider' },
      },
    ]);
    expect(scene.given.requests).toHaveLength(0);
  });

  it('--source cli runs as auto but an error row reports "cli"', async () => {
    const result = await cli(['--source', 'cli', '--json'], {
      CODEXBAR_CURSOR_COOKIE: 'WorkosCursorSessionToken=nobody%3A%3Ax',
    });
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ provider: 'cursor', source: 'cli' });
  });
});

describe('verbosity', () => {
  it.each([
    [['-v'], true],
    [['--log-level', 'debug'], true],
    [['--log-level', 'VERBOSE'], true],
    [['--log-level', 'error'], false],
    [[], false],
  ])('%j prints the auth-path lines: %s', async (args, verbose) => {
    const result = await cli(args);
    expect(result.stderr.includes('[cursor] Using manual cookie header')).toBe(verbose);
  });
});

describe('help', () => {
  it('codexbar --help is the program help: every command on one line, and examples', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: codexbar \[command\] \[options\]/);
    expect(result.stdout).toMatch(/\n {2}usage \[options\] +plan usage/);
    expect(result.stdout).toMatch(/\n {2}cost \[options\] +what your usage cost/);
    expect(result.stdout).toContain('-V, --version');
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).not.toContain('--cookie');
    expect(scene.given.requests).toHaveLength(0);
  });

  it('codexbar cost --help lists the cost flags and their accepted values', async () => {
    const result = await cli(['cost', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--days <n>');
    expect(result.stdout).toContain('choices: "text", "json"');
  });
});
