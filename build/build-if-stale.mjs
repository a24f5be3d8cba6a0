// `npm install` (the prepare script) and `npm test`: run tsup unless dist/ is what it would build. A fresh
// clone's `npm install` builds, so its first `npm test` built the same bytes again, ~1.5 s of every run
// (bench/README.md, "npm test"). `npm run build` always builds.
//
// The stamp records a digest of what the build reads (src/, build/, the tsup and TypeScript configs, the
// manifest and the lockfile, which pins the bundled packages) and one of what it wrote. Both must match:
// a changed source, an `npm install` that moved a version, or a touched or deleted file in dist/ rebuilds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = ['src', 'build', 'tsup.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const stampFile = path.join(root, 'node_modules', '.cache', 'codexbar', 'build-stamp.json');

/** Every regular file under `entries`, in a stable order. */
function filesOf(entries) {
  const found = [];
  const walk = (relative) => {
    const stat = fs.lstatSync(path.join(root, relative), { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      for (const name of fs.readdirSync(path.join(root, relative)).sort()) walk(path.join(relative, name));
    } else if (stat?.isFile()) found.push(relative);
  };
  for (const entry of entries) walk(entry);
  return found;
}

/** Names and contents of the files: a renamed, added or removed file changes it too. */
function digest(entries) {
  const hash = createHash('sha256');
  for (const file of filesOf(entries)) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

const inputs = digest(INPUTS);
const stamp = readStamp();
if (stamp?.inputs === inputs && stamp.outputs === digest(['dist'])) {
  console.log('dist/ is up to date with src/: build skipped');
} else {
  fs.rmSync(stampFile, { force: true });
  const tsup = path.join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const build = spawnSync(process.execPath, [tsup], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  // The inputs as read before the build: a file edited while it ran leaves a stamp that no longer matches.
  fs.writeFileSync(stampFile, `${JSON.stringify({ inputs, outputs: digest(['dist']) })}\n`);
}
