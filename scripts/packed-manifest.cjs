/**
 * `npm pack` and `npm publish` (prepack / postpack): the packed package.json has no `prepare` script, so
 * codexbar's own build runs only in a git checkout and never as an install script of the published package.
 * npm counts `prepare` of a package installed from a tarball as an install script, which `--strict-allow-scripts`
 * refuses unless codexbar itself is allowed (README.md, "Install"). The original bytes are put back afterwards.
 */
const fs = require('node:fs');
const path = require('node:path');

const manifest = path.join(__dirname, '..', 'package.json');
const saved = `${manifest}.unpacked`;

if (process.argv[2] === 'strip') {
  if (fs.existsSync(saved)) throw new Error(`${saved} exists: a pack was interrupted; restore it first`);
  const text = fs.readFileSync(manifest, 'utf8');
  const parsed = JSON.parse(text);
  delete parsed.scripts.prepare;
  fs.writeFileSync(saved, text);
  fs.writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`);
} else if (process.argv[2] === 'restore') {
  if (fs.existsSync(saved)) fs.renameSync(saved, manifest);
} else {
  throw new Error('usage: node scripts/packed-manifest.cjs strip|restore');
}
