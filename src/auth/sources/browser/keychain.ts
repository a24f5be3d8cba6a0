import type { LocalEnvironment } from '../../../local/environment.js';
import type { ChromiumKeyNames } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';
import type { runCommand } from './run-command.js';
import { withoutTrailingNewline } from './secret-service.js';

/** macOS asks the user to allow the read; they need time to answer. */
const KEYCHAIN_TIMEOUT_MS = 60_000;
/** `security`'s exit code for "The specified item could not be found in the keychain." */
const ITEM_NOT_FOUND = 44;

/**
 * macOS: the browser's "Safe Storage" password from the login Keychain, through
 * `security find-generic-password -w -s "<Browser> Safe Storage"`. Only called with the user's consent,
 * because macOS shows a prompt for it.
 */
export async function lookupKeychainPassword(
  names: ChromiumKeyNames,
  env: LocalEnvironment,
  run: typeof runCommand,
): Promise<Outcome<string>> {
  const service = names.keychainService;
  const result = await run('security', ['find-generic-password', '-w', '-s', service], {
    env: env.env,
    timeoutMs: KEYCHAIN_TIMEOUT_MS,
  });
  switch (result.kind) {
    case 'ok': {
      const password = withoutTrailingNewline(result.stdout.toString('utf8'));
      return password === ''
        ? skip('key-unavailable', `the Keychain item “${service}” is empty`)
        : ok(password);
    }
    case 'missing':
      return skip('key-unavailable', 'the macOS `security` tool is not available');
    case 'timeout':
      return skip(
        'key-unavailable',
        `the Keychain did not answer within ${KEYCHAIN_TIMEOUT_MS / 1000} s (was the prompt left open?)`,
      );
    case 'failed':
      return result.code === ITEM_NOT_FOUND
        ? skip('key-unavailable', `no “${service}” item in the Keychain`)
        : skip(
            'key-unavailable',
            `the Keychain did not give out “${service}” (security exited with ${result.code ?? 'a signal'})`,
            `Allow codexbar to read “${service}” when macOS asks, or sign in to cursor.com in Firefox.`,
          );
  }
}
