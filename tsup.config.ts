import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: false,
  splitting: false,
  // Everything pure-JS is bundled into one file for a fast start; the native addon stays external
  // and is imported lazily, only when a live Cursor database has to be read.
  noExternal: [/^(?!better-sqlite3$).*/],
  external: ['better-sqlite3'],
  banner: {
    js: "import { createRequire as __codexbarCreateRequire } from 'node:module'; const require = __codexbarCreateRequire(import.meta.url);",
  },
});
