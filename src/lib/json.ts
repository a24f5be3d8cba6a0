import { isoSeconds } from './iso-date.js';
/**
 * CodexBar's JSON encoding (docs/invariants.md, "CodexBar's JSON, only ever added to"). `JSON.stringify`
 * cannot produce it: pretty output uses `"key" : value` with keys sorted by UTF-8 bytes, `/` is escaped, and
 * dates lose milliseconds. The printer adds the one trailing newline; this module never does.
 */

export interface JsonEncodeOptions {
  /** `--pretty`: 2-space indent, `"key" : value`, keys sorted by UTF-8 bytes. */
  pretty?: boolean;
}

const INDENT = '  ';

/**
 * Encodes plain data: objects (insertion order when compact), arrays, strings, numbers, booleans,
 * `null` and `Date`. `undefined` properties are omitted; an explicit `null` is kept.
 */
export function encodeJson(value: unknown, options: JsonEncodeOptions = {}): string {
  return options.pretty ? encodePretty(value, '') : encodeCompact(value);
}

function encodeCompact(value: unknown): string {
  const scalar = encodeScalar(value);
  if (scalar !== undefined) return scalar;
  if (Array.isArray(value)) return `[${value.map((item) => encodeCompact(item)).join(',')}]`;
  const members = definedEntries(value as Record<string, unknown>);
  return `{${members.map(([key, item]) => `${encodeString(key)}:${encodeCompact(item)}`).join(',')}}`;
}

function encodePretty(value: unknown, indent: string): string {
  const scalar = encodeScalar(value);
  if (scalar !== undefined) return scalar;
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    // Foundation writes an empty container as an opening bracket, a blank line and the closing one.
    if (value.length === 0) return `[\n\n${indent}]`;
    const items = value.map((item) => inner + encodePretty(item, inner));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const members = definedEntries(value as Record<string, unknown>).sort(([a], [b]) => compareUtf8(a, b));
  if (members.length === 0) return `{\n\n${indent}}`;
  const lines = members.map(([key, item]) => `${inner}${encodeString(key)} : ${encodePretty(item, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** The encoding of a non-container value, or undefined for arrays and objects. */
function encodeScalar(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'null' : encodeString(isoSeconds(value));
  switch (typeof value) {
    case 'string':
      return encodeString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // Integral doubles print without `.0`; others use the shortest round-trip form, as JS does.
      // Foundation refuses non-finite numbers; null keeps the document valid instead.
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'object':
      return undefined;
    default:
      return 'null';
  }
}

function definedEntries(object: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(object).filter(([, item]) => item !== undefined);
}

function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * `/` → `\/`; control chars `\u00xx` lowercase except \b \f \n \r \t; other non-ASCII raw.
 * docs/invariants.md, "Control characters never reach a terminal": DEL and the C1 controls are escaped too
 * (JSON allows them raw, as CodexBar writes them), since a terminal showing `--json` output would otherwise
 * obey a CSI sent as U+009B.
 */
function encodeString(text: string): string {
  const escaped = text.replace(/["\\/\u0000-\u001f\u007f-\u009f]/g, (char) => {
    return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}
