/**
 * The cost table in a real terminal: the BUILT CLI runs inside tmux panes 80 and 120
 * columns wide, and the captured screens are pinned. This is where "readable at 80 columns" is checked as a
 * user sees it: the width comes from the terminal itself (no COLUMNS), colours and the chart are on, the
 * progress line has been drawn and erased on the same screen.
 *
 * Needs tmux. Without it the test is skipped and says so; .ci/run installs tmux where apt-get can and runs
 * this file again with CODEXBAR_REQUIRE_TMUX=1, which turns a missing tmux into a failure.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageEventJson } from '../fake-cursor/events.js';
import { builtCliExists, fixedNowPreload, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { MANUAL_COOKIE, MANUAL_COOKIE_VALUE } from '../helpers/cost-cli.js';
import { type OpenScene, openScene } from '../helpers/scene.js';

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
if (!hasTmux && process.env.CODEXBAR_REQUIRE_TMUX === '1') {
  throw new Error('tmux is required here (CODEXBAR_REQUIRE_TMUX=1) but was not found');
}
const title = hasTmux
  ? 'cost layouts in a real terminal (tmux)'
  : 'cost layouts in a real terminal — SKIPPED: tmux is not installed (apt-get install tmux; .ci/run does)';

const NOW = '2026-11-30T12:00:00Z';
const HOUR = 3_600_000;

/** A light week: three models a day, gpt-5 the most expensive, so 120 columns fit every column. */
function lightWeek(): UsageEventJson[] {
  const events: UsageEventJson[] = [];
  const models: [string, number, number][] = [
    ['gpt-5', 60, 4000],
    ['claude-4.5-sonnet-thinking', 35, 2500],
    ['default', 12, 1800],
  ];
  for (let day = 0; day < 5; day++) {
    const noon = Date.parse('2026-11-26T12:00:00Z') + day * 24 * HOUR;
    models.forEach(([model, cents, input], i) => {
      for (let n = 0; n <= day % 3; n++) {
        events.push({
          timestamp: String(noon - (i * 3 + n) * HOUR + (day === 4 ? -4 * HOUR : 0)),
          model,
          kind: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
          tokenUsage: {
            inputTokens: input + day * 100,
            outputTokens: 700 + n * 10,
            cacheReadTokens: 20_000 * (i + 1),
            totalCents: cents + day,
          },
          chargedCents: cents + day,
        });
      }
    });
  }
  return events.sort((a, b) => Number(b.timestamp) - Number(a.timestamp));
}

let scene: OpenScene;
const socket = `codexbar-test-${process.pid}`;

beforeAll(async () => {
  scene = openScene();
  await scene.serve([{ cookies: [MANUAL_COOKIE_VALUE], events: { events: lightWeek() } }]);
});

afterAll(async () => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  await scene?.close();
});

