/**
 * Just enough of SQLite's CREATE TABLE / CREATE INDEX grammar to learn column positions and which
 * unique indexes cover `key`. Anything unexpected makes the caller fall back to a table scan or
 * report an error; it never guesses.
 */
import { corrupt } from './format-error.js';

interface Token {
  text: string;
  /** Quoted identifiers and string literals are never keywords. */
  quoted: boolean;
}

export interface ColumnDef {
  name: string;
  collation: string | undefined;
  integerPrimaryKey: boolean;
  /** One entry per UNIQUE / PRIMARY KEY constraint (each makes an autoindex): the indexed column. */
  autoindexColumns: string[];
}

export interface TableDefinition {
  columns: ColumnDef[];
  /** Column lists of table-level UNIQUE / PRIMARY KEY constraints, in order. */
  constraints: string[][];
  withoutRowid: boolean;
}

/** Stands in for an indexed column the seek cannot use (DESC, or a non-BINARY collation). */
const UNUSABLE = '\0unusable';
const QUOTES: Record<string, string> = { '"': '"', '`': '`', '[': ']', "'": "'" };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) i++;
    else if (sql.startsWith('--', i)) i = sql.indexOf('\n', i) < 0 ? sql.length : sql.indexOf('\n', i);
    else if (sql.startsWith('/*', i)) i = sql.indexOf('*/', i) < 0 ? sql.length : sql.indexOf('*/', i) + 2;
    else if (QUOTES[c] !== undefined) {
      const close = QUOTES[c]!;
      let text = '';
      let j = i + 1;
      for (; j < sql.length; j++) {
        if (sql[j] !== close) text += sql[j];
        else if (close !== ']' && sql[j + 1] === close) text += sql[j++];
        else break;
      }
      tokens.push({ text, quoted: true });
      i = j + 1;
    } else if ('(),;'.includes(c)) {
      tokens.push({ text: c, quoted: false });
      i++;
    } else {
      let j = i;
      while (j < sql.length && !/[\s(),;"`['-]/.test(sql[j]!) && !sql.startsWith('/*', j)) j++;
      if (j === i) j++;
      tokens.push({ text: sql.slice(i, j), quoted: false });
      i = j;
    }
  }
  return tokens;
}

function isWord(token: Token | undefined, word: string): boolean {
  return token !== undefined && !token.quoted && token.text.toUpperCase() === word;
}

/** Splits the first parenthesised group into its top-level comma-separated items. */
function parenGroup(tokens: Token[], from: number): { items: Token[][]; end: number } | undefined {
  const open = tokens.findIndex((t, i) => i >= from && !t.quoted && t.text === '(');
  if (open < 0) return undefined;
  const items: Token[][] = [[]];
  let depth = 0;
  for (let i = open + 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.quoted && token.text === '(') depth++;
    if (!token.quoted && token.text === ')') {
      if (depth === 0) return { items, end: i };
      depth--;
    }
    if (depth === 0 && !token.quoted && token.text === ',') items.push([]);
    else items.at(-1)!.push(token);
  }
  return undefined;
}

/** The top-level tokens of an item (those outside nested parentheses). */
function topLevel(item: Token[]): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (const token of item) {
    if (!token.quoted && token.text === '(') depth++;
    else if (!token.quoted && token.text === ')') depth--;
    else if (depth === 0) out.push(token);
  }
  return out;
}

/** An indexed column list; a column with DESC or a non-BINARY collation is marked unusable. */
function indexedColumns(items: Token[][]): string[] {
  return items.map((item) => {
    const [name, ...rest] = item;
    const plain =
      rest.length === 0 ||
      (rest.length === 1 && isWord(rest[0], 'ASC')) ||
      (rest.length === 2 && isWord(rest[0], 'COLLATE') && rest[1]!.text.toUpperCase() === 'BINARY');
    return plain && name !== undefined ? name.text : UNUSABLE;
  });
}

const TABLE_CONSTRAINTS = new Set(['CONSTRAINT', 'PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN']);
const COLUMN_CONSTRAINT_START = new Set([
  'CONSTRAINT',
  'PRIMARY',
  'NOT',
  'NULL',
  'UNIQUE',
  'CHECK',
  'DEFAULT',
  'COLLATE',
  'REFERENCES',
  'GENERATED',
  'AS',
]);

function parseColumn(item: Token[]): ColumnDef {
  const [name, ...rest] = topLevel(item);
  if (name === undefined) corrupt('empty column definition');
  const words = rest.map((t) => (t.quoted ? '' : t.text.toUpperCase()));
  const typeEnd = words.findIndex((w) => COLUMN_CONSTRAINT_START.has(w));
  const declaredType = words.slice(0, typeEnd < 0 ? words.length : typeEnd).join(' ');
  const collateAt = words.indexOf('COLLATE');
  const collation = collateAt < 0 ? undefined : rest[collateAt + 1]?.text;
  const binary = collation === undefined || collation.toUpperCase() === 'BINARY';
  let integerPrimaryKey = false;
  const autoindexColumns: string[] = [];
  words.forEach((word, i) => {
    if (word === 'UNIQUE') autoindexColumns.push(binary ? name.text : UNUSABLE);
    if (word !== 'PRIMARY' || words[i + 1] !== 'KEY') return;
    // An INTEGER PRIMARY KEY is the rowid itself and has no index.
    if (declaredType === 'INTEGER') integerPrimaryKey = true;
    // PRIMARY KEY DESC orders its index backwards, which the seek does not handle.
    else autoindexColumns.push(binary && words[i + 2] !== 'DESC' ? name.text : UNUSABLE);
  });
  return { name: name.text, collation, integerPrimaryKey, autoindexColumns };
}

export function parseCreateTable(sql: string): TableDefinition {
  const tokens = tokenize(sql);
  const group = parenGroup(tokens, 0);
  if (!isWord(tokens[0], 'CREATE') || group === undefined)
    corrupt('unreadable CREATE TABLE statement in sqlite_schema');
  const columns: ColumnDef[] = [];
  const constraints: string[][] = [];
  for (const item of group.items) {
    const first = item[0];
    if (first !== undefined && !first.quoted && TABLE_CONSTRAINTS.has(first.text.toUpperCase())) {
      const kind = topLevel(item).find((t) => isWord(t, 'PRIMARY') || isWord(t, 'UNIQUE'));
      const cols = parenGroup(item, 0);
      if (kind !== undefined && cols !== undefined) constraints.push(indexedColumns(cols.items));
    } else {
      columns.push(parseColumn(item));
    }
  }
  const tail = tokens.slice(group.end + 1);
  const withoutRowid = tail.some((t, i) => isWord(t, 'WITHOUT') && isWord(tail[i + 1], 'ROWID'));
  return { columns, constraints, withoutRowid };
}

/** Column lists of every UNIQUE / PRIMARY KEY constraint in declaration order (one autoindex each). */
export function uniqueConstraints(columns: ColumnDef[], tableConstraints: string[][]): string[][] {
  return [...columns.flatMap((c) => c.autoindexColumns.map((name) => [name])), ...tableConstraints];
}

export interface IndexDefinition {
  unique: boolean;
  partial: boolean;
  columns: string[];
}

export function parseCreateIndex(sql: string): IndexDefinition | undefined {
  const tokens = tokenize(sql);
  const group = parenGroup(tokens, 0);
  if (!isWord(tokens[0], 'CREATE') || group === undefined) return undefined;
  return {
    unique: isWord(tokens[1], 'UNIQUE'),
    partial: tokens.slice(group.end + 1).some((t) => isWord(t, 'WHERE')),
    columns: indexedColumns(group.items),
  };
}
