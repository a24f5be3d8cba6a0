import { errorBody, hintFor, messageFor } from '../errors.js';
import { shouldUseColour } from '../render/colour.js';
import { encodeJson } from '../render/json.js';
import type { CliIo } from './io.js';
import type { SharedOptions } from './options.js';

/**
 * Where a command's output goes: stdout holds only successful output (or the JSON array), stderr gets
 * `Error: …`, hints and `--verbose` lines — and nothing at all with --json-only (docs/behaviour.md §3.1).
 */
export class Reporter {
  constructor(
    readonly io: CliIo,
    readonly options: SharedOptions,
  ) {}

  get json(): boolean {
    return this.options.format === 'json';
  }

  /** ANSI colours for text on stdout (docs/behaviour.md §2.8). */
  get colour(): boolean {
    return shouldUseColour({
      format: this.options.format,
      noColorFlag: this.options.noColorFlag,
      env: this.io.env,
      isTTY: this.io.stdout.isTTY === true,
    });
  }

  /** `[cursor] …` lines for --verbose. Callers never pass credentials; see auth/cookie redaction. */
  verbose = (line: string): void => {
    if (this.options.verbose && !this.options.jsonOnly) this.io.stderr.write(`${line}\n`);
  };

  printJson(rows: unknown): void {
    this.io.stdout.write(`${encodeJson(rows, { pretty: this.options.pretty })}\n`);
  }

  printText(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Text-mode failure: `Error: <message>` and, when there is one, a hint line. */
  printTextError(error: unknown): void {
    if (this.options.jsonOnly) return;
    this.io.stderr.write(`${prefixed(messageFor(error))}\n`);
    const hint = hintFor(error);
    if (hint) this.io.stderr.write(`Hint: ${hint}\n`);
  }
}

function prefixed(message: string): string {
  return message.startsWith('Error') ? message : `Error: ${message}`;
}

/** Errors before a command could start (bad flags): a `provider: "cli"` row in JSON mode, text otherwise. */
export function printCliError(io: CliIo, error: unknown, json: boolean, pretty: boolean): void {
  if (json) {
    const row = { provider: 'cli', source: 'cli', error: errorBody(error) };
    io.stdout.write(`${encodeJson([row], { pretty })}\n`);
    return;
  }
  io.stderr.write(`${prefixed(messageFor(error))}\n`);
  const hint = hintFor(error);
  if (hint) io.stderr.write(`Hint: ${hint}\n`);
}
