import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig } from 'tsup';

const zodLocalesStub = path.resolve('build/zod-locales-stub.js');

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: false,
  // Start-up time is mostly compiling this one file, so keep it small.
  minify: true,
  splitting: false,
  // Everything pure-JS is bundled into one file for a fast start; the native addon stays external
  // and is imported lazily, only when a live Cursor database has to be read.
  noExternal: [/^(?!better-sqlite3$).*/],
  external: ['better-sqlite3'],
  banner: {
    js: "import { createRequire as __codexbarCreateRequire } from 'node:module'; const require = __codexbarCreateRequire(import.meta.url);",
  },
  esbuildPlugins: [
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
