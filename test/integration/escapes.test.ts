/**
 * docs/invariants.md, "Control characters never reach a terminal": text from cursor.com, the Admin API or a
 * local file (emails, plan names, model names, member names, token-account labels, window labels of a usage
 * snapshot, error bodies) reaches stdout and stderr only as visible `\xNN` escapes, in every command, every
 * format and every statusline token. JSON keeps the characters, escaped by the encoder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAILY_METRICS } from '../../src/api/admin/schemas/daily-usage.js';
import { STATUSLINE_TOKENS } from '../../src/render/statusline.js';
import type { AdminEventJson, AdminMemberJson, DailyUsageJson } from '../fake-cursor/admin-types.js';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import type { CliResult, RunOptions } from '../helpers/cli.js';
import { makeToken, type TestToken, writeConfig } from '../helpers/home.js';
import { later, PROMPT_NOW, promptScene, usageDir } from '../helpers/prompt.js';
import { type Scene, type SceneWith, useScene } from '../helpers/scene.js';
import { freePort, httpGet } from '../helpers/serve.js';
import { runTeam } from '../helpers/team-cli.js';
import { configWithAccountEntries } from '../helpers/token-accounts.js';

/** An OSC 8 link, a clear-screen, a colour and its reset, a C1 CSI, DEL, a raw CR, LF and tab. */
const HOSTILE =
  '\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007\u001b[2J\u001b[31m\u009b1m\u007f\u001b[0m\r\nforged\t';
const EMAIL = `a${HOSTILE}@example.com`;

/** Any C0 control but the line's own newline, DEL or C1. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const EVERY_TOKEN = STATUSLINE_TOKENS.map((token) => `{${token}}`).join(' ');

/** What a run wrote, with CSV's CRLF line ends (RFC 4180) counted as the line ends they are. */
function terminalText(name: string, run: CliResult): string {
  const text = `${run.stdout}${run.stderr}`;
  return name.includes('csv') ? text.replaceAll('\r\n', '\n') : text;
}

describe("cursor.com's email and plan, with escape sequences in them", () => {
  const scene = useScene(
    promptScene((a) => {
      const account = proAccount([a.cookieValue], EMAIL);
      (account.usageSummary as { json: Record<string, unknown> }).json.membershipType = `pro${HOSTILE}`;
      return [account];
    }),
  );

  it('statusline: every token, live and from the snapshot, shows them as visible escapes', async () => {
    const live = await scene.run(['statusline', '--template', EVERY_TOKEN]);
    const cached = await scene.run(['statusline', '--template', EVERY_TOKEN], { now: later(30) });
    for (const run of [live, cached]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stderr).not.toMatch(CONTROL);
      expect(run.stdout).toContain('a\\x1b]8;;https://evil.example\\x07x');
      expect(run.stdout).toContain('pro\\x1b]8;;');
    }
  });

  it('usage from the snapshot (--max-age) shows them as visible escapes too', async () => {
    await scene.run(['usage', '--json']);
    const cached = await scene.run(['usage', '--max-age', '1h', '--no-color'], { now: later(30) });
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toContain('From the cache');
    expect(cached.stdout).not.toMatch(CONTROL);
    expect(cached.stdout).toContain('\\x1b]8;;');
  });

  it('login and logout: the email, the plan and the label made of the email, as visible escapes', async () => {
    const login = await scene.run(['login', '--stdin'], {
      stdin: `Cookie: WorkosCursorSessionToken=${scene.given.a.cookieValue}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).not.toMatch(CONTROL);
    expect(login.stdout).toContain('Signed in to Cursor as a\\x1b]8;;https://evil.example');
    expect(login.stdout).toContain('(Cursor pro\\x1b]8;;');

    const logout = await scene.run(['logout', '--all']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).not.toMatch(CONTROL);
    expect(logout.stdout).toContain('Removed token account "a\\x1b]8;;https://evil.example');
  });
});

describe('a usage snapshot whose labels carry escape sequences', () => {
  const scene = useScene(promptScene());

  it('usage --max-age shows every label, title and detail of the file as visible escapes', async () => {
    await scene.run(['usage', '--json']);
    rewriteSnapshots(scene);
    const cached = await scene.run(['usage', '--max-age', '1h'], { now: later(30) });
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).not.toMatch(CONTROL);
    const lines = cached.stdout.split('\n');
    for (const label of ['Total', 'Cursor', 'Third Party', 'Grok Bot', 'Request quota']) {
      expect(lines.some((line) => line.startsWith(`${label}\\x1b]8;;https://evil.example\\x07x`))).toBe(true);
    }
  });
});

