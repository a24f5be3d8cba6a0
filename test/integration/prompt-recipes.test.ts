import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { parseDurationMs } from '../../src/lib/duration.js';
import { STATUSLINE_DEFAULT_MAX_AGE_MS } from '../../src/statusline/output.js';
import type { FakeResponse } from '../fake-cursor/types.js';
import { proAccount } from '../helpers/accounts.js';
import { builtCliExists, outputOf, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { promptScene, usageDir } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/**
 * The README's prompt recipes, each run as its host runs it (bash and zsh expand the prompt, starship feeds
 * the command to `sh` on stdin, tmux and Claude Code hand it to `sh -c`), with the built CLI as `codexbar`
 * on PATH, against a cursor.com that answers 250 ms late. The first prompt has no snapshot: cursor.com's
 * usage answer is held back until the prompt has exited, so a recipe that waited for cursor.com would print
 * `Cursor: timed out` (or hang) instead of the placeholder. Then the answer is let through, the one
 * background refresh saves the snapshot, and the next prompt shows the figures. No assertion on time.
 */

const LATENCY_MS = 250;
const keyA = accountKey({ userId: 'user_prompt_a' });
let release: () => void = () => {};

const scene = useScene(
  promptScene((a) => {
    const account = proAccount([a.cookieValue], 'a@example.com');
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const summary = account.usageSummary as FakeResponse;
    return [
      {
        ...account,
        usageSummary: async () => {
          await held;
          return summary;
        },
      },
    ];
  }),
);

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

/** The code block that follows the README's `**<host>**` paragraph in the prompts section. */
function recipe(host: string): string {
  const section = readme.slice(readme.indexOf('## Prompts and status bars'));
  const start = section.indexOf(`**${host}**`);
  if (start === -1) throw new Error(`README has no **${host}** recipe`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(start));
  if (!block) throw new Error(`README's **${host}** recipe has no code block`);
  return block[1]!;
}

function match(text: string, pattern: RegExp, what: string): string {
  const found = pattern.exec(text);
  if (!found) throw new Error(`${what} not found in:\n${text}`);
  return found[1]!;
}

/** A HOME-local bin directory whose `codexbar` runs the built CLI, as a global install would. */
function installShim(): string {
  const dir = path.join(scene.home, 'bin');
  fs.mkdirSync(dir, { recursive: true });
  const shim = path.join(dir, 'codexbar');
  const bin = path.join(repoRoot, 'bin', 'codexbar.js');
  fs.writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${bin}' "$@"\n`, { mode: 0o755 });
  return dir;
}

interface Host {
  program: string;
  args: string[];
  stdin?: string;
}

/** Runs `host` with the shim's directory first on PATH (installed once, before any host runs). */
function runHost(
  host: Host,
  shimDir: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn(host.program, host.args, {
    cwd: scene.home,
    env: {
      PATH: `${shimDir}:${process.env.PATH ?? ''}`,
      HOME: scene.home,
      TZ: 'UTC',
      LANG: 'C.UTF-8',
      CODEXBAR_CURSOR_BASE_URL: scene.fake!.url,
    },
    stdio: [host.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (host.stdin !== undefined) child.stdin!.end(host.stdin);
  return outputOf(child);
}

/** Polls (bounded) for what the background refresh does; the processes, not a timer, decide when. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 25) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const has = (program: string) => spawnSync(program, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;

/** Each README recipe as its host runs it, and what its first and next prompts must print. */
function hosts(): Array<{ name: string; host: Host; first: RegExp; next: RegExp }> {
  const ps1 = match(recipe('bash'), /^(PS1=.*)$/m, 'PS1');
  const starship = match(recipe('starship'), /^command = "(.*)"$/m, 'command');
  const tmux = match(recipe('tmux'), /status-right '#\((.*)\)'/, 'status-right');
  const claude = (JSON.parse(recipe('Claude Code')) as { statusLine: { command: string } }).statusLine
    .command;
  return [
    {
      name: 'bash',
      host: { program: 'bash', args: ['--norc', '--noprofile', '-c', `${ps1}\nprintf '%s' "\${PS1@P}"`] },
      // HOME is the working directory, so \w is `~`; \$ is `#` for root.
      first: /^Cursor … ~ [$#] $/,
      next: /^Cursor 55% left · \S.* ~ [$#] $/,
    },
    // .ci/run installs zsh (the completion tests load their script in it).
    ...(has('zsh')
      ? [
          {
            name: 'zsh',
            host: { program: 'zsh', args: ['-f', '-c', `${recipe('zsh')}\nprint -rnP -- "$RPROMPT"`] },
            first: /^Cursor …$/,
            next: /^55% left \S/,
          },
        ]
      : []),
    // starship hands a custom module's command to sh on stdin.
    {
      name: 'starship',
      host: { program: 'sh', args: [], stdin: starship },
      first: /^Cursor …\n$/,
      next: /^55% left · \S/,
    },
    // tmux runs #() through sh -c.
    {
      name: 'tmux',
      host: { program: 'sh', args: ['-c', tmux] },
      first: /^Cursor …\n$/,
      next: /^55% left \S.* \$12\.34\/\$50\n$/,
    },
    // Claude Code pipes its session JSON to the command, which ignores it.
    {
      name: 'Claude Code',
      host: {
        program: 'sh',
        args: ['-c', claude],
        stdin: '{"session_id":"s","model":{"display_name":"Opus"}}\n',
      },
      first: /^Cursor …\n$/,
      next: /^Cursor 55% left · \S/,
    },
  ];
}

describe('the README prompt recipes', () => {
  it("starship: --timeout fits under the recipe's command_timeout", () => {
    const toml = recipe('starship');
    const commandTimeoutMs = Number(match(toml, /^command_timeout = (\d+)$/m, 'command_timeout'));
    const command = match(toml, /^command = "(.*)"$/m, 'command');
    expect(command).toContain('--no-wait');
    // --timeout bounds the one foreground fetch left; the CLI's start-up must fit in what remains.
    expect(parseDurationMs(match(command, /--timeout (\S+)/, '--timeout'))).toBeLessThanOrEqual(
      commandTimeoutMs - 500,
    );
  });

  it('tmux: the interval is under --max-age, and the longest line fits status-right-length', () => {
    const conf = recipe('tmux');
    const intervalMs = Number(match(conf, /status-interval (\d+)/, 'status-interval')) * 1000;
    const rightLength = Number(match(conf, /status-right-length (\d+)/, 'status-right-length'));
    const command = match(conf, /status-right '#\((.*)\)'/, 'status-right');
    const maxAge = /--max-age (\S+)/.exec(command)?.[1];
    expect(intervalMs).toBeLessThan(maxAge ? parseDurationMs(maxAge)! : STATUSLINE_DEFAULT_MAX_AGE_MS);
    // The longest the line gets: a stale `~`, 100 % left, a 30d 23h countdown, four-digit spend and limit.
    expect('~100% left 30d 23h $1234.56/$2500'.length).toBeLessThanOrEqual(rightLength);
  });

  it('every recipe, run by its host at 250 ms latency: the placeholder first, then the figures', async () => {
    const recipes = hosts();
    for (const { name, host } of recipes) {
      expect(`${host.args.join(' ')} ${host.stdin ?? ''}`, name).toContain('codexbar statusline --no-wait');
    }
    if (!builtCliExists()) throw new Error('dist/cli.cjs is missing: npm run build');
    seedCompileCache(scene.home);
    // Written once: rewriting a script another host is running would have that sh read a truncated file.
    const shimDir = installShim();
    scene.fake!.setLatency(LATENCY_MS);
    const snapshot = path.join(usageDir(scene), `${keyA}.json`);
    const lock = path.join(usageDir(scene), `${keyA}.lock`);

    // Every first prompt at once, while cursor.com holds its answer: had one waited for it, it would print
    // `Cursor: timed out` after 3 s (or hang) instead of the placeholder.
    const first = await Promise.all(recipes.map((recipe) => runHost(recipe.host, shimDir)));
    expect(fs.existsSync(snapshot)).toBe(false);
    release();
    await eventually(() => fs.existsSync(snapshot) && !fs.existsSync(lock), 'the background refresh');
    const next = await Promise.all(recipes.map((recipe) => runHost(recipe.host, shimDir)));

    recipes.forEach((recipe, index) => {
      expect(first[index], recipe.name).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(recipe.first),
      });
      expect(next[index], recipe.name).toMatchObject({ code: 0, stdout: expect.stringMatching(recipe.next) });
    });
    // One refresh for all of them: the usage answer was asked for once.
    expect(scene.fake!.requests.filter((request) => request.path === '/api/usage-summary')).toHaveLength(1);
    // tmux's line fits its status-right-length.
    const rightLength = Number(match(recipe('tmux'), /status-right-length (\d+)/, 'status-right-length'));
    const tmuxLine = next[recipes.findIndex((recipe) => recipe.name === 'tmux')]!.stdout.trimEnd();
    expect(tmuxLine.length).toBeLessThanOrEqual(rightLength);
  });
});
