/**
 * The package's licences (docs/architecture.md, "Folders": build/): codexbar's own LICENSE, and in
 * dist/THIRD-PARTY-LICENSES.txt the licence text of every package the build bundled, as esbuild's metafile of
 * that build lists them (`npm test` builds before it runs this).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledPackageDirs, METAFILE, NOTICES, packageLicence } from '../../build/third-party-licences.js';
import { repoRoot } from '../helpers/cli.js';

const notices = () => fs.readFileSync(path.join(repoRoot, NOTICES), 'utf8');
const metafile = () => JSON.parse(fs.readFileSync(path.join(repoRoot, METAFILE), 'utf8'));

describe('licences', () => {
  it("codexbar's own LICENSE is the MIT licence package.json names", () => {
    const license = fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8');
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(license).toMatch(/^MIT License\n/);
    expect(license).toContain('Permission is hereby granted, free of charge');
  });

  it('every package the bundles carry has its name, version and licence text in THIRD-PARTY-LICENSES.txt', () => {
    const dirs = bundledPackageDirs(metafile());
    // The bundle's big libraries are among them: the list comes from the build, not from a hand-kept table.
    const names = dirs.map((dir) => packageLicence(path.join(repoRoot, dir)).name);
    expect(names).toEqual(
      expect.arrayContaining(['undici', 'commander', 'zod', 'jose', 'eventsource-parser']),
    );
    expect(names).not.toContain('better-sqlite3');
    const text = notices();
    for (const dir of dirs) {
      const { name, version, text: licence } = packageLicence(path.join(repoRoot, dir));
      expect(licence, `${name} ships a licence file`).toBeTruthy();
      const heading = text.indexOf(`\n${name}@${version} (`);
      expect(heading, `${name}@${version} is in ${NOTICES}`).toBeGreaterThan(-1);
      expect(text.slice(heading, heading + licence!.length + 400)).toContain(licence!.slice(0, 200));
    }
  });

  it('finds the package of a scoped, a plain and a nested input, and nothing for our own sources', () => {
    expect(
      bundledPackageDirs({
        inputs: {
          'src/cli.ts': {},
          'node_modules/undici/lib/core/util.js': {},
          'node_modules/@modelcontextprotocol/sdk/dist/cjs/server/index.js': {},
          'node_modules/a/node_modules/b/index.js': {},
        },
      }),
    ).toEqual([
      'node_modules/@modelcontextprotocol/sdk',
      'node_modules/a/node_modules/b',
      'node_modules/undici',
    ]);
  });
});