/** Every usage snapshot in the cache, with its window labels, extra titles and detail rows made hostile. */
function rewriteSnapshots(scene: Scene): void {
  for (const name of fs.readdirSync(usageDir(scene))) {
    const file = path.join(usageDir(scene), name);
    const content = JSON.parse(fs.readFileSync(file, 'utf8'));
    // The directory also holds the statusline's account records.
    if (content.snapshot === undefined) continue;
    const snapshot = content.snapshot;
    snapshot.labels = {
      primary: `Total${HOSTILE}`,
      secondary: `Cursor${HOSTILE}`,
      tertiary: `Third Party${HOSTILE}`,
    };
    snapshot.extraRateWindows = [
      { id: `grok${HOSTILE}`, title: `Grok Bot${HOSTILE}`, window: { usedPercent: 5 } },
    ];
    snapshot.details = [
      {
        title: `Usage${HOSTILE}`,
        rows: [{ label: `Request quota${HOSTILE}`, value: `1 / 2${HOSTILE}`, secondaryValue: HOSTILE }],
      },
    ];
    fs.writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
  }
}

/**
 * The sweep's world: token accounts whose labels carry the escapes (`work…` answered by cursor.com with a
 * hostile email, plan and model names; a duplicate of its label with an empty token;
 * `broken…` answered with an HTML page quoting them), a second provider in the config named with them, and a
 * status page describing itself with them.
 */
interface World {
  work: TestToken;
}

const WORK = `work${HOSTILE}`;
const BROKEN = `broken${HOSTILE}`;
/** Another provider of the shared config file; `--provider` is trimmed, so this id ends in a letter. */
const OTHER_PROVIDER = `codex${HOSTILE}x`;

function hostileCursor(cookie: string): FakeAccount {
  const account = proAccount([cookie], EMAIL, {
    events: {
      events: [
        // Unpriced (no totalCents), so cost's "no known price" note names it too.
        {
          timestamp: String(PROMPT_NOW.getTime() - 3 * 86_400_000),
          model: `m${HOSTILE}`,
          tokenUsage: { inputTokens: 5 },
        },
        {
          timestamp: String(PROMPT_NOW.getTime() - 3_600_000),
          model: `priced${HOSTILE}`,
          tokenUsage: { inputTokens: 5, totalCents: 3 },
          chargedCents: 3,
        },
      ],
    },
  });
  (account.usageSummary as { json: Record<string, unknown> }).json.membershipType = `pro${HOSTILE}`;
  return account;
}

async function hostileWorld(scene: Scene): Promise<World> {
  const work = await makeToken('user_escapes_work', { email: 'work@example.com' });
  const broken = await makeToken('user_escapes_broken', { email: 'broken@example.com' });
  const entry = (label: string, token: string, index: number) => ({
    id: `00000000-0000-4000-8000-00000000000${index}`,
    label,
    token,
    addedAt: 1_735_123_456 + index,
    lastUsed: null,
  });
  const config = configWithAccountEntries([
    entry(WORK, `WorkosCursorSessionToken=${work.cookieValue}`, 0),
    entry(WORK, ' ', 1),
    entry(BROKEN, `WorkosCursorSessionToken=${broken.cookieValue}`, 2),
  ]) as { providers: unknown[] };
  config.providers.push({ id: OTHER_PROVIDER, enabled: true });
  writeConfig(scene.home, config);
  await scene.serve(
    [
      hostileCursor(work.cookieValue),
      proAccount([broken.cookieValue], EMAIL, { usageSummary: { text: `<html>${HOSTILE}</html>` } }),
    ],
    { statusPage: { json: { status: { indicator: 'minor', description: `Degraded${HOSTILE}` } } } },
  );
  return { work };
}

