import { resolveBaseUrl } from '../api/base-url.js';
import { CursorClient } from '../api/client.js';
import { cookieHeaderProblem } from '../api/header-value.js';
import { proxySettings } from '../api/transport.js';
import { resolveBrowserImport, resolveCursorCredentialsConfig } from '../auth/credentials.js';
import { buildLadder } from '../auth/ladder.js';
import { type Resolved, withSession } from '../auth/resolver.js';
import type { Session } from '../auth/types.js';
import { loadConfig } from '../config/config.js';
import { ArgumentError, UnsupportedError } from '../errors.js';
import type { LocalEnvironment } from '../local/environment.js';
import { displayPath } from '../local/paths.js';
import type { CliIo } from './io.js';
import type { SharedOptions } from './options.js';

export type Purpose = 'usage' | 'cost';

/** What a command may know about whose session it got, besides the session itself (never a credential). */
export interface SessionAccount {
  /** The token-account label, when a token account supplied the header. */
  label?: string;
}

/**
 * Everything `usage` and `cost` share before they fetch: the config file, the base URL check, the
 * credential policy and the auth ladder. Errors here end the run before any request.
 */
export async function runWithCursorSession<T>(
  io: CliIo,
  options: SharedOptions,
  purpose: Purpose,
  log: (line: string) => void,
  perform: (client: CursorClient, session: Session, account: SessionAccount) => Promise<T>,
): Promise<Resolved<T>> {
  if (options.unsupportedSource) {
    throw new UnsupportedError(`Source '${options.unsupportedSource}' is not supported for cursor.`);
  }
  const authEnv: LocalEnvironment = { platform: io.platform, env: io.env, homeDir: io.homeDir, now: io.now };
  const config = await loadConfig(authEnv);
  if (!config.exists && io.env.CODEXBAR_CONFIG?.trim()) {
    log(
      `[cursor] CODEXBAR_CONFIG names ${displayPath(config.path, authEnv)}, which does not exist; using the defaults`,
    );
  }
  const baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  const credentials = resolveCursorCredentialsConfig({
    config,
    cookieFlag: options.cookieFlag,
    cookieEnv: io.env.CODEXBAR_CURSOR_COOKIE,
  });
  const configShown = displayPath(config.path, authEnv);
  if (credentials.cookieSource === 'off') {
    throw new UnsupportedError(
      purpose === 'cost'
        ? 'Cursor cost is unavailable because the Cursor cookie source is set to Off.'
        : 'Cursor is unavailable because the Cursor cookie source is set to Off.',
      `Set "cookieSource" to "auto" in ${configShown} to use it again.`,
    );
  }
  if (credentials.cookieSource === 'manual' && credentials.manualHeader === undefined) {
    // docs/behaviour.md §6.4: an empty manual header fails closed instead of falling back to another account.
    throw new UnsupportedError(
      purpose === 'cost'
        ? 'Cursor cost requires a non-empty Manual cookie header.'
        : 'Cursor usage requires a non-empty Manual cookie header.',
      `Paste a Cookie header copied from cursor.com as "cookieHeader" in ${configShown}, or set "cookieSource" to "auto".`,
    );
  }

  const refused = credentials.manualHeader && cookieHeaderProblem(credentials.manualHeader);
  if (refused) {
    // docs/behaviour.md §7.13: a manual header is final, so a value that cannot be sent is the user's to fix.
    throw new ArgumentError(
      `The manual Cookie header (${credentials.origin ?? 'config file'}) cannot be sent: ${refused}.`,
      'Copy the Cookie header again from a signed-in cursor.com tab, as one line.',
    );
  }

  const client = new CursorClient({ baseUrl, proxy: proxySettings(io.env) });
  try {
    return await withSession(
      {
        ladder: buildLadder(
          authEnv,
          options.sourceMode,
          credentials,
          resolveBrowserImport({
            config,
            browserFlag: options.browserFlag,
            allowKeychainPromptFlag: options.allowKeychainPrompt,
          }),
        ),
        log,
        noSessionHint: noSessionHint(options.sourceMode, configShown),
      },
      (session) => perform(client, session, { label: credentials.accountLabel }),
    );
  } finally {
    await client.close();
  }
}

function noSessionHint(mode: 'auto' | 'web', configShown: string): string {
  const cookie = `paste a Cookie header copied from cursor.com as "cookieHeader" in ${configShown} (or pass --cookie / set CODEXBAR_CURSOR_COOKIE)`;
  if (mode === 'web')
    return `--source web uses cookies only: sign in to cursor.com in a browser, or ${cookie}.`;
  return `Sign in to cursor.com in a browser or to the Cursor app, or run \`cursor-agent login\` on this machine, or ${cookie}.`;
}
