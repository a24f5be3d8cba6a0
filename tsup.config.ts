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
