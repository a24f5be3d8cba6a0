import type { LocalEnvironment } from '../../../local/environment.js';
import type { ChromiumInstall, ChromiumKeyNames } from './catalog.js';
import { dpapiUnprotect } from './dpapi.js';
import { lookupKeychainPassword } from './keychain.js';
import { readLocalStateKey } from './local-state.js';
import { type Outcome, skip } from './outcome.js';
import { runCommand } from './run-command.js';
import { lookupLinuxPasswords } from './secret-service.js';

/** The operating system's key stores. Injected so tests can stand in for macOS and Windows. */
export interface KeyProviders {
  /** Linux: candidate "Safe Storage" passwords from the Secret Service or KWallet. */
  linuxPasswords(names: ChromiumKeyNames): Promise<Outcome<string[]>>;
  /** macOS: the "Safe Storage" password from the Keychain (this shows a prompt). */
  keychainPassword(names: ChromiumKeyNames): Promise<Outcome<string>>;
  /** Windows: DPAPI `Unprotect` for the current user. */
  dpapiUnprotect(blob: Buffer): Promise<Outcome<Buffer>>;
}

export function systemKeyProviders(env: LocalEnvironment, run: typeof runCommand = runCommand): KeyProviders {
  return {
    linuxPasswords: (names) => lookupLinuxPasswords(names, env, run),
    keychainPassword: (names) => lookupKeychainPassword(names, env, run),
    dpapiUnprotect: (blob) => dpapiUnprotect(blob, env, run),
  };
}

/** One browser installation's keys, each fetched at most once per run and only when a value needs it. */
export interface InstallKeys {
  linuxPasswords(): Promise<Outcome<string[]>>;
  macPassword(): Promise<Outcome<string>>;
  windowsKey(): Promise<Outcome<Buffer>>;
  dpapi(blob: Buffer): Promise<Outcome<Buffer>>;
}

export interface KeyContext {
  providers: KeyProviders;
  /** `--allow-keychain-prompt` or config `allowKeychainPrompt`. */
  allowKeychainPrompt: boolean;
  show: (filePath: string) => string;
}

export function installKeys(install: ChromiumInstall, context: KeyContext): InstallKeys {
  const { providers } = context;
  return {
    linuxPasswords: once(() => providers.linuxPasswords(install.keys)),
    macPassword: once(async () => {
      // Reading the Keychain shows a macOS prompt, so only with consent.
      if (!context.allowKeychainPrompt) {
        return skip(
          'consent-needed',
          `its key is in the macOS Keychain (“${install.keys.keychainService}”), and reading it shows a prompt`,
          'Pass --allow-keychain-prompt (or set "allowKeychainPrompt": true in the config) to let codexbar ask macOS for the browser key.',
        );
      }
      return providers.keychainPassword(install.keys);
    }),
    windowsKey: once(() => readLocalStateKey(install.root, providers, context.show)),
    dpapi: (blob) => providers.dpapiUnprotect(blob),
  };
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load();
    return pending;
  };
}
