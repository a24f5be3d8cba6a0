/**
 * `npm run build:sea`: codexbar as one executable for this machine's platform, in dist-sea/
 * (docs/single-executable.md). Node 26's `--build-sea`, from the npm registry's `node` package as
 * `test:node` takes it (scripts/lib/node-dist.ts), puts one bundle (tsup.config.ts, `seaBundle`) inside a
 * copy of that Node. Beside it go the licences it carries: codexbar's, the bundled packages' and Node's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { seaBundle } from '../tsup.config.js';
import { installNode, nodeBinary } from './lib/node-dist.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist-sea');
/** The Node line the executable is built on: the current LTS, whose node:sqlite needs no flag. */
const NODE_MAJOR = '26';

function log(message: string): void {
  console.log(`build:sea: ${message}`);
}

async function main(): Promise<void> {
  const notices = path.join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.txt');
  if (!fs.existsSync(notices)) throw new Error('dist/ is missing: run `npm run build` first');
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  process.chdir(ROOT);
  await build(seaBundle(version));

  const nodeDist = installNode(path.join(ROOT, '.test-node'), NODE_MAJOR, log);
  const executable = path.join(OUT, process.platform === 'win32' ? 'codexbar.exe' : 'codexbar');
  const config = {
    main: path.join(OUT, 'codexbar.cjs'),
    output: executable,
    executable: baseBinary(nodeBinary(nodeDist)),
    disableExperimentalSEAWarning: true,
    // V8's code cache of the bundle, made now: the executable compiles nothing it carries at start-up.
    useCodeCache: true,
  };
  const configFile = path.join(OUT, 'sea-config.json');
  fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  execFileSync(nodeBinary(nodeDist), ['--build-sea', configFile], { stdio: 'inherit' });
  for (const scratch of [configFile, config.main, path.join(OUT, 'node')])
    fs.rmSync(scratch, { force: true });

  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(OUT, 'LICENSE'));
  fs.copyFileSync(notices, path.join(OUT, 'THIRD-PARTY-LICENSES.txt'));
  fs.copyFileSync(path.join(nodeDist, 'LICENSE'), path.join(OUT, 'NODE-LICENSE'));
  const { size } = fs.statSync(executable);
  log(
    `${path.relative(ROOT, executable)}: ${(size / 1024 / 1024).toFixed(1)} MiB (Node ${NODE_MAJOR}, ${process.platform}-${process.arch})`,
  );
}

/**
 * The Node binary to build on. On Linux its symbol table (a quarter of the file) is stripped from a copy when
 * `strip` exists: crash reports lose function names, nothing else changes. macOS and Windows binaries are
 * signed, and a release re-signs the result instead (docs/single-executable.md).
 */
function baseBinary(node: string): string {
  if (process.platform !== 'linux') return node;
  const copy = path.join(OUT, 'node');
  if (spawnSync('strip', ['-o', copy, node]).status === 0) return copy;
  log('strip is not available: building on the unstripped Node binary');
  return node;
}

main().catch((error: unknown) => {
  console.error(`build:sea: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
