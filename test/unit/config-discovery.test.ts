import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { findConfigPath } from '../../src/config/config.js';
import { localEnvironment } from '../helpers/local-sources.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
let home: string;

beforeEach(() => {
  home = scene.home;
});

const environment = (env: Record<string, string>) => localEnvironment(home, { env });

function touch(relative: string): string {
  const file = path.join(home, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{"version":1,"providers":[]}');
  return file;
}

const STANDARD = '.config/codexbar/config.json';
const LEGACY = '.codexbar/config.json';

describe('config discovery', () => {
  it('1. CODEXBAR_CONFIG wins, trimmed, even when the file is missing', async () => {
    touch(STANDARD);
    const custom = path.join(home, 'elsewhere', 'custom.json');
    expect(await findConfigPath(environment({ CODEXBAR_CONFIG: `  ${custom}  ` }))).toBe(custom);
  });

  it('1. CODEXBAR_CONFIG expands a leading ~', async () => {
    expect(await findConfigPath(environment({ CODEXBAR_CONFIG: '~/custom.json' }))).toBe(
      path.join(home, 'custom.json'),
    );
  });

  it('1. a blank CODEXBAR_CONFIG is ignored', async () => {
    expect(await findConfigPath(environment({ CODEXBAR_CONFIG: '   ' }))).toBe(path.join(home, STANDARD));
  });

  it('2. an absolute XDG_CONFIG_HOME is used even if its file is missing and the others exist', async () => {
    touch(STANDARD);
    touch(LEGACY);
    const xdg = path.join(home, 'xdg');
    expect(await findConfigPath(environment({ XDG_CONFIG_HOME: xdg }))).toBe(
      path.join(xdg, 'codexbar', 'config.json'),
    );
  });

  it('2. XDG_CONFIG_HOME is trimmed and ~-expanded', async () => {
    expect(await findConfigPath(environment({ XDG_CONFIG_HOME: ' ~/xdg ' }))).toBe(
      path.join(home, 'xdg', 'codexbar', 'config.json'),
    );
  });

  it('2. a relative XDG_CONFIG_HOME is ignored', async () => {
    touch(LEGACY);
    expect(await findConfigPath(environment({ XDG_CONFIG_HOME: 'relative/xdg' }))).toBe(
      path.join(home, LEGACY),
    );
  });

  it('3. ~/.config/codexbar/config.json when it exists, ahead of the legacy file', async () => {
    touch(STANDARD);
    touch(LEGACY);
    expect(await findConfigPath(environment({}))).toBe(path.join(home, STANDARD));
  });

  it('4. the legacy ~/.codexbar/config.json when only it exists', async () => {
    touch(LEGACY);
    expect(await findConfigPath(environment({}))).toBe(path.join(home, LEGACY));
  });

  it('5. otherwise ~/.config/codexbar/config.json (the target for new writes)', async () => {
    expect(await findConfigPath(environment({}))).toBe(path.join(home, STANDARD));
  });
});
