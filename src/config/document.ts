import { z } from 'zod';
import { readJsonFile } from '../local/read-file.js';
import { type ConfigFile, configFileSchema } from './schema.js';

/**
 * The config file as it is on disk: the raw JSON (every key kept, so a write can preserve what CodexBar or a
 * newer codexbar put there) next to its checked form.
 */
export type ConfigDocument =
  | { kind: 'missing'; path: string }
  | { kind: 'unreadable'; path: string; reason: string }
  /** Not JSON, or JSON of the wrong shape; `reason` names places and types, never a value. */
  | { kind: 'invalid'; path: string; reason: string }
  | { kind: 'ok'; path: string; raw: Record<string, unknown>; file: ConfigFile };

/** `limit`: the read cap, 1 MiB but for the commands that may shrink an oversized file (config/write.ts). */
export async function readConfigDocument(path: string, limit?: number): Promise<ConfigDocument> {
  const read = await readJsonFile(path, z.unknown(), 'JSON', limit);
  switch (read.kind) {
    case 'missing':
      return { kind: 'missing', path };
    case 'unreadable':
      return { kind: 'unreadable', path, reason: read.reason };
    case 'malformed':
      return { kind: 'invalid', path, reason: read.reason };
    case 'ok':
      break;
  }
  const parsed = configFileSchema.safeParse(read.value);
  if (!parsed.success) {
    const reason = parsed.error.issues
      .slice(0, 3)
      .map((issue) => describeIssue(issue, read.value))
      .join('; ');
    return { kind: 'invalid', path, reason };
  }
  return { kind: 'ok', path, raw: read.value as Record<string, unknown>, file: parsed.data };
}

/** What `loadConfig` throws and `config validate` reports for a file it cannot use. */
export function configFailure(document: Extract<ConfigDocument, { reason: string }>): string {
  const verb = document.kind === 'unreadable' ? 'read' : 'decode';
  return `Failed to ${verb} CodexBar config at ${document.path}: ${document.reason}`;
}

/** Types and option lists only: zod's own messages are avoided so no value from the file is ever echoed. */
function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const where = issue.path.length === 0 ? 'top level' : issue.path.map(String).join('.');
  if (issue.code === 'invalid_type') {
    const received = valueAt(root, issue.path);
    return received === undefined
      ? `${where}: missing (expected ${issue.expected})`
      : `${where}: expected ${issue.expected}, got ${typeName(received)}`;
  }
  if (issue.code === 'invalid_value')
    return `${where}: expected one of ${issue.values.map(String).join('|')}`;
  return `${where}: invalid value`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