/** Async on purpose: the fake cursor.com answers the CLI from this very process. */
const tmux = async (args: string[], timeout = 20_000) =>
  (await promisify(execFile)('tmux', ['-L', socket, ...args], { encoding: 'utf8', timeout })).stdout;

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Runs `codexbar cost <args>` in a detached tmux pane `width` columns wide; returns the screen as text. */
async function screen(width: number, args: string[]): Promise<string> {
  const bin = path.join(repoRoot, 'bin', 'codexbar.js');
  if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: npm run build');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    TZ: 'UTC',
    TERM: 'xterm-256color',
    FAKE_NOW: NOW,
    FAKE_NOW_FROZEN: '1',
    CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
    CODEXBAR_CURSOR_COOKIE: MANUAL_COOKIE,
  };
  seedCompileCache(scene.home);
  const channel = `done-${width}-${args.join('')}`.replace(/[^\w-]/g, '');
  // The cookie travels in the environment, never in argv.
  const command = [
    'env -i',
    ...Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`),
    quote(process.execPath),
    '--require',
    quote(fixedNowPreload),
    quote(bin),
    'cost',
    ...args.map(quote),
    `; tmux -L ${socket} wait-for -S ${channel}; sleep 60`,
  ].join(' ');
  const session = `cost-${width}-${channel}`;
  await tmux([
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(width),
    '-y',
    '50',
    command,
  ]);
  await tmux(['wait-for', channel]);
  const text = await tmux(['capture-pane', '-p', '-t', session, '-S', '-', '-E', '-']);
  await tmux(['kill-session', '-t', session]);
  return text.replace(/\s+$/, '');
}

describe.skipIf(!hasTmux)(title, () => {
  // The figures by hand: 11-26 is one event per model (gpt-5 4,000 in / 700 out / 20,000 cache read, 60¢;
  // sonnet 2,500 / 700 / 40,000, 35¢; Auto 1,800 / 700 / 60,000, 12¢): 130,400 tokens, $1.07.
  it('80 columns: the compact columns, one line per day, short labels whole', async () => {
    expect(await screen(80, ['--days', '7'])).toBe(`Cursor Cost (API-rate estimate)
Today: $2.38 · 263K tokens
Last 7 days: $10.20 · 1.2M tokens
Cursor-metered: $10.20 (last 7 days)
From Cursor's usage dashboard at vendor token rates; may differ from your
invoice.

┌────────────┬───────────────┬────────┬────────────┬───────────┐
│ Date       │ Models        │ Tokens │ API-rate $ │ Metered $ │
├────────────┼───────────────┼────────┼────────────┼───────────┤
│ 2026-11-26 │ gpt-5 +2 more │   130K │      $1.07 │     $1.07 │
│ 2026-11-27 │ gpt-5 +2 more │   261K │      $2.20 │     $2.20 │
│ 2026-11-28 │ gpt-5 +2 more │   393K │      $3.39 │     $3.39 │
│ 2026-11-29 │ gpt-5 +2 more │   131K │      $1.16 │     $1.16 │
│ 2026-11-30 │ gpt-5 +2 more │   263K │      $2.38 │     $2.38 │
├────────────┼───────────────┼────────┼────────────┼───────────┤
│ Total      │               │   1.2M │     $10.20 │    $10.20 │
└────────────┴───────────────┴────────┴────────────┴───────────┘
Compact view: widen the terminal for the input, output and cache columns.

By kind:
  Included: $10.20 · 1.2M tokens · 27 requests · $10.20 metered
Requests: 27 reported

Daily API-rate spend
2026-11-26  ████████████▋                             $1.07
2026-11-27  ██████████████████████████                $2.20
2026-11-28  ████████████████████████████████████████  $3.39
2026-11-29  █████████████▋                            $1.16
2026-11-30  ████████████████████████████▏             $2.38`);
  });

  it('80 columns with --breakdown: one line per model under each day', async () => {
    expect(await screen(80, ['--days', '7', '--breakdown'])).toBe(`Cursor Cost (API-rate estimate)
Today: $2.38 · 263K tokens
Last 7 days: $10.20 · 1.2M tokens
Cursor-metered: $10.20 (last 7 days)
From Cursor's usage dashboard at vendor token rates; may differ from your
invoice.

┌────────────┬────────────────────────┬────────┬────────────┬───────────┐
│ Date       │ Models                 │ Tokens │ API-rate $ │ Metered $ │
├────────────┼────────────────────────┼────────┼────────────┼───────────┤
│ 2026-11-26 │ gpt-5 +2 more          │   130K │      $1.07 │     $1.07 │
│            │ └─ gpt-5               │    25K │      $0.60 │     $0.60 │
│            │ └─ sonnet-4.5 thinking │    43K │      $0.35 │     $0.35 │
│            │ └─ auto                │    62K │      $0.12 │     $0.12 │
│ 2026-11-27 │ gpt-5 +2 more          │   261K │      $2.20 │     $2.20 │
│            │ └─ gpt-5               │    50K │      $1.22 │     $1.22 │
│            │ └─ sonnet-4.5 thinking │    87K │      $0.72 │     $0.72 │
│            │ └─ auto                │   125K │      $0.26 │     $0.26 │
│ 2026-11-28 │ gpt-5 +2 more          │   393K │      $3.39 │     $3.39 │
│            │ └─ gpt-5               │    75K │      $1.86 │     $1.86 │
│            │ └─ sonnet-4.5 thinking │   130K │      $1.11 │     $1.11 │
│            │ └─ auto                │   188K │      $0.42 │     $0.42 │
│ 2026-11-29 │ gpt-5 +2 more          │   131K │      $1.16 │     $1.16 │
│            │ └─ gpt-5               │    25K │      $0.63 │     $0.63 │
│            │ └─ sonnet-4.5 thinking │    44K │      $0.38 │     $0.38 │
│            │ └─ auto                │    63K │      $0.15 │     $0.15 │
│ 2026-11-30 │ gpt-5 +2 more          │   263K │      $2.38 │     $2.38 │
│            │ └─ gpt-5               │    50K │      $1.28 │     $1.28 │
│            │ └─ sonnet-4.5 thinking │    87K │      $0.78 │     $0.78 │
│            │ └─ auto                │   126K │      $0.32 │     $0.32 │
├────────────┼────────────────────────┼────────┼────────────┼───────────┤
│ Total      │                        │   1.2M │     $10.20 │    $10.20 │
└────────────┴────────────────────────┴────────┴────────────┴───────────┘
Compact view: widen the terminal for the input, output and cache columns.

By kind:
  Included: $10.20 · 1.2M tokens · 27 requests · $10.20 metered
Requests: 27 reported

Daily API-rate spend
2026-11-26  ████████████▋                             $1.07
2026-11-27  ██████████████████████████                $2.20
2026-11-28  ████████████████████████████████████████  $3.39
2026-11-29  █████████████▋                            $1.16
2026-11-30  ████████████████████████████▏             $2.38`);
  });

  it('120 columns: every column fits, still one line per day', async () => {
    expect(await screen(120, ['--days', '7'])).toBe(`Cursor Cost (API-rate estimate)
Today: $2.38 · 263K tokens
Last 7 days: $10.20 · 1.2M tokens
Cursor-metered: $10.20 (last 7 days)
From Cursor's usage dashboard at vendor token rates; may differ from your invoice.

┌────────────┬───────────────┬────────┬────────┬─────────────┬────────────┬──────────────┬────────────┬───────────┐
│ Date       │ Models        │  Input │ Output │ Cache write │ Cache read │ Total tokens │ API-rate $ │ Metered $ │
├────────────┼───────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ 2026-11-26 │ gpt-5 +2 more │  8,300 │  2,100 │           0 │    120,000 │      130,400 │      $1.07 │     $1.07 │
│ 2026-11-27 │ gpt-5 +2 more │ 17,200 │  4,230 │           0 │    240,000 │      261,430 │      $2.20 │     $2.20 │
│ 2026-11-28 │ gpt-5 +2 more │ 26,700 │  6,390 │           0 │    360,000 │      393,090 │      $3.39 │     $3.39 │
│ 2026-11-29 │ gpt-5 +2 more │  9,200 │  2,100 │           0 │    120,000 │      131,300 │      $1.16 │     $1.16 │
│ 2026-11-30 │ gpt-5 +2 more │ 19,000 │  4,230 │           0 │    240,000 │      263,230 │      $2.38 │     $2.38 │
├────────────┼───────────────┼────────┼────────┼─────────────┼────────────┼──────────────┼────────────┼───────────┤
│ Total      │               │ 80,400 │ 19,050 │           0 │  1,080,000 │    1,179,450 │     $10.20 │    $10.20 │
└────────────┴───────────────┴────────┴────────┴─────────────┴────────────┴──────────────┴────────────┴───────────┘

By kind:
  Included: $10.20 · 1.2M tokens · 27 requests · $10.20 metered
Requests: 27 reported

Daily API-rate spend
2026-11-26  ████████████▋                             $1.07
2026-11-27  ██████████████████████████                $2.20
2026-11-28  ████████████████████████████████████████  $3.39
2026-11-29  █████████████▋                            $1.16
2026-11-30  ████████████████████████████▏             $2.38`);
  });
});
