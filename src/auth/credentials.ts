import { activeIndex, type SelectedAccount } from '../config/accounts.js';
import type { LoadedConfig } from '../config/config.js';
import type { BrowserId, CookieSource } from '../config/schema.js';
import { cleanCookieHeader } from './cookie.js';
import type { BrowserImportOptions } from './sources/browser/source.js';

/** Where a manual header came from, named as `--verbose` shows it. */
export type ManualHeaderOrigin = '--cookie' | 'CODEXBAR_CURSOR_COOKIE' | 'config file' | 'token account';

export interface CursorCredentialsConfig {
  cookieSource: CookieSource;
  /** Only with `cookieSource: 'manual'`; absent when the chosen header is empty. Never print it. */
  manualHeader?: string;
  /** Set with `cookieSource: 'manual'`. */
  origin?: ManualHeaderOrigin;
  /** The selected token account's label, when a token account supplied the header. */
  accountLabel?: string;
}

export interface CredentialInputs {
  config: LoadedConfig;
  /** `--cookie`, when given (an empty value still selects manual, so the caller can refuse it). */
  cookieFlag?: string | undefined;
  /** `CODEXBAR_CURSOR_COOKIE`; blank counts as unset. */
  cookieEnv?: string | undefined;
  /** A token account chosen by selectAccounts: it beats everything else. */
  account?: SelectedAccount | undefined;
}

/**
 * Which manual header wins: an account picked by selectAccounts, then `--cookie`, then
 * `CODEXBAR_CURSOR_COOKIE`, then a non-empty token account list (the entry at `activeIndex`, clamped; forces
 * manual), then the config `cookieSource`, else manual when the config `cookieHeader` is non-empty, else
 * auto.
 */
export function resolveCursorCredentialsConfig(inputs: CredentialInputs): CursorCredentialsConfig {
  if (inputs.account !== undefined) {
    return { ...manual(inputs.account.token, 'token account'), accountLabel: inputs.account.label };
  }
  if (inputs.cookieFlag !== undefined) return manual(inputs.cookieFlag, '--cookie');
  if (inputs.cookieEnv !== undefined && inputs.cookieEnv.trim() !== '') {
    return manual(inputs.cookieEnv, 'CODEXBAR_CURSOR_COOKIE');
  }

  const cursor = inputs.config.cursor;
  const accounts = cursor.tokenAccounts?.accounts ?? [];
  if (accounts.length > 0) {
    const account = accounts[activeIndex(cursor, accounts.length)]!;
    return { ...manual(account.token, 'token account'), accountLabel: account.label };
  }

  const cookieSource =
    cursor.cookieSource ?? (cleanCookieHeader(cursor.cookieHeader) !== undefined ? 'manual' : 'auto');
  if (cookieSource !== 'manual') return { cookieSource };
  return manual(cursor.cookieHeader, 'config file');
}

function manual(raw: string | undefined, origin: ManualHeaderOrigin): CursorCredentialsConfig {
  const resolved: CursorCredentialsConfig = { cookieSource: 'manual', origin };
  const header = cleanCookieHeader(raw);
  if (header !== undefined) resolved.manualHeader = header;
  return resolved;
}

export interface BrowserImportInputs {
  config: LoadedConfig;
  /** `--browser`, which beats the config's `browser`. */
  browserFlag?: BrowserId | undefined;
  /** `--allow-keychain-prompt`; the config's `allowKeychainPrompt: true` gives the same consent. */
  allowKeychainPromptFlag?: boolean;
}

/** Which browser to read and whether the macOS Keychain may be asked. */
export function resolveBrowserImport(inputs: BrowserImportInputs): BrowserImportOptions {
  const options: BrowserImportOptions = {
    allowKeychainPrompt:
      inputs.allowKeychainPromptFlag === true || inputs.config.cursor.allowKeychainPrompt === true,
  };
  const browser = inputs.browserFlag ?? inputs.config.cursor.browser;
  if (browser !== undefined) options.browser = browser;
  return options;
}

/**
 * Whether an expired or rejected Cursor app or cursor-agent token may be refreshed for this run:
 * `--refresh-token`, or `"allowTokenRefresh": true` in the cursor entry (docs/api2.md, "Token refresh
 * (opt-in)"). Off unless asked for.
 */
export function resolveTokenRefresh(inputs: { config: LoadedConfig; refreshTokenFlag?: boolean }): boolean {
  return inputs.refreshTokenFlag === true || inputs.config.cursor.allowTokenRefresh === true;
}
