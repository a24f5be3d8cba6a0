import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastStatusline } from '../../src/statusline/fast-path.js';
import { repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { waybarOutputSchema } from '../helpers/json-rows/prompt.js';
import { later, promptScene, summaryRequests } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/**
 * `statusline --format waybar|swiftbar|i3blocks` through the command: live, from the snapshot on the fast
 * path (the same bytes as the full CLI), failures, and one real process of the built bin/codexbar.js.
 */

const scene = useScene(promptScene());
const LINE_A = 'Cursor 55% left · 14d 9h · $12.34/$50';
const TOOLTIP_A = [
  'Cursor · Pro · a@example.com',
  'Total: 55% left · resets in 14d 9h · 7% in reserve',
  'Cursor: 70% left · resets in 14d 9h',
  'Third Party: 40% left · resets in 14d 9h',
  'On-demand: $12.34 of $50',
  'Updated 0s ago',
];

async function liveOnce(): Promise<void> {
  expect((await scene.run(['statusline'])).stdout).toBe(`${LINE_A}\n`);
}

/** fastStatusline as bin/codexbar.js calls it, on this test's home and clock. */
async function fast(args: string[], now: Date) {
  let written = '';
  const code = await fastStatusline(['statusline', ...args], {
    stdout: {
      write: (text: string) => {
        written += text;
      },
      isTTY: false,
    },
    env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CURSOR_BASE_URL: scene.fake!.url },
    platform: 'linux',
    homeDir: scene.home,
    now: () => now,
    spawnRefresh: () => process.pid,
  });
  return { code, stdout: written };
}

describe('each format, from cursor.com and then from the snapshot', () => {
  it('waybar: one JSON object', async () => {
    const result = await scene.run(['statusline', '--format', 'waybar']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd()).not.toContain('\n');
    // The percentage is the most-constrained window's (Third Party), not the line's primary one.
    expect(waybarOutputSchema.parse(JSON.parse(result.stdout))).toEqual({
      text: LINE_A,
      alt: 'ok',
      tooltip: TOOLTIP_A.join('\n'),
      class: 'ok',
      percentage: 40,
    });
  });

  it.each([
    ['waybar', 30],
    ['waybar', 90],
    ['swiftbar', 30],
    ['swiftbar', 90],
    ['i3blocks', 30],
    ['i3blocks', 90],
  ])(
    '%s at %i s: the fast path answers, with the same bytes as the full command',
    async (format, seconds) => {
      await liveOnce();
      const quick = await fast(['--format', format], later(seconds));
      const full = await scene.run(['statusline', `--format=${format}`], { now: later(seconds) });

      expect(quick.code).toBe(0);
      expect(quick.stdout).toBe(full.stdout);
      expect(
        quick.stdout.startsWith(format === 'waybar' ? '{"text":"' : seconds > 60 ? '~Cursor' : 'Cursor'),
      ).toBe(true);
      expect(summaryRequests(scene)).toBe(1);
    },
  );

  it('swiftbar and i3blocks, pinned', async () => {
    await liveOnce();
    const swiftbar = (await fast(['--format', 'swiftbar'], later(90))).stdout;
    const i3blocks = (await fast(['--format', 'i3blocks', '--template', '{left} {ondemand}'], later(30)))
      .stdout;

    const menu = [...TOOLTIP_A.slice(0, -1), 'Updated 1m ago (stale)'];
    expect(swiftbar).toBe(
      [
        `~${LINE_A} | emojize=false symbolize=false`,
        '---',
        ...menu.map((line) => `${line} | emojize=false symbolize=false`),
        '---',
        'Refresh | refresh=true',
        '',
      ].join('\n'),
    );
    expect(i3blocks).toBe('55% left $12.34/$50\n55%\n');
  });

  it('--format json is --json; line is the default', async () => {
    await liveOnce();
    const json = await scene.run(['statusline', '--format', 'json'], { now: later(5) });
    const line = await scene.run(['statusline', '--format', 'LINE', '--color'], { now: later(5) });
    expect(JSON.parse(json.stdout)).toMatchObject({ text: LINE_A, leftPercent: 55 });
    expect(line.stdout).toBe(`\u001b[32m${LINE_A}\u001b[39m\n`);
    expect((await fast(['--format', 'json'], later(5))).stdout).toBe(json.stdout);
  });

  it('never coloured, even with --color on a terminal', async () => {
    await liveOnce();
    const result = await scene.run(['statusline', '--format', 'i3blocks', '--color'], {
      now: later(5),
      stdoutTTY: { columns: 80 },
    });
    expect(result.stdout).toBe(`${LINE_A}\n55%\n`);
  });
});

