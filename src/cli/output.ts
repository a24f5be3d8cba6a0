import { CodexbarError, exitCodeFor, hintFor, messageFor } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { redact } from '../lib/redact.js';
import { shouldUseColour } from '../render/colour.js';
import { safeText } from '../render/safe-text.js';
import { cliErrorRow } from '../render/usage-json.js';
import type { CliIo } from './io.js';
import type { OutputOptions, SharedOptions } from './options.js';

/** How a run prints: JSON rows or text, and whether stderr stays silent (--json-only). */
export interface OutputMode {
  json: boolean;
  pretty: boolean;
  jsonOnly: boolean;
}

/**
 * The one error printer (docs/invariants.md, "Errors are typed, printed once"). Messages never carry an
 * `Error: ` prefix: text output adds it here, JSON rows never have it. A bad flag or config is a
 * command-level `cli` row; any other failure is the command's own provider row. Returns the exit code.
 */
export function reportFailure(
  io: CliIo,
  error: unknown,
  mode: OutputMode,
  providerRow?: (error: unknown) => unknown,
): number {
  if (mode.json) {
    const commandLevel =
      providerRow === undefined ||
      (error instanceof CodexbarError && (error.kind === 'config' || error.kind === 'args'));
    const row = redactRow(commandLevel ? cliErrorRow(error) : providerRow(error));
    io.stdout.write(`${encodeJson([row], { pretty: mode.pretty })}\n`);
  } else if (!mode.jsonOnly) {
    writeTextError(io, error);
  }
  return exitCodeFor(error);
}

/**
 * Text for stderr: credentials redacted (docs/invariants.md, "Never a credential shown"), control characters
 * made visible (docs/invariants.md, "Control characters never reach a terminal").
 */
function printable(text: string): string {
  return safeText(redact(text));
}

/** A JSON error row keeps control characters (the encoder escapes them) but never a credential. */
function redactRow(row: unknown): unknown {
  const error = (row as { error?: { message?: unknown } }).error;
  if (error && typeof error.message === 'string') error.message = redact(error.message);
  return row;
}

/**
 * `Error: <message>`, or `Error (cursor - <label>): <message>` for a token account's row, then `Hint: …` when
 * there is one.
 */
export function writeTextError(io: Pick<CliIo, 'stderr'>, error: unknown, account?: string): void {
  io.stderr.write(`${errorLine(error, account)}\n`);
  const hint = hintFor(error);
  if (hint) io.stderr.write(`Hint: ${printable(hint)}\n`);
}

/** `Error: <message>` or `Error (cursor - <label>): <message>`, printable, without a line end. */
export function errorLine(error: unknown, account?: string): string {
  const prefix = account === undefined ? 'Error' : `Error (cursor - ${safeText(account)})`;
  return `${prefix}: ${printable(messageFor(error))}`;
}

/**
 * Where a command's output goes: stdout holds only successful output (or the JSON array), stderr gets errors,
 * hints and `--verbose` lines — and nothing at all with --json-only.
 */
export class Reporter<Options extends OutputOptions = SharedOptions> {
  constructor(
    readonly io: CliIo,
    readonly options: Options,
  ) {}

  get json(): boolean {
    return this.options.format === 'json';
  }

  /** ANSI colours for text on stdout. */
  get colour(): boolean {
    return shouldUseColour({
      format: this.options.format,
      noColorFlag: this.options.noColorFlag,
      env: this.io.env,
      isTTY: this.io.stdout.isTTY === true,
    });
  }

  /** `[cursor] …` lines for --verbose. Callers never pass credentials. */
  verbose = (line: string): void => {
    if (this.options.verbose && !this.options.jsonOnly) this.io.stderr.write(`${printable(line)}\n`);
  };

  printJson(rows: unknown): void {
    this.io.stdout.write(`${encodeJson(rows, { pretty: this.options.pretty })}\n`);
  }

  printText(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** One failed row of a text run that goes on (several accounts): stderr, unless --json-only. */
  printRowError(error: unknown, account?: string): void {
    if (!this.options.jsonOnly) writeTextError(this.io, error, account);
  }

  /** A failed run: printed once, as text or as `providerRow`'s JSON row; returns the exit code. */
  fail(error: unknown, providerRow?: (error: unknown) => unknown): number {
    return reportFailure(
      this.io,
      error,
      { json: this.json, pretty: this.options.pretty, jsonOnly: this.options.jsonOnly },
      providerRow,
    );
  }
}
