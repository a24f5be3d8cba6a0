import type { Command } from 'commander';
import type { CodexbarError } from '../errors.js';
import type { CliIo } from './io.js';

/** What src/cli.ts needs of a command's module (src/commands/<name>.ts), which it imports only when needed. */
export interface CommandModule {
  /** Adds the command, its options, help text and action to `program`; the action reports its exit code. */
  register(program: Command, io: CliIo, setExitCode: (code: number) => void): void;
  /** The error an argument commander refuses becomes, when not an ArgumentError (guard's exit 64). */
  argumentError?: (message: string) => CodexbarError;
  /** Argument errors are JSON rows whatever the flags say (serve's start-up errors). */
  jsonErrors?: boolean;
}
