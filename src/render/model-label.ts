/**
 * Model names in tables. One rule, here only: the short label the compact layout
 * shows, e.g. `claude-4.5-opus-high-thinking` → `opus-4.5 high thinking`, `claude-4.5-sonnet` →
 * `sonnet-4.5`, `default` → `auto`; names that are already short (`gpt-5-codex`, `composer-1`) stay as they
 * are. A label is only ever shown whole: tables never break inside one. JSON and CSV keep the full name.
 */
import { displayName } from './safe-text.js';

/** A name in a table is made safe and cut to 60 columns. */
export const LABEL_MAX = 60;

const VENDOR_PREFIX = /^(?:anthropic[/.]|openai[/:]|google\/)/;
/** Cursor's order: `claude-4.5-opus-high-thinking`. */
const CLAUDE_VERSION_FIRST = /^claude-(\d+(?:\.\d+)?)-(opus|sonnet|haiku)((?:-[a-z0-9.]+)*)$/;
/** The provider's order: `claude-opus-4-5-20251101-thinking`. */
const CLAUDE_FAMILY_FIRST =
  /^claude-(opus|sonnet|haiku)-(\d+)(?:[-.](\d{1,2}))?(?:-\d{8})?((?:-[a-z0-9.]+)*)$/;

export function fullModelLabel(name: string): string {
  return displayName(name, LABEL_MAX);
}

export function shortModelLabel(name: string): string {
  const lower = name.trim().toLowerCase().replace(VENDOR_PREFIX, '');
  if (lower === 'default' || lower === 'auto') return 'auto';
  const cursorOrder = CLAUDE_VERSION_FIRST.exec(lower);
  if (cursorOrder) return claudeLabel(cursorOrder[2]!, cursorOrder[1]!, cursorOrder[3]);
  const providerOrder = CLAUDE_FAMILY_FIRST.exec(lower);
  if (!providerOrder) return fullModelLabel(name);
  const [, family, major, minor, rest] = providerOrder;
  return claudeLabel(family!, minor && minor !== '0' ? `${major}.${minor}` : major!, rest);
}

/** `opus-4.5 high thinking` from the family, the version and the rest of the name (`-high-thinking`). */
function claudeLabel(family: string, version: string, rest = ''): string {
  const words = rest.split('-').filter((word) => word !== '');
  return fullModelLabel([`${family}-${version}`, ...words].join(' '));
}
