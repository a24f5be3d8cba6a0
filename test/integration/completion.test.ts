import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, outputOf, repoRoot } from '../helpers/cli.js';
import { seedCompileCache } from '../helpers/compile-cache.js';
import { useScene } from '../helpers/scene.js';
import { makeTokenAccounts, writeTokenAccountsConfig } from '../helpers/token-accounts.js';

const binDir = (home: string) => path.join(home, 'bin');

const scene = useScene({
  async setup(scene) {
    // `codexbar` on PATH, as the scripts call it back for the account labels.
    fs.mkdirSync(binDir(scene.home));
    fs.writeFileSync(
      path.join(binDir(scene.home), 'codexbar'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(repoRoot, 'bin', 'codexbar.js')}" "$@"\n`,
      { mode: 0o755 },
    );
    writeTokenAccountsConfig(scene.home, await makeTokenAccounts(['work', 'personal']));
  },
});

const has = (shell: string) =>
  spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;

async function script(shell: string): Promise<string> {
  const result = await scene.run(['completion', shell]);
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  const file = path.join(scene.home, `codexbar.${shell}`);
  fs.writeFileSync(file, result.stdout);
  return file;
}

/** Runs a shell with only the test's HOME and the codexbar shim on PATH. */
function shell(command: string, args: string[]): Promise<CliResult> {
  seedCompileCache(scene.home);
  const child = spawn(command, args, {
    env: { PATH: `${binDir(scene.home)}:${process.env.PATH ?? ''}`, HOME: scene.home, TERM: 'dumb' },
    cwd: scene.home,
  });
  return outputOf(child);
}

/** Each case: the words typed (the last one being completed) and candidates that must (not) be offered. */
const CASES: Array<{ line: string[]; offers: string[]; not?: string[] }> = [
  {
    line: ['codexbar', ''],
    offers: ['usage', 'cost', 'config', 'login', 'logout', 'doctor', 'diagnose', 'completion'],
  },
  { line: ['codexbar', 'diagnose', '--for'], offers: ['--format'] },
  { line: ['codexbar', '--so'], offers: ['--source'] },
  { line: ['codexbar', 'usage', '--source', ''], offers: ['auto', 'web', 'cli', 'oauth', 'api'] },
  { line: ['codexbar', 'cost', '--format', ''], offers: ['text', 'json'], not: ['toon'] },
  { line: ['codexbar', 'cost', '--timezone', 'Europe/Be'], offers: ['Europe/Berlin', 'Europe/Belgrade'] },
  { line: ['codexbar', 'usage', '--account', ''], offers: ['work', 'personal'] },
  { line: ['codexbar', 'statusline', '--acc'], offers: ['--account', '--account-index'] },
  { line: ['codexbar', 'guard', '--all'], offers: ['--all-accounts'] },
  { line: ['codexbar', 'guard', '--account', ''], offers: ['work', 'personal'] },
  { line: ['codexbar', 'config', ''], offers: ['validate', 'dump', 'providers', 'enable', 'disable'] },
  { line: ['codexbar', 'config', 'dump', '--sh'], offers: ['--show-secrets'] },
  { line: ['codexbar', 'cost', '--days', '7', '--br'], offers: ['--breakdown'], not: ['--status'] },
  { line: ['codexbar', 'completion', ''], offers: ['bash', 'zsh', 'fish', 'powershell'] },
];