describe('failures', () => {
  it('no session: the marker in each format, exit 0; --strict exits 1 and says why on stderr', async () => {
    fs.rmSync(path.join(scene.home, '.config'), { recursive: true });

    const waybar = await scene.run(['statusline', '--format', 'waybar']);
    const i3blocks = await scene.run(['statusline', '--format', 'i3blocks', '--strict']);

    expect(waybar.code).toBe(0);
    expect(waybarOutputSchema.parse(JSON.parse(waybar.stdout))).toEqual({
      text: 'Cursor: not logged in',
      alt: 'error',
      tooltip: 'Cursor: not logged in',
      class: 'error',
    });
    expect(i3blocks.code).toBe(1);
    expect(i3blocks.stdout).toBe('Cursor: not logged in\nCursor: not logged in\n#8E8E93\n');
    expect(i3blocks.stderr).toMatch(/^Error: No Cursor session found\./);
  });

  it('an unknown format, or --json with another format, is an argument error; the fast path hands both over', async () => {
    await liveOnce();
    const unknown = await scene.run(['statusline', '--format', 'polybar'], { now: later(5) });
    const both = await scene.run(['statusline', '--json', '--format', 'waybar'], { now: later(5) });

    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: "Error: --format must be one of line, json, waybar, swiftbar, i3blocks (got 'polybar').\n",
    });
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout)).toEqual([
      {
        provider: 'cli',
        source: 'cli',
        error: { code: 1, message: '--json and --format waybar cannot be used together.', kind: 'args' },
      },
    ]);
    expect((await fast(['--format', 'polybar'], later(5))).code).toBeUndefined();
    expect((await fast(['--json', '--format', 'waybar'], later(5))).code).toBeUndefined();
  });
});

describe('the built bin/codexbar.js', () => {
  it('serves --format waybar from the snapshot on the fast path: bare node’s modules, no HTTP client', async () => {
    await scene.run(['statusline'], { now: new Date(), frozen: false });
    seedCompileCache(scene.home);
    const recorder = path.join(scene.home, 'record-modules.cjs');
    const modulesFile = path.join(scene.home, 'modules.txt');
    fs.writeFileSync(
      recorder,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_FILE, process.moduleLoadList.join('\\n')));\n",
    );
    const child = spawn(
      process.execPath,
      ['-r', recorder, path.join(repoRoot, 'bin', 'codexbar.js'), 'statusline', '--format', 'waybar'],
      {
        cwd: scene.home,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: scene.home,
          TZ: 'UTC',
          MODULES_FILE: modulesFile,
          CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(0);
    // The real clock: the countdown is whatever is left of the fake's cycle.
    expect(JSON.parse(stdout)).toMatchObject({
      text: expect.stringMatching(/^Cursor 55% left · /),
      class: 'ok',
      percentage: 40,
    });
    const modules = fs.readFileSync(modulesFile, 'utf8').split('\n');
    // The full CLI loads the HTTP client (and with it node:net) even when it answers from the snapshot.
    expect(modules.filter((line) => /^NativeModule (net|http|zlib)$/.test(line))).toEqual([]);
    expect(summaryRequests(scene)).toBe(1);
  });
});
