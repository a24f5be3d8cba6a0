import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/home.js';
import { useScene } from '../helpers/scene.js';
import { useUnprivileged } from '../helpers/unprivileged.js';

const scene = useScene();
const unprivileged = useUnprivileged();

const cli = (args: string[], env: Record<string, string> = {}) => scene.run(args, { env });
const configFile = () => path.join(scene.home, '.config', 'codexbar', 'config.json');
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Every credential a config can hold, each unmistakable, so outputs can be grepped for them. */
const PLANTED = {
  cookieHeader: 'WorkosCursorSessionToken=planted-cookie-header-0001',
  accountToken: 'WorkosCursorSessionToken=planted-account-token-0002',
  apiKey: 'key_planted-admin-api-key-0003',
  secretKey: 'planted-secret-key-0004',
  otherApiKey: 'sk-planted-codex-key-0005',
  pluginSecret: 'planted-plugin-secret-0006',
};

/** CodexBar's file with other providers, unknown keys and every kind of secret. */
const SHARED_CONFIG = {
  version: 1,
  hooks: null,
  someFutureKey: { nested: [1, 2.5, 'three', null, true] },
  providers: [
    { id: 'codex', enabled: true, apiKey: PLANTED.otherApiKey, accentColor: '#ff8800' },
    {
      id: 'cursor',
      enabled: false,
      cookieSource: 'manual',
      cookieHeader: PLANTED.cookieHeader,
      apiKey: PLANTED.apiKey,
      secretKey: PLANTED.secretKey,
      pluginSecrets: { helper: PLANTED.pluginSecret },
      quotaWarnings: { session: { thresholds: [50, 80], enabled: true } },
      tokenAccounts: {
        version: 1,
        activeIndex: 0,
        accounts: [
          {
            id: '6F1C0000-0000-4000-8000-000000000000',
            label: 'work',
            token: PLANTED.accountToken,
            addedAt: 1735123456.5,
            lastUsed: null,
            externalIdentifier: 'ext-1',
          },
        ],
      },
    },
    { id: 'claude', enabled: false, source: 'oauth' },
  ],
};

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) for (const secret of Object.values(PLANTED)) expect(text).not.toContain(secret);
}

