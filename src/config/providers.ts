import type { ConfigFile } from './schema.js';

/**
 * Provider names as CodexBar shows them, for `config providers|enable|disable`.
 * codexbar knows Cursor; other entries of the shared file are listed and toggled by id as they are.
 */
const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  cursor: 'Cursor',
  codex: 'Codex',
  claude: 'Claude',
};
/** CodexBar enables only Codex by default; Cursor is off until enabled (codexbar itself ignores the switch). */
const ENABLED_BY_DEFAULT: ReadonlySet<string> = new Set(['codex']);

export interface ConfigProviderState {
  provider: string;
  displayName: string;
  enabled: boolean;
  defaultEnabled: boolean;
}

export function displayName(id: string): string {
  return Object.hasOwn(DISPLAY_NAMES, id) ? DISPLAY_NAMES[id]! : id;
}

/** Every provider of the file in file order (first of duplicate ids), then Cursor when it is not there. */
export function providerStatuses(file: ConfigFile | undefined): ConfigProviderState[] {
  const seen = new Set<string>();
  const statuses: ConfigProviderState[] = [];
  const add = (id: string, enabled: boolean | null | undefined) => {
    if (seen.has(id)) return;
    seen.add(id);
    const defaultEnabled = ENABLED_BY_DEFAULT.has(id);
    statuses.push({
      provider: id,
      displayName: displayName(id),
      enabled: enabled ?? defaultEnabled,
      defaultEnabled,
    });
  };
  for (const entry of file?.providers ?? []) add(entry.id, entry.enabled);
  add('cursor', undefined);
  return statuses;
}

/**
 * `--provider` of `config enable|disable`: `cursor`, or the id of a provider already in the file; trimmed
 * and case-insensitive. Anything else is undefined.
 */
export function knownProviderId(raw: string | undefined, file: ConfigFile | undefined): string | undefined {
  const wanted = raw?.trim().toLowerCase();
  if (!wanted) return undefined;
  if (wanted === 'cursor') return 'cursor';
  return file?.providers.find((entry) => entry.id.toLowerCase() === wanted)?.id;
}
