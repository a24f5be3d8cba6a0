import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, writePrivateFileAtomic } from '../../src/cache/private-files.js';
import { useScene } from '../helpers/scene.js';

const scene = useScene();
let root: string;
beforeEach(() => {
  root = scene.home;
});

const mode = (file: string) => fs.lstatSync(file).mode & 0o777;

describe('ensurePrivateDir: owner-only directories, never through a link', () => {
  it('creates missing directories with mode 0700', async () => {
    const dir = path.join(root, 'a', 'codexbar');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('refuses a symlink in place of the directory', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    const dir = path.join(root, 'codexbar');
    fs.symlinkSync(elsewhere, dir);
    expect(() => ensurePrivateDir(dir)).toThrow(/not a directory/);
  });

  it('refuses an existing directory others can read', async () => {
    const dir = path.join(root, 'open');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    expect(() => ensurePrivateDir(dir)).toThrow(/mode is 755, not 700/);
  });
});

describe('writePrivateFileAtomic', () => {
  it('writes mode 0600 and leaves no temporary file', async () => {
    const file = path.join(root, 'snapshot.json');
    writePrivateFileAtomic(file, '{"a":1}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(root)).toEqual(['snapshot.json']);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const victim = path.join(root, 'victim.txt');
    fs.writeFileSync(victim, 'untouched');
    const file = path.join(root, 'snapshot.json');
    fs.symlinkSync(victim, file);
    writePrivateFileAtomic(file, 'new');
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
  });

  it('writers one after another leave the last one whole, and no temp file', () => {
    const file = path.join(root, 'snapshot.json');
    const bodies = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify({ writer: i, fill: 'x'.repeat(50_000) }),
    );
    for (const body of bodies) writePrivateFileAtomic(file, body);
    expect(fs.readFileSync(file, 'utf8')).toBe(bodies.at(-1));
    expect(fs.readdirSync(root)).toEqual(['snapshot.json']);
  });
});