/** The Admin API's team: one member named with the escapes, their daily usage and one event. */
const DAY = Date.parse('2026-11-29T00:00:00Z');
const MEMBERS: AdminMemberJson[] = [
  {
    userId: 1,
    name: `Dev${HOSTILE}`,
    email: `dev${HOSTILE}@example.com`,
    role: 'member',
    spendCents: 100,
    overallSpendCents: 200,
    fastPremiumRequests: 1,
  },
];
const DAILY: DailyUsageJson[] = [
  {
    date: DAY,
    email: `dev${HOSTILE}@example.com`,
    isActive: true,
    ...Object.fromEntries(DAILY_METRICS.map((metric) => [metric, 1])),
    mostUsedModel: `m${HOSTILE}`,
    clientVersion: `2.1${HOSTILE}`,
  },
];
const EVENTS: AdminEventJson[] = [
  {
    timestamp: String(DAY + 36_000_000),
    userEmail: `dev${HOSTILE}@example.com`,
    model: `m${HOSTILE}`,
    kind: `Usage-based${HOSTILE}`,
    tokenUsage: { inputTokens: 5, totalCents: 3 },
    chargedCents: 3,
  },
];

type Run = (scene: SceneWith<World>) => Promise<CliResult>;

/** `codexbar <args>` in the sweep's world, `--status` pointed at the fake's status page. */
const cli =
  (args: string[], options: (world: World) => Partial<RunOptions> = () => ({})): Run =>
  (scene) =>
    scene.run(args, { ...options(scene.given), env: { CODEXBAR_CURSOR_STATUS_URL: scene.fake!.url } });

/** The same, after a live `usage` left its snapshots and their labels were made hostile. */
const fromSnapshot =
  (args: string[]): Run =>
  async (scene) => {
    await scene.run(['usage', '--all-accounts', '--json']);
    rewriteSnapshots(scene);
    return scene.run(args);
  };

/** `codexbar team <args>` against the fake Admin API's hostile team. */
const team =
  (args: string[]): Run =>
  () =>
    runTeam(args, { now: PROMPT_NOW, fake: { members: MEMBERS, daily: DAILY, events: EVENTS } });

/**
 * `serve --verbose` logging a request for an escape sequence: raw control bytes in a request line never get
 * past Node's parser, so the path carries them percent-encoded, and the log must not decode them.
 */
const serveLog: Run = async (scene) => {
  const stop = new AbortController();
  let asked: Promise<unknown> = Promise.resolve();
  const result = await scene.run(['serve', '--port', String(await freePort()), '--verbose'], {
    serveHooks: {
      stop: stop.signal,
      onListening: (server) => {
        asked = httpGet('127.0.0.1', server.port, '/nowhere%1b%5b2J%c2%9b').finally(() => stop.abort());
      },
    },
  });
  await asked;
  return result;
};

const login = cli(['login', '--stdin', '--label', `new${HOSTILE}`], (world) => ({
  stdin: `Cookie: WorkosCursorSessionToken=${world.work.cookieValue}\n`,
}));

/** The hostile text as it must come out: made visible in text, escaped by the JSON encoder. */
const SHOWN = /\\x1b\]8;;/;
const JSON_SHOWN = /\\u001b\]8;;/;

