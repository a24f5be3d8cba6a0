import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type BrowserImportInputs, resolveBrowserImport } from '../../src/auth/credentials.js';
import { sharedOptions } from '../../src/cli/options.js';
import { type CursorConfig, type LoadedConfig, loadConfig } from '../../src/config/config.js';
import type { LocalEnvironment } from '../../src/local/environment.js';
import { useScene } from '../helpers/scene.js';

const loaded = (cursor: CursorConfig): LoadedConfig => ({ path: '/x/config.json', exists: true, cursor });

describe('browser import settings: flags beat the config', () => {
  it.each<[string, CursorConfig, Omit<BrowserImportInputs, 'config'>, object]>([
    ['nothing set: every browser, no Keychain prompt', {}, {}, { allowKeychainPrompt: false }],
    ['config browser', { browser: 'brave' }, {}, { browser: 'brave', allowKeychainPrompt: false }],
    [
      '--browser beats config browser',
      { browser: 'brave' },
      { browserFlag: 'firefox' },
      { browser: 'firefox', allowKeychainPrompt: false },
    ],
    ['config consent', { allowKeychainPrompt: true }, {}, { allowKeychainPrompt: true }],
    [
      'the flag gives consent too',
      { allowKeychainPrompt: false },
      { allowKeychainPromptFlag: true },
      { allowKeychainPrompt: true },
    ],
  ])('%s', (_rule, cursor, flags, expected) => {
    expect(resolveBrowserImport({ config: loaded(cursor), ...flags })).toEqual(expected);
  });

  it('the shared options carry --browser and --allow-keychain-prompt', () => {
    const options = sharedOptions({
      provider: 'cursor',
      color: true,
      browser: 'edge',
      allowKeychainPrompt: true,
    });
    expect(options.browserFlag).toBe('edge');
    expect(options.allowKeychainPrompt).toBe(true);
    expect(sharedOptions({ provider: 'cursor', color: true }).allowKeychainPrompt).toBe(false);
  });
});

describe('config file: `browser` and `allowKeychainPrompt` in the cursor entry', () => {
  const scene = useScene();
  let dir: string;
  beforeEach(() => {
    dir = scene.home;
  });

  const environment = (): LocalEnvironment => ({
    platform: 'linux',
    env: { CODEXBAR_CONFIG: path.join(dir, 'config.json') },
    homeDir: dir,
    now: () => new Date(),
  });
  const write = (cursor: Record<string, unknown>) =>
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ version: 1, providers: [{ id: 'cursor', ...cursor }] }),
    );

  it('are read', async () => {
    write({ browser: 'vivaldi', allowKeychainPrompt: true });
    expect((await loadConfig(environment())).cursor).toEqual({
      browser: 'vivaldi',
      allowKeychainPrompt: true,
    });
  });

  it('an unknown browser is a config error listing the accepted names', async () => {
    write({ browser: 'netscape' });
    await expect(loadConfig(environment())).rejects.toThrow(
      /providers\.0\.browser: expected one of firefox\|chrome\|chromium\|brave\|edge\|vivaldi\|arc/,
    );
  });
});
