/** What the tool may look at on this machine. Injected, so tests can pretend to be any OS and any user. */

export type Platform = 'linux' | 'darwin' | 'win32';

export interface LocalEnvironment {
  platform: Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The account's home directory (os.homedir()), used when HOME is unusable. */
  homeDir: string;
  now: () => Date;
}