/** One line per command and format; `null` where the output holds nothing that came from elsewhere. */
const SWEEP: Array<[string, Run, RegExp | null]> = [
  ['usage', cli(['usage']), SHOWN],
  ['usage --verbose --status', cli(['usage', '--verbose', '--status']), SHOWN],
  ['usage --all-accounts', cli(['usage', '--all-accounts']), SHOWN],
  ['usage --json --all-accounts', cli(['usage', '--json', '--all-accounts']), JSON_SHOWN],
  ['usage --account broken (an HTML error body)', cli(['usage', '--account', BROKEN]), SHOWN],
  ['usage --max-age 1h (a hostile snapshot)', fromSnapshot(['usage', '--max-age', '1h']), SHOWN],
  ['cost', cli(['cost']), SHOWN],
  ['cost --verbose --breakdown', cli(['cost', '--verbose', '--breakdown']), SHOWN],
  ['cost --by model --all-accounts', cli(['cost', '--by', 'model', '--all-accounts']), SHOWN],
  ['cost --json', cli(['cost', '--json']), JSON_SHOWN],
  ['cost --format csv', cli(['cost', '--format', 'csv']), SHOWN],
  ['statusline (every token)', cli(['statusline', '--template', EVERY_TOKEN]), SHOWN],
  [
    'statusline --account (every token)',
    cli(['statusline', '--account', WORK, '--template', EVERY_TOKEN]),
    SHOWN,
  ],
  [
    'statusline --all-accounts --strict --verbose',
    cli(['statusline', '--all-accounts', '--strict', '--verbose', '--template', EVERY_TOKEN]),
    SHOWN,
  ],
  ['statusline --json --all-accounts', cli(['statusline', '--json', '--all-accounts']), JSON_SHOWN],
  ['statusline (a hostile snapshot)', fromSnapshot(['statusline', '--template', EVERY_TOKEN]), SHOWN],
  ['guard --verbose', cli(['guard', '--verbose']), SHOWN],
  ['guard --all-accounts --verbose', cli(['guard', '--all-accounts', '--verbose']), SHOWN],
  ['guard --json --all-accounts', cli(['guard', '--json', '--all-accounts']), JSON_SHOWN],
  ['team spend', team(['spend']), SHOWN],
  ['team spend --format csv', team(['spend', '--format', 'csv']), SHOWN],
  ['team usage --verbose', team(['usage', '--days', '3', '--verbose']), SHOWN],
  ['team usage --format csv', team(['usage', '--days', '3', '--format', 'csv']), SHOWN],
  ['team cost', team(['cost', '--days', '3']), SHOWN],
  ['team cost --json', team(['cost', '--days', '3', '--json']), JSON_SHOWN],
  ['team cost --format csv', team(['cost', '--days', '3', '--format', 'csv']), SHOWN],
  ['login --label', login, SHOWN],
  ['logout --all', cli(['logout', '--all']), SHOWN],
  ['config validate', cli(['config', 'validate']), SHOWN],
  ['config dump', cli(['config', 'dump']), JSON_SHOWN],
  ['config providers', cli(['config', 'providers']), SHOWN],
  ['config enable --provider', cli(['config', 'enable', '--provider', OTHER_PROVIDER]), SHOWN],
  ['doctor', cli(['doctor']), SHOWN],
  ['doctor --json', cli(['doctor', '--json']), JSON_SHOWN],
  ['cache clear --all', fromSnapshot(['cache', 'clear', '--all']), null],
  ['completion --list-accounts', cli(['completion', '--list-accounts']), SHOWN],
  ['serve --verbose', serveLog, /\[serve\] GET \/nowhere%1b%5b2J%c2%9b 404/],
];

describe('every command, with escape sequences in everything cursor.com, the Admin API and local files say', () => {
  const scene = useScene({ now: PROMPT_NOW, frozen: true, setup: hostileWorld });

  it.each(SWEEP)(
    '%s: no control character but a line end reaches stdout or stderr',
    async (name, run, shown) => {
      const result = await run(scene);
      const text = terminalText(name, result);
      expect(text).not.toMatch(CONTROL);
      // The hostile text was there to leak: it came out, made visible.
      if (shown) expect(text).toMatch(shown);
    },
  );
});