describe('codexbar completion', () => {
  it('bash: the script parses (bash -n), registers with complete -p, and completes from the real flags', async () => {
    const file = await script('bash');
    expect((await shell('bash', ['-n', file])).code).toBe(0);
    const probes = CASES.map(
      ({ line }) =>
        `COMP_WORDS=(${line.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${line.length - 1}; ` +
        `COMPREPLY=(); _codexbar; printf '%s\\n' "\${COMPREPLY[*]}"`,
    );
    const run = await shell('bash', [
      '-c',
      [`source '${file}'`, 'complete -p codexbar', ...probes].join('\n'),
    ]);
    expect(run.stderr).toBe('');
    const [registration, ...answers] = run.stdout.trimEnd().split('\n');
    expect(registration).toBe('complete -F _codexbar codexbar');
    CASES.forEach(({ offers, not = [] }, index) => {
      const offered = answers[index]!.split(' ');
      for (const candidate of offers) expect(offered).toContain(candidate);
      for (const candidate of not) expect(offered).not.toContain(candidate);
    });
  });

  it.skipIf(!has('zsh'))('zsh: parses, registers with compdef, and offers the same candidates', async () => {
    const file = await script('zsh');
    expect((await shell('zsh', ['-n', file])).code).toBe(0);
    // compadd and _describe only work inside a completion widget: stand-ins print what they were given.
    const probes = CASES.map(
      ({ line }) =>
        `words=(${line.map((word) => `'${word}'`).join(' ')}); CURRENT=${line.length}; ` +
        `print -r -- "$(_codexbar | tr '\\n' ' ')"`,
    );
    const run = await shell('zsh', [
      '-f',
      '-c',
      [
        // zsh's own compinit (and so its compdef), from an fpath of only its directory and without the
        // security audit: scanning and auditing the ~1,750 stock completion files took 1.7 s of CPU.
        'fpath=($' + '{^fpath}/compinit(N:h)) && autoload -U compinit && compinit -C -D',
        `source '${file}'`,
        'print -r -- "$_comps[codexbar]"',
        // zsh code, not template literals: `$` + `{…}` keeps Biome from taking them for either.
        'compadd() { local name=$' + '{@[-1]}; print -l -- "$' + '{(@P)name}" }',
        '_describe() { local name=$' + '{@[-1]}; print -l -- "$' + '{(@P)name%%:*}" }',
        ...probes,
      ].join('\n'),
    ]);
    expect(run.stderr).toBe('');
    const [registration, ...answers] = run.stdout.trimEnd().split('\n');
    expect(registration).toBe('_codexbar');
    CASES.forEach(({ offers }, index) => {
      const offered = answers[index]!.split(' ');
      for (const candidate of offers.filter((c) => !c.startsWith('-'))) expect(offered).toContain(candidate);
    });
  });

  it.skipIf(!has('fish'))('fish: parses, and `complete -C` offers the same candidates', async () => {
    const file = await script('fish');
    expect((await shell('fish', ['--no-execute', file])).code).toBe(0);
    const probes = CASES.map(
      ({ line }) => `complete -C '${line.join(' ')}' | string split -f1 \\t | string join ' '`,
    );
    const run = await shell('fish', ['--no-config', '-c', [`source '${file}'`, ...probes].join('\n')]);
    expect(run.stderr).toBe('');
    const answers = run.stdout.trimEnd().split('\n');
    CASES.forEach(({ offers, not = [] }, index) => {
      const offered = (answers[index] ?? '').split(' ');
      for (const candidate of offers) expect(offered).toContain(candidate);
      for (const candidate of not) expect(offered).not.toContain(candidate);
    });
  });

  it('powershell: registers a native completer over the command tree it embeds (not run: no pwsh here)', async () => {
    const text = fs.readFileSync(await script('powershell'), 'utf8');
    expect(text).toContain("Register-ArgumentCompleter -Native -CommandName 'codexbar' -ScriptBlock {");
    const json = /@'\n(.*)\n'@ \| ConvertFrom-Json/.exec(text)?.[1];
    const tree = JSON.parse(json!);
    // Exactly the commands `--help` lists (commander's own `help` aside).
    const help = (await scene.run(['--help'])).stdout.split('Commands:\n')[1]!.split('\n\n')[0]!;
    const listed = [...help.matchAll(/^ {2}([a-z]+)(?:\|[a-z]+)? /gm)]
      .map((match) => match[1])
      .filter((name) => name !== 'help');
    expect(tree.commands.map((command: { name: string }) => command.name)).toEqual(listed);
    expect(tree.commands.find((command: { name: string }) => command.name === 'doctor').aliases).toEqual([
      'diagnose',
    ]);
    const cost = tree.commands[1];
    expect(
      cost.options.find((option: { names: string[] }) => option.names.includes('--timezone')).value.values,
    ).toContain('Europe/Berlin');
  });

  it('the scripts follow the real command tree: a hidden flag is never offered, every visible one is', async () => {
    const text = fs.readFileSync(await script('bash'), 'utf8');
    expect(text).not.toContain("'--web'");
    expect(text).not.toContain("'--list-accounts'");
    const help = await scene.run(['cost', '--help']);
    for (const flag of help.stdout.match(/--[a-z][\w-]*/g) ?? []) expect(text).toContain(`'${flag}'`);
  });

  it('--list-accounts prints the labels; a missing or broken config prints nothing, exit 0', async () => {
    expect(await scene.run(['completion', '--list-accounts'])).toEqual({
      code: 0,
      stdout: 'work\npersonal\n',
      stderr: '',
    });
    fs.writeFileSync(path.join(scene.home, '.config', 'codexbar', 'config.json'), 'not json');
    expect(await scene.run(['completion', '--list-accounts'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('an unknown or missing shell is an argument error', async () => {
    const unknown = await scene.run(['completion', 'tcsh']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "Error: the shell must be one of bash, zsh, fish, powershell (got 'tcsh').\n",
    );
    const missing = await scene.run(['completion']);
    expect(missing.stderr).toBe('Error: completion needs a shell: bash, zsh, fish, powershell.\n');
  });
});
