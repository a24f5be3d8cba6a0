/**
 * docs/invariants.md, "Control characters never reach a terminal": in text that came from cursor.com or a
 * local file, control characters (C0, DEL, C1), which could move the cursor, set the title, open a hyperlink
 * or forge a line, are shown as visible `\xNN` escapes. JSON output keeps them, escaped by the encoder.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function safeText(text: string): string {
  return text.replace(CONTROL, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A name for a table cell: safe, and cut to `max` columns with `…` so one long name cannot widen a table.
 * Escaping only lengthens text, so the name's first `max` characters decide everything shown: only they are
 * escaped, which keeps 10,000 names of 3,000 characters as cheap as short ones (the table asks several times).
 */
export function displayName(name: string, max: number): string {
  const safe = safeText(name.length > max ? name.slice(0, max) : name);
  return name.length <= max && safe.length <= max ? safe : `${safe.slice(0, max - 1)}…`;
}
