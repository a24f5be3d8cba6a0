/**
 * What bin/codexbar.js loads first from dist/: the compile cache and the launcher it hands the bundles to
 * (src/boot/launch.ts). One small bundle, so `--version` and a prompt's statusline load one file before the
 * one they need.
 */
export { compileCacheDir, requireBundle } from './compile-cache.js';
export { launch } from './launch.js';
