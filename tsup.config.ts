import path from 'node:path';
import { defineConfig } from 'tsup';

const zodLocalesStub = path.resolve('build/zod-locales-stub.js');
const http2Stub = path.resolve('build/http2-unavailable.cjs');

export default defineConfig({
  // The CLI, the statusline fast path bin/codexbar.js tries first for `statusline`, and the few lines that
  // turn on Node's compile cache before either loads (docs/architecture.md, Start-up). Each is
  // self-contained: they share no file.
  entry: {
    cli: 'src/cli.ts',
    statusline: 'src/fast/statusline.ts',
    'compile-cache': 'src/fast/compile-cache.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: false,
  // Start-up time is mostly compiling what is loaded, so keep it small.
  minify: true,
  // One file, not chunks: src/cli.ts imports each command's module when it runs, which esbuild turns into
  // deferred module initialisers, so `usage` never runs what only `cost` uses (the table, the chart, the
  // pager, the event schemas). Splitting into chunks measured slower: every extra file costs the ESM loader
  // more than the code it saves from being parsed.
  splitting: false,
  // Everything pure-JS is bundled for a fast start; the native addon stays external and is imported
  // lazily, only when a live Cursor database has to be read.
  noExternal: [/^(?!better-sqlite3$).*/],
  external: ['better-sqlite3'],
  banner: {
    js: "import { createRequire as __codexbarCreateRequire } from 'node:module'; const require = __codexbarCreateRequire(import.meta.url);",
  },
  // Keep `node:` on built-in imports (tsup strips it by default, marking them external before any plugin
  // below could see them).
  removeNodeProtocol: false,
  esbuildPlugins: [
    {
      // undici loads node:http2 (and with it tls and crypto) at start-up, for HTTP/2 we never use (its
      // `allowH2` stays off); when that require fails it falls back by itself. Nothing else here imports
      // http2 (docs/architecture.md, Start-up).
      name: 'no-http2-in-undici',
      setup(build) {
        build.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
          args.importer.includes(`${path.sep}undici${path.sep}`) ? { path: http2Stub } : undefined,
        );
      },
    },
    {
      // zod re-exports all ~50 locales (≈250 KB) as `z.locales`; nothing here uses them.
      name: 'drop-zod-locales',
      setup(build) {
        build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
          args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: zodLocalesStub } : undefined,
        );
      },
    },
  ],
});
