/**
 * `npm run test:node -- 22`: the CLI integration tests (test/integration) on another Node major
 * (test/README.md). Everything it makes lives in `.test-node/` (git-ignored) and is reused:
 *
 * 1. `node@<major>` from the npm registry, installed into `.test-node/node-<major>/`: the `node` package's
 *    platform package carries the binary and its C headers (`include/node`), so nothing else is fetched.
 * 2. better-sqlite3 built for that Node's ABI into `.test-node/sqlite-<abi>/node_modules/` (a copy of the
 *    installed package without its build, compiled by npm's node-gyp against those headers with
 *    `--nodedir`). The worktree's node_modules is never rebuilt or written to.
 * 3. A fresh mirror `.test-node/run-<major>/`: a copy of the sources, tests, fixtures, benchmarks, the
 *    README and the built CLI, and a node_modules of symlinks to ours except better-sqlite3, which points
 *    at the private build. Modules resolve from where the files are, so tests and the built CLI load the right addon.
 *
 * Then vitest runs under that Node in the mirror (or, given `bench/<name>.ts`, that benchmark). The exit
 * code is theirs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode, nodeBinary } from './lib/node-dist.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORK = path.join(ROOT, '.test-node');
const MIRRORED = [
  'package.json',
  'tsconfig.json',
  'vitest.config.ts',
  'src',
  'test',
  'fixtures',
  'bin',
  'dist',
  'bench',
  // The prompt recipes' test runs the commands the README gives.
  'README.md',
];

function fail(message: string): never {
  console.error(`test:node: ${message}`);
  process.exit(2);
}

function log(message: string): void {
  console.log(`test:node: ${message}`);
}

/** better-sqlite3 compiled for `node`, in a private node_modules; returns that package's directory. */
function buildSqlite(node: string, nodeDist: string): string {
  const abi = execFileSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  const source = path.join(ROOT, 'node_modules', 'better-sqlite3');
  const { version, dependencies = {} } = JSON.parse(
    fs.readFileSync(path.join(source, 'package.json'), 'utf8'),
  );
  const modules = path.join(WORK, `sqlite-${version}-abi${abi}`, 'node_modules');
  const target = path.join(modules, 'better-sqlite3');
  if (fs.existsSync(path.join(target, 'build', 'Release', 'better_sqlite3.node'))) return target;

  log(
    `building better-sqlite3 ${version} for ABI ${abi} (once; a few minutes) in ${path.relative(ROOT, target)}`,
  );
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  for (const entry of fs.readdirSync(source).filter((name) => name !== 'build')) {
    fs.cpSync(path.join(source, entry), path.join(target, entry), { recursive: true });
  }
  for (const dependency of Object.keys(dependencies)) {
    const link = path.join(modules, dependency);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', dependency), link, 'junction');
  }
  const nodeGyp = path.join(
    path.dirname(fs.realpathSync(npmCli())),
    '..',
    'node_modules',
    'node-gyp',
    'bin',
    'node-gyp.js',
  );
  if (!fs.existsSync(nodeGyp)) fail(`npm's node-gyp is not at ${nodeGyp}`);
  // npm_config_nodedir as well as --nodedir: under `npm run`, an npmrc's `nodedir` reaches node-gyp through
  // the environment and would win, compiling against the wrong headers.
  const env = {
    ...process.env,
    npm_config_nodedir: nodeDist,
    PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  const build = spawnSync(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${nodeDist}`, '-j', 'max'], {
    cwd: target,
    stdio: 'inherit',
    env,
  });
  // The addon must load in that Node, or the build is thrown away rather than reused.
  const loads = spawnSync(node, ['-e', `new (require(${JSON.stringify(target)}))(':memory:').close()`], {
    stdio: 'inherit',
  });
  if (build.status !== 0 || loads.status !== 0) {
    fs.rmSync(path.join(target, 'build'), { recursive: true, force: true });
    fail(`building better-sqlite3 for Node ABI ${abi} failed`);
  }
  return target;
}

function npmCli(): string {
  const which = spawnSync(process.platform === 'win32' ? 'where' : 'which', ['npm'], { encoding: 'utf8' });
  const found = which.stdout.split(/\r?\n/)[0]?.trim();
  return found ? found : fail('npm is not on PATH');
}

function makeMirror(major: string, sqlite: string): string {
  const mirror = path.join(WORK, `run-${major}`);
  fs.rmSync(mirror, { recursive: true, force: true });
  fs.mkdirSync(mirror, { recursive: true });
  // Copies, not links: an edit made while the tests run must not reach them half-way.
  for (const entry of MIRRORED)
    fs.cpSync(path.join(ROOT, entry), path.join(mirror, entry), { recursive: true });
  const modules = path.join(mirror, 'node_modules');
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '.bin' || entry.startsWith('.')) continue;
    const target = entry === 'better-sqlite3' ? sqlite : path.join(ROOT, 'node_modules', entry);
    fs.symlinkSync(target, path.join(modules, entry), 'junction');
  }
  return mirror;
}

function runVitest(node: string, mirror: string, targets: string[]): number {
  const vitest = path.join(mirror, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(node, [vitest, 'run', ...targets], {
    cwd: mirror,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  return run.status ?? 1;
}

function main(): number {
  const major = process.argv[2];
  if (!major || !/^\d+$/.test(major))
    fail('usage: npm run test:node -- <node major, e.g. 22> [vitest filters… | bench/<name>.ts [args…]]');
  if (!fs.existsSync(path.join(ROOT, 'dist', 'cli.cjs'))) fail('dist/ is missing: run `npm run build` first');
  const nodeDist = installNode(WORK, major, log);
  const node = nodeBinary(nodeDist);
  const sqlite = buildSqlite(node, nodeDist);
  const mirror = makeMirror(major, sqlite);
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const filters = process.argv.slice(3);
  log(`running test/integration on Node ${version} in ${path.relative(ROOT, mirror)}`);
  // `npm run test:node -- 22 bench/usage.ts --startup`: a benchmark on that Node instead of the tests.
  if (filters[0]?.startsWith('bench/')) {
    const tsx = path.join(mirror, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    return spawnSync(node, [tsx, ...filters], { cwd: mirror, stdio: 'inherit' }).status ?? 1;
  }
  const targets = filters.length > 0 ? filters : ['test/integration'];
  // No rerun on a native abort: src/local/sqlite.ts keeps better-sqlite3 from aborting on Node 24, so an
  // abort here is a crash a user would meet too.
  return runVitest(node, mirror, targets);
}

process.exitCode = main();
