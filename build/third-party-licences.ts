/**
 * The licence texts of every package the bundles carry, written beside them as dist/THIRD-PARTY-LICENSES.txt
 * (the MIT, ISC, BSD and Apache licences of undici, commander, chalk, zod, jose and the rest require their
 * notices to travel with the code). Which packages: esbuild's metafile of the build, every input under a
 * node_modules directory. The metafile itself is moved out of dist/ (it is not shipped) to
 * node_modules/.codexbar/, where test/unit/third-party-licences.test.ts checks the file against it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const METAFILE = path.join('node_modules', '.codexbar', 'metafile-cjs.json');
export const NOTICES = path.join('dist', 'THIRD-PARTY-LICENSES.txt');
const LICENCE_FILE = /^(?:licen[cs]e|copying)(?:[.-].*)?$/i;

/** `node_modules/@scope/name/…` or `node_modules/name/…` → the package's directory, innermost first. */
export function bundledPackageDirs(metafile: { inputs: Record<string, unknown> }): string[] {
  const dirs = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const at = input.lastIndexOf('node_modules/');
    if (at === -1) continue;
    const parts = input.slice(at + 'node_modules/'.length).split('/');
    const scope = parts[0] ?? '';
    const name = scope.startsWith('@') ? `${scope}/${parts[1]}` : scope;
    dirs.add(`${input.slice(0, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

/** The package's own name, version, declared licence and licence text (undefined when it ships none). */
export interface PackageLicence {
  name: string;
  version: string;
  license: string;
  text: string | undefined;
}

export function packageLicence(dir: string): PackageLicence {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((name) => LICENCE_FILE.test(name));
  return {
    name: manifest.name,
    version: manifest.version,
    license:
      typeof manifest.license === 'string' ? manifest.license : JSON.stringify(manifest.license ?? null),
    text: file === undefined ? undefined : readFileSync(path.join(dir, file), 'utf8').trim(),
  };
}

export function writeThirdPartyLicences(root = process.cwd()): void {
  const built = path.join(root, 'dist', 'metafile-cjs.json');
  const kept = path.join(root, METAFILE);
  mkdirSync(path.dirname(kept), { recursive: true });
  if (existsSync(built)) renameSync(built, kept);
  const metafile = JSON.parse(readFileSync(kept, 'utf8'));
  const sections = bundledPackageDirs(metafile).map((dir) => {
    const { name, version, license, text } = packageLicence(path.join(root, dir));
    if (text === undefined) {
      throw new Error(`${name}@${version} is bundled but ships no licence file: add its notice by hand`);
    }
    return `${'='.repeat(78)}\n${name}@${version} (${license})\n${'='.repeat(78)}\n\n${text}\n`;
  });
  const header =
    'codexbar bundles the following packages into dist/. Their licences follow, as each package ships it.\n\n';
  writeFileSync(path.join(root, NOTICES), header + sections.join('\n'));
}
