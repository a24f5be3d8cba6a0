/**
 * The entry of the bundle test/helpers/unprivileged.ts runs as another user: `node checks.cjs <name> <args>`
 * runs that check with the JSON arguments and prints what it returned as JSON.
 */
import { type Checks, checks } from './unprivileged-checks.js';

const [name, args] = process.argv.slice(2);
const check = checks[name as keyof Checks] as (...values: unknown[]) => unknown;
Promise.resolve(check(...(JSON.parse(args ?? '[]') as unknown[]))).then(
  (result) => process.stdout.write(JSON.stringify(result ?? null)),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
