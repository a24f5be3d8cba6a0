/**
 * Typed errors (docs/invariants.md, "Errors are typed, printed once") with a stable code, a message for the
 * user and an optional hint. `exitCodeFor` and `errorRow` are the one place that maps them to exit codes and
 * JSON error rows.
 */

export type ErrorKind = 'args' | 'config' | 'provider' | 'runtime';

export abstract class CodexbarError extends Error {
  abstract readonly code: string;
  readonly hint: string | undefined;
  /** Which JSON `error.kind` a row carries for this failure. */
  readonly kind: ErrorKind = 'provider';
  /** 1 for every failure except timeouts. */
  readonly exitCode: number = 1;

  constructor(message: string, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** Bad flags or values: exit 1, `kind: "args"`. */
export class ArgumentError extends CodexbarError {
  readonly code = 'bad_argument';
  override readonly kind = 'args' as const;
}

/** An unreadable or invalid config file, or a refused base URL. */
export class ConfigError extends CodexbarError {
  readonly code = 'bad_config';
  override readonly kind = 'config' as const;
}

/**
 * cursor.com said the session is not logged in (401/403 on usage-summary, 401 on events).
 * The resolver may try the next source unless the session was a manual header.
 */
export class NotLoggedInError extends CodexbarError {
  readonly code = 'not_logged_in';
  constructor(
    readonly endpoint: string,
    readonly status: number,
    message = 'Not logged in to Cursor.',
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** No credential source produced a session. */
export class NoSessionError extends CodexbarError {
  readonly code = 'no_session';

  constructor(
    message: string,
    hint?: string,
    /** A browser's cookies were there, but their key is in a keyring no desktop session reaches from here. */
    readonly noDesktopSession = false,
  ) {
    super(message, hint);
  }
}

/** A valid option value that Cursor does not support (`--source oauth|api`), or Cursor turned off in config. */
export class UnsupportedError extends CodexbarError {
  readonly code = 'unsupported';
}

/**
 * A token account that cannot be selected: none configured, no such label, an index out of range. A provider
 * row, as CodexBar reports it.
 */
export class AccountSelectionError extends CodexbarError {
  readonly code = 'account_selection';
}

/** A non-200 answer (other than "not logged in"), a transport failure, or a refused redirect. */
export class ApiError extends CodexbarError {
  readonly code = 'api_error';
  readonly status: number | undefined;
  /** From `Retry-After` on a 429 or 503, when present. */
  readonly retryAfterMs: number | undefined;
  /** The connection failed or was reset before a response arrived. */
  readonly transport: boolean;

  constructor(
    readonly endpoint: string,
    readonly detail: string,
    options: { status?: number; retryAfterMs?: number; transport?: boolean; hint?: string } = {},
  ) {
    super(`Cursor API error: ${detail} (${endpoint})`, options.hint);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.transport = options.transport ?? false;
  }
}

/** A response that is not the JSON shape the endpoint documents (docs/invariants.md, "Fail closed"). */
export class ParseError extends CodexbarError {
  readonly code = 'parse_failed';
  constructor(
    readonly endpoint: string,
    detail: string,
  ) {
    super(`Could not parse Cursor usage: ${endpoint}: ${detail}`);
  }
}

/** A request that ran past its deadline: exit code 4. */
export class TimeoutError extends CodexbarError {
  readonly code = 'timeout';
  override readonly exitCode = 4;
  constructor(
    readonly endpoint: string,
    readonly timeoutMs: number,
  ) {
    super(`Cursor API error: ${endpoint} timed out after ${timeoutMs / 1000} s`);
  }
}

/**
 * A whole run that went past its deadline (`cost --timeout`): exit code 4 like a timeout, naming how far it
 * got, and never with a total (docs/invariants.md, "No partial total").
 */
export class DeadlineError extends CodexbarError {
  readonly code = 'deadline';
  override readonly exitCode = 4;
}

/** Cost pagination that cannot prove it saw every event (docs/invariants.md, "No partial total"). */
export class PaginationError extends CodexbarError {
  readonly code: 'pagination_incomplete' | 'pagination_inconsistent' | 'pagination_safety_limit';
  constructor(
    code: 'pagination_incomplete' | 'pagination_inconsistent' | 'pagination_safety_limit',
    message: string,
  ) {
    super(message, 'Run the command again; if it keeps failing, narrow the window with --days or --since.');
    this.code = code;
  }
}

export function exitCodeFor(error: unknown): number {
  return error instanceof CodexbarError ? error.exitCode : 1;
}

export function messageFor(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function hintFor(error: unknown): string | undefined {
  return error instanceof CodexbarError ? error.hint : undefined;
}

export interface JsonErrorBody {
  code: number;
  message: string;
  kind?: ErrorKind;
}

/** The `error` object of a usage row; cost rows carry no `kind`. */
export function errorBody(error: unknown, withKind = true): JsonErrorBody {
  const body: JsonErrorBody = { code: exitCodeFor(error), message: messageFor(error) };
  if (withKind) body.kind = error instanceof CodexbarError ? error.kind : 'runtime';
  return body;
}