describe('config validate', () => {
  it('no config file: the defaults are fine', async () => {
    expect(await cli(['config'])).toEqual({ code: 0, stdout: 'Config: OK\n', stderr: '' });
    expect(await cli(['config', 'validate', '--json'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  it("reports CodexBar's codes for Cursor in text and JSON; an error makes the exit 1", async () => {
    writeConfig(scene.home, {
      version: 2,
      providers: [
        {
          id: 'cursor',
          source: 'api',
          cookieSource: 'manual',
          cookieHeader: '  ',
          secretKey: 'x',
          region: 'eu',
          workspaceID: 'w',
          enterpriseHost: 'h',
        },
      ],
    });
    const text = await cli(['config', 'validate']);
    expect(text.code).toBe(1);
    expect(text.stdout.split('\n').filter(Boolean)).toEqual([
      '[ERROR] config (version): Unsupported config version 2.',
      '[ERROR] cursor (source): Source api is not supported for cursor.',
      '[ERROR] cursor (source): Source api is not supported for cursor.',
      '[WARNING] cursor (cookieHeader): cookieSource manual is set but cookieHeader is missing for cursor.',
      '[WARNING] cursor (secretKey): secretKey is set but only bedrock and doubao use secretKey.',
      '[WARNING] cursor (region): region is set but cursor does not use regions.',
      '[WARNING] cursor (workspaceID): workspaceID is set but cursor does not use workspaceID.',
      '[WARNING] cursor (enterpriseHost): enterpriseHost is set but cursor does not use enterpriseHost.',
    ]);
    const json = await cli(['config', '--json']);
    expect(json.code).toBe(1);
    const issues = JSON.parse(json.stdout);
    expect(issues.map((issue: { code: string }) => issue.code)).toEqual([
      'version_mismatch',
      'unsupported_source',
      'api_source_unsupported',
      'cookie_header_missing',
      'secret_key_unused',
      'region_unused',
      'workspace_unused',
      'enterprise_host_unused',
    ]);
    expect(issues[0]).toEqual({
      severity: 'error',
      field: 'version',
      code: 'version_mismatch',
      message: 'Unsupported config version 2.',
    });
    expect(issues[3]).toEqual({
      severity: 'warning',
      provider: 'cursor',
      field: 'cookieHeader',
      code: 'cookie_header_missing',
      message: 'cookieSource manual is set but cookieHeader is missing for cursor.',
    });
  });

  it('warnings alone exit 0; token-account oddities are warnings too', async () => {
    writeConfig(scene.home, {
      version: 1,
      providers: [
        {
          id: 'cursor',
          tokenAccounts: {
            version: 1,
            activeIndex: 4,
            accounts: [
              { id: 'a', label: 'Work', token: 'x=1', addedAt: 1 },
              { id: 'b', label: ' work ', token: '  ', addedAt: 2 },
            ],
          },
        },
      ],
    });
    const result = await cli(['config', 'validate', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((issue: { code: string }) => issue.code)).toEqual([
      'active_index_out_of_range',
      'duplicate_account_label',
      'empty_account_token',
    ]);
  });

  it('a file that is not JSON, or has the wrong types, is one error naming the file, never its contents', async () => {
    const file = writeConfig(
      scene.home,
      `{"version": 1, "providers": [{"id": "cursor", "cookieHeader": "${PLANTED.cookieHeader}"`,
    );
    const notJson = await cli(['config', 'validate']);
    expect(notJson.code).toBe(1);
    expect(notJson.stdout).toMatch(
      new RegExp(`^\\[ERROR\\] config: Failed to decode CodexBar config at ${file}: invalid JSON`),
    );
    writeConfig(scene.home, {
      version: '1',
      providers: [{ id: 'cursor', cookieHeader: 42, token: PLANTED.accountToken }],
    });
    const wrongTypes = await cli(['config', 'validate', '--json']);
    expect(wrongTypes.code).toBe(1);
    expect(JSON.parse(wrongTypes.stdout)).toEqual([
      {
        severity: 'error',
        code: 'decode_failed',
        message: `Failed to decode CodexBar config at ${file}: version: expected number, got string; providers.0.cookieHeader: expected string, got number`,
      },
    ]);
    expectNoSecret(notJson.stdout, notJson.stderr, wrongTypes.stdout);
  });
});

describe('config dump', () => {
  it('redacts every credential, keeps everything else; the planted secrets appear nowhere', async () => {
    writeConfig(scene.home, SHARED_CONFIG);
    for (const args of [
      ['config', 'dump'],
      ['config', 'dump', '--pretty'],
      ['config', 'dump', '--format', 'text'],
    ]) {
      const result = await cli(args);
      expect(result.code).toBe(0);
      expectNoSecret(result.stdout, result.stderr);
      const dumped = JSON.parse(result.stdout);
      expect(dumped.someFutureKey).toEqual(SHARED_CONFIG.someFutureKey);
      const cursor = dumped.providers[1];
      expect(cursor.cookieHeader).toBe('[REDACTED]');
      expect(cursor.apiKey).toBe('[REDACTED]');
      expect(cursor.secretKey).toBe('[REDACTED]');
      expect(cursor.pluginSecrets).toEqual({ helper: '[REDACTED]' });
      expect(cursor.tokenAccounts.accounts[0]).toMatchObject({
        label: 'work',
        token: '[REDACTED]',
        externalIdentifier: 'ext-1',
      });
      expect(dumped.providers[0]).toEqual({
        id: 'codex',
        enabled: true,
        apiKey: '[REDACTED]',
        accentColor: '#ff8800',
      });
    }
  });

  it('a cookie, a JWT or an Admin API key under a key it does not know is redacted by its value', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyX3gifQ.c2lnbmF0dXJlLXZhbHVl';
    const adminKey = `key_${'ab'.repeat(32)}`;
    writeConfig(scene.home, {
      version: 1,
      providers: [{ id: 'cursor', myNotes: `saved: WorkosCursorSessionToken=user_x%3A%3A${jwt}` }],
      backup: [jwt, `team ${adminKey} here`],
    });
    const result = await cli(['config', 'dump']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('eyJ');
    expect(result.stdout).not.toContain(adminKey);
    const dumped = JSON.parse(result.stdout);
    expect(dumped.providers[0].myNotes).toBe('saved: WorkosCursorSessionToken=[REDACTED]');
    expect(dumped.backup).toEqual(['[REDACTED]', 'team [REDACTED] here']);
  });

  it("redacts proxy's provider key and keeps its upstream", async () => {
    const key = 'sk-proj-config-dump-secret';
    writeConfig(scene.home, {
      version: 1,
      providers: [{ id: 'cursor' }],
      proxy: { upstream: 'https://api.openai.com/v1', upstreamKey: key },
    });
    const result = await cli(['config', 'dump']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(key);
    expect(JSON.parse(result.stdout).proxy).toEqual({
      upstream: 'https://api.openai.com/v1',
      upstreamKey: '[REDACTED]',
    });
  });

  it('--show-secrets prints them as they are', async () => {
    writeConfig(scene.home, SHARED_CONFIG);
    const result = await cli(['config', 'dump', '--show-secrets']);
    expect(JSON.parse(result.stdout)).toEqual(SHARED_CONFIG);
  });

  it('an object, not an array; a broken file is a config error row', async () => {
    expect(JSON.parse((await cli(['config', 'dump'])).stdout)).toEqual({
      version: 1,
      providers: [{ id: 'cursor' }],
    });
    writeConfig(scene.home, 'nope');
    const broken = await cli(['config', 'dump', '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout)[0]).toMatchObject({ provider: 'cli', error: { kind: 'config' } });
  });
});

describe('config providers, enable, disable', () => {
  it("lists the file's providers and Cursor, with CodexBar's default marker", async () => {
    writeConfig(scene.home, SHARED_CONFIG);
    const text = await cli(['config', 'providers']);
    expect(text.stdout).toBe(
      'codex: enabled default (Codex)\ncursor: disabled (Cursor)\nclaude: disabled (Claude)\n',
    );
    const json = await cli(['config', 'providers', '--json']);
    expect(JSON.parse(json.stdout)[1]).toEqual({
      provider: 'cursor',
      displayName: 'Cursor',
      enabled: false,
      defaultEnabled: false,
    });
    expect((await cli(['config', 'providers'], {})).code).toBe(0);
    fs.rmSync(configFile());
    expect((await cli(['config', 'providers'])).stdout).toBe('cursor: disabled (Cursor)\n');
  });

  it('enable writes only `enabled`: every other key and provider keeps its meaning; 0600, sorted keys', async () => {
    writeConfig(scene.home, SHARED_CONFIG);
    fs.chmodSync(configFile(), 0o644);
    const result = await cli(['config', 'enable', '--provider', 'Cursor']);
    expect(result).toEqual({ code: 0, stdout: 'Config: enabled Cursor\n', stderr: '' });
    const written = fs.readFileSync(configFile(), 'utf8');
    const expected = structuredClone(SHARED_CONFIG);
    expected.providers[1]!.enabled = true;
    expect(JSON.parse(written)).toEqual(expected);
    expect(mode(configFile())).toBe(0o600);
    // CodexBar's writer: pretty, keys sorted, `"key" : value`.
    expect(
      written.startsWith('{\n  "hooks" : null,\n  "providers" : [\n    {\n      "accentColor" : "#ff8800",'),
    ).toBe(true);
    expect(fs.readdirSync(path.dirname(configFile()))).toEqual(['config.json']);

    const json = await cli(['config', 'disable', '--provider', 'cursor', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      provider: 'cursor',
      displayName: 'Cursor',
      enabled: false,
      configPath: configFile(),
    });
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8'))).toEqual(SHARED_CONFIG);
  });

  it('a provider already in the file can be toggled by id; with no file, one is created (dir 0700)', async () => {
    const created = await cli(['config', 'enable', '--provider', 'cursor']);
    expect(created.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8'))).toEqual({
      version: 1,
      providers: [{ id: 'cursor', enabled: true }],
    });
    expect(mode(path.dirname(configFile()))).toBe(0o700);
    writeConfig(scene.home, SHARED_CONFIG);
    await cli(['config', 'disable', '--provider', 'codex']);
    expect(JSON.parse(fs.readFileSync(configFile(), 'utf8')).providers[0].enabled).toBe(false);
  });

  it("an unknown or missing provider: CodexBar's error, exit 1, nothing written", async () => {
    writeConfig(scene.home, SHARED_CONFIG);
    const before = fs.readFileSync(configFile(), 'utf8');
    for (const args of [
      ['config', 'enable'],
      ['config', 'disable', '--provider', 'gemini'],
    ]) {
      const text = await cli(args);
      expect(text).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error: Unknown or missing provider. Use --provider <name>.\n',
      });
      const json = await cli([...args, '--json']);
      expect(JSON.parse(json.stdout)).toEqual([
        {
          provider: 'cli',
          source: 'cli',
          error: { code: 1, message: 'Unknown or missing provider. Use --provider <name>.', kind: 'args' },
        },
      ]);
    }
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('an unknown config subcommand names the config commands', async () => {
    const result = await cli(['config', 'bogus']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Error: unknown command 'config bogus' (config commands: validate, dump, providers, enable, disable)\n",
    );
  });
});

describe('config writes never lose or corrupt anything', () => {
  const broken: Array<[string, string]> = [
    ['not JSON', '{"version": 1, "providers": ['],
    ['wrong types', '{"version": 1, "providers": {"id": "cursor"}}'],
    ['version 2', '{"version": 2, "providers": [{"id": "cursor"}], "newer": true}'],
  ];
  for (const [name, content] of broken) {
    it(`${name}: every writing command refuses, the file stays byte for byte`, async () => {
      const file = writeConfig(scene.home, content);
      for (const args of [
        ['config', 'enable', '--provider', 'cursor'],
        ['logout', '--all'],
      ]) {
        const result = await cli(args);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          /^Error: Refusing to write the config file ~\/\.config\/codexbar\/config\.json: /,
        );
        expect(fs.readFileSync(file, 'utf8')).toBe(content);
      }
      expect((await cli(['config', 'validate'])).code).toBe(1);
    });
  }

  it('a symlinked config is written through to its target, atomically; the link stays a link', async () => {
    const dotfiles = path.join(scene.home, 'dotfiles');
    fs.mkdirSync(dotfiles);
    const target = path.join(dotfiles, 'codexbar.json');
    fs.writeFileSync(target, JSON.stringify(SHARED_CONFIG), { mode: 0o644 });
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.symlinkSync('../../dotfiles/codexbar.json', configFile());

    const result = await cli(['config', 'enable', '--provider', 'cursor']);

    expect(result.code).toBe(0);
    expect(fs.lstatSync(configFile()).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(configFile())).toBe('../../dotfiles/codexbar.json');
    expect(JSON.parse(fs.readFileSync(target, 'utf8')).providers[1].enabled).toBe(true);
    expect(mode(target)).toBe(0o600);
    expect(fs.readdirSync(dotfiles)).toEqual(['codexbar.json']);
  });

  it('a dangling symlink is written through too: its target is created', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.mkdirSync(path.join(scene.home, 'dotfiles'));
    fs.symlinkSync(path.join(scene.home, 'dotfiles', 'new.json'), configFile());
    expect((await cli(['config', 'enable', '--provider', 'cursor'])).code).toBe(0);
    expect(fs.lstatSync(configFile()).isSymbolicLink()).toBe(true);
    expect(
      JSON.parse(fs.readFileSync(path.join(scene.home, 'dotfiles', 'new.json'), 'utf8')).providers,
    ).toEqual([{ id: 'cursor', enabled: true }]);
  });

  it('an unwritable config path: exit 1 naming the path', async () => {
    fs.writeFileSync(path.join(scene.home, 'not-a-dir'), '');
    const result = await cli(['config', 'enable', '--provider', 'cursor', '--json'], {
      CODEXBAR_CONFIG: path.join(scene.home, 'not-a-dir', 'config.json'),
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0]).toEqual({
      provider: 'cli',
      source: 'cli',
      error: {
        code: 1,
        message: 'Cannot write the config file ~/not-a-dir/config.json: a parent is not a directory.',
        kind: 'config',
      },
    });
  });

  // Root writes into a 0500 directory, so the write is the built CLI's, as nobody when the tests run as root.
  it('a directory we may not write to: permission denied, naming the path', async () => {
    const dir = path.join(scene.home, 'locked');
    fs.mkdirSync(dir, { mode: 0o500 });
    unprivileged.handOver(scene.root);
    const result = await unprivileged.runBuilt(['config', 'enable', '--provider', 'cursor'], {
      env: { HOME: scene.home, TZ: 'UTC', CODEXBAR_CONFIG: path.join(dir, 'c.json') },
      cwd: scene.home,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Cannot write the config file ~/locked/c.json: permission denied.');
  });
});
