#!/usr/bin/env node
// CommonJS (bin/package.json), like the bundles it loads: nothing here starts Node's ES module loader, which
// costs every short run several milliseconds (bench/README.md, Start-up). What a run does first is
// src/boot/launch.ts, shared with the single executable; this file says where the npm install's bundles are.
'use strict';

const { compileCacheDir, launch, requireBundle } = require('../dist/boot.cjs');

// V8's code cache for the bundles in codexbar's cache dir, so later runs skip compiling them
// (bench/README.md, Start-up). NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
let cacheDir = null;
function load(file) {
  if (cacheDir === null) cacheDir = compileCacheDir();
  return requireBundle(require.resolve(file), cacheDir, require);
}

launch(process.argv.slice(2), {
  version: () => {
    const manifest = require('node:path').join(__dirname, '..', 'package.json');
    return JSON.parse(require('node:fs').readFileSync(manifest, 'utf8')).version;
  },
  fastPath: async () => load('../dist/statusline.cjs'),
  cli: async () => load('../dist/cli.cjs'),
});
