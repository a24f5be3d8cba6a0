import { ArgumentError } from '../errors.js';

/** `guard`'s exit codes, CodexBar's (docs/behaviour.md §26.8): sysexits' EX_USAGE and EX_UNAVAILABLE. */
export const GUARD_EXIT = { ok: 0, blocked: 1, usage: 64, unavailable: 69 } as const;

/** An argument error under `guard` exits 64 instead of 1. Small and separate: src/cli.ts loads it eagerly. */
export class GuardArgumentError extends ArgumentError {
  override readonly exitCode = GUARD_EXIT.usage;
}
