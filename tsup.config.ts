import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { writeThirdPartyLicences } from './build/third-party-licences.js';

const zodLocalesStub = path.resolve('build/zod-locales-stub.js');
const zodFromJsonSchemaStub = path.resolve('build/zod-from-json-schema-stub.js');
const http2Stub = path.resolve('build/http2-unavailable.cjs');
const commanderChildProcess = path.resolve('build/commander-child-process.cjs');
const chalkNoDetection = path.resolve('build/chalk-no-detection.js');

/**
 * One CommonJS build into dist/ (bench/README.md, Start-up): the CLI (`cli.cjs`), the statusline fast
 * path bin/codexbar.js tries first (`statusline.cjs`), and the few lines that turn on Node's compile cache and
 * start the run (`boot.cjs`). CommonJS because bin/codexbar.js (CommonJS too, see bin/package.json) then loads
 * them without starting Node's ES module loader: measured, that saves a prompt about as much as everything
 * the fast path does, and `usage` about 20 ms. Each output is self-contained: they share no file.
 */
const common: Options = {
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  sourcemap: false,
  // Start-up time is mostly compiling what is loaded, so keep it small.
  minify: true,
  // Keep `node:` on built-in imports (tsup strips it by default, marking them external before any plugin
  // below could see them).
  removeNodeProtocol: false,
  // Everything pure-JS is bundled for a fast start; the native addon stays external and is imported
  // lazily, only when a browser's cookie database has to be read.
  noExternal: [/^(?!better-sqlite3$).*/],
  external: ['better-sqlite3'],
  // The addon's `import('better-sqlite3')` becomes a deferred `require`: the bundle is plain CommonJS, which
  // V8's code cache on Node 20 compiles through node:vm without an ES module loader (src/boot/compile-cache.ts).
  esbuildOptions(options) {
    options.supported = { ...options.supported, 'dynamic-import': false };
  },
  esbuildPlugins: [
    {
      // undici loads node:http2 (and with it tls and crypto) at start-up, for HTTP/2 we never use (its
      // `allowH2` stays off); when that require fails it falls back by itself. Nothing else here imports
      // http2 (bench/README.md, Start-up).
      name: 'no-http2-in-undici',
      setup(build) {
        build.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
          args.importer.includes(`${path.sep}undici${path.sep}`) ? { path: http2Stub } : undefined,
        );
      },
    },
    {
      // commander requires node:child_process at load for executable subcommands, which codexbar has none
      // of: a stub that loads it on first use (bench/README.md, Start-up).
      name: 'lazy-child-process-in-commander',
      setup(build) {
        build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
          args.importer.includes(`${path.sep}commander${path.sep}`)
            ? { path: commanderChildProcess }
            : undefined,
        );
      },
    },
    {
      // codexbar decides when to colour and passes chalk the level: chalk's own detection only costs start-up
      // time.
      name: 'no-colour-detection-in-chalk',
      setup(build) {
        build.onResolve({ filter: /^#supports-color$/ }, () => ({ path: chalkNoDetection }));
      },
    },
    {
      // `import text from './app.css?raw'` (what Vite does in tests): the serve page's assets as strings.
      name: 'raw-text',
      setup(build) {
        // The resolved path keeps its `?raw`, so tsup's own CSS loader (which matches any namespace) skips it.
        build.onResolve({ filter: /\?raw$/ }, (args) => ({
          path: path.resolve(args.resolveDir, args.path),
          namespace: 'raw-text',
        }));
        build.onLoad({ filter: /\?raw$/, namespace: 'raw-text' }, async (args) => ({
          contents: await readFile(args.path.slice(0, -'?raw'.length), 'utf8'),
          loader: 'text',
        }));
      },
    },
    {
      // zod re-exports all ~50 locales (≈250 KB) as `z.locales`, and `z.fromJSONSchema`, whose module spreads
      // every schema and check into an object at load (~3 ms of each start-up); nothing here uses either.
      name: 'drop-unused-zod',
      setup(build) {
        build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
          args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: zodLocalesStub } : undefined,
        );
        build.onResolve({ filter: /\/from-json-schema\.js$/ }, (args) =>
          args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: zodFromJsonSchemaStub } : undefined,
        );
      },
    },
  ],
};

export default defineConfig({
  ...common,
  entry: {
    cli: 'src/cli.ts',
    statusline: 'src/statusline/fast-path.ts',
    boot: 'src/boot/npm.ts',
  },
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  clean: true,
  // One file per entry, not chunks: src/cli.ts imports each command's module when it runs, which esbuild
  // turns into deferred module initialisers, so `usage` never runs what only `cost` uses (the table, the
  // chart, the pager, the event schemas). Splitting into chunks measured slower: every extra file costs the
  // module loader more than the code it saves from being parsed.
  splitting: false,
  // The licence texts of what the bundles carry, from esbuild's metafile (build/third-party-licences.js).
  metafile: true,
  onSuccess: async () => writeThirdPartyLicences(),
});

/**
 * The single executable's one bundle (docs/single-executable.md): the fast path and the CLI together, since an
 * executable can load nothing from beside it. scripts/build-sea.ts builds it into dist-sea/ with the version
 * put in, and gives it to Node's `--build-sea`.
 */
export function seaBundle(version: string): Options {
  return {
    ...common,
    entry: { codexbar: 'src/boot/sea.ts' },
    outDir: 'dist-sea',
    format: ['cjs'],
    outExtension: () => ({ js: '.cjs' }),
    define: { CODEXBAR_VERSION: JSON.stringify(version) },
    splitting: false,
    clean: true,
    // tsup would otherwise read this file again and build dist/ as well.
    config: false,
  };
}
