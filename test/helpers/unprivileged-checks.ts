/**
 * The operations the permission tests run as another user (test/helpers/unprivileged.ts), one for each
 * module whose "permission denied" a test pins. Each takes and gives JSON, as it crosses a process boundary.
 */
import * as agent from '../../src/auth/sources/agent.js';
import type { KeyProviders } from '../../src/auth/sources/browser/key-providers.js';
import { skip } from '../../src/auth/sources/browser/outcome.js';
import { load as loadBrowserCookies } from '../../src/auth/sources/browser/source.js';
import { loadConfig } from '../../src/config/config.js';
import { localEnvironment } from './local-sources.js';

/** Key stores that hold nothing: the keyring is locked, there is no keychain, no DPAPI. */
const noKeys: KeyProviders = {
  linuxPasswords: async () => skip('key-unavailable', 'the keyring is locked', 'Unlock your keyring.'),
  keychainPassword: async () => skip('key-unavailable', 'no item'),
  dpapiUnprotect: async () => skip('key-unavailable', 'no DPAPI here'),
};

export const checks = {
  /** cursor-agent's auth.json in this HOME, read at `now` (an ISO instant). */
  agentSource: (home: string, now: string) => agent.load(localEnvironment(home, { now: new Date(now) })),
  /** The config at `file`: its error's class and message, or null when it loads. */
  async configError(home: string, file: string) {
    try {
      await loadConfig(localEnvironment(home, { env: { CODEXBAR_CONFIG: file } }));
      return null;
    } catch (error) {
      return { name: (error as Error).constructor.name, message: (error as Error).message };
    }
  },
  /** The browser import on Linux with no key store answering, at `now`. */
  browserSource: (home: string, now: string) =>
    loadBrowserCookies(
      localEnvironment(home, { now: new Date(now) }),
      { allowKeychainPrompt: false },
      { providers: noKeys },
    ),
};

export type Checks = typeof checks;
