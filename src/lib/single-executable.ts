/**
 * Whether this process is codexbar's single executable (docs/single-executable.md) rather than Node running
 * bin/codexbar.js: it has no native addon to try, and it starts itself again without a script argument.
 */
export function isSingleExecutable(): boolean {
  try {
    return process.getBuiltinModule('node:sea')?.isSea() === true;
  } catch {
    return false;
  }
}
