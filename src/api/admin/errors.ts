/**
 * Typed errors of the Admin API path. Messages name the endpoint or the key's
 * source, never the key itself.
 */
import { CodexbarError } from '../../errors.js';

const KEY_SOURCES_HINT =
  'Give a team admin key (Cursor dashboard → Settings → Cursor Admin API Keys) in one of three ways: ' +
  'set CURSOR_ADMIN_API_KEY, pipe it to --api-key-stdin, or put it as "apiKey" in the cursor entry of the config file.';

/** No key from --api-key-stdin, CURSOR_ADMIN_API_KEY or the config file. */
export class MissingAdminKeyError extends CodexbarError {
  readonly code = 'admin_key_missing';
  override readonly kind = 'config' as const;
  constructor() {
    super('No Cursor Admin API key.', KEY_SOURCES_HINT);
  }
}

/** A key that cannot be an Admin API key, refused before any request. */
export class AdminKeyShapeError extends CodexbarError {
  readonly code = 'admin_key_malformed';
  override readonly kind = 'config' as const;
  constructor(source: string, problem: string) {
    super(
      `The Cursor Admin API key from ${source} does not look like one: ${problem}.`,
      'Admin API keys start with key_ (crsr_ for newer team keys) followed by letters, digits, _ or -. ' +
        KEY_SOURCES_HINT,
    );
  }
}

/** HTTP 401: Cursor does not know the key (revoked, expired, mistyped, or a personal key). */
export class AdminKeyRejectedError extends CodexbarError {
  readonly code = 'admin_key_rejected';
  constructor(readonly endpoint: string) {
    super(
      `Cursor rejected the Admin API key (HTTP 401, ${endpoint}).`,
      'Check that the key is a team admin key that has not been revoked; personal API keys do not work here. ' +
        KEY_SOURCES_HINT,
    );
  }
}

/** HTTP 403: the key is valid but the team's plan or the key's scopes do not include this endpoint. */
export class AdminForbiddenError extends CodexbarError {
  readonly code = 'admin_forbidden';
  constructor(readonly endpoint: string) {
    super(
      `Cursor refused the Admin API request (HTTP 403, ${endpoint}).`,
      'The Admin API needs a Team or Enterprise plan and a team admin key whose scopes include usage and spend ' +
        '(admin:* or usage:*); ask a team admin to create one.',
    );
  }
}
