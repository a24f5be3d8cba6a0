import { cleanValue } from './clean.js';
import { type ConfigDocument, configFailure } from './document.js';
import type { ConfigFile } from './schema.js';

/** One finding of `config validate`, CodexBar's shape. */
export interface ConfigIssue {
  severity: 'warning' | 'error';
  provider?: string;
  field?: string;
  code: string;
  message: string;
}

/**
 * The config file's issues: a file that cannot be read or decoded is one error; otherwise CodexBar's checks
 * that apply to Cursor, plus codexbar's own token-account checks. A missing file has none (the defaults).
 */
export function validateConfigDocument(document: ConfigDocument): ConfigIssue[] {
  switch (document.kind) {
    case 'missing':
      return [];
    case 'unreadable':
    case 'invalid': {
      const code = document.kind === 'unreadable' ? 'unreadable' : 'decode_failed';
      return [{ severity: 'error', code, message: configFailure(document) }];
    }
    case 'ok':
      return validateConfigFile(document.file);
  }
}

type CursorEntry = ConfigFile['providers'][number] & Record<string, unknown>;

/** CodexBar's warnings for fields Cursor has no use for: [field, code, message]. */
const UNUSED_FIELDS = [
  ['secretKey', 'secret_key_unused', 'secretKey is set but only bedrock and doubao use secretKey.'],
  ['region', 'region_unused', 'region is set but cursor does not use regions.'],
  ['workspaceID', 'workspace_unused', 'workspaceID is set but cursor does not use workspaceID.'],
  [
    'enterpriseHost',
    'enterprise_host_unused',
    'enterpriseHost is set but cursor does not use enterpriseHost.',
  ],
] as const;

function validateConfigFile(file: ConfigFile): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (file.version !== 1) {
    issues.push({
      severity: 'error',
      field: 'version',
      code: 'version_mismatch',
      message: `Unsupported config version ${file.version}.`,
    });
  }
  const entry = file.providers.find((provider) => provider.id === 'cursor') as CursorEntry | undefined;
  if (entry === undefined) return issues;
  const add = (severity: ConfigIssue['severity'], field: string, code: string, message: string) =>
    issues.push({ severity, provider: 'cursor', field, code, message });

  if (entry.source === 'oauth' || entry.source === 'api') {
    add('error', 'source', 'unsupported_source', `Source ${entry.source} is not supported for cursor.`);
  }
  if (entry.source === 'api') {
    add('error', 'source', 'api_source_unsupported', 'Source api is not supported for cursor.');
  }
  if (entry.cookieSource === 'manual' && !entry.cookieHeader?.trim()) {
    add(
      'warning',
      'cookieHeader',
      'cookie_header_missing',
      'cookieSource manual is set but cookieHeader is missing for cursor.',
    );
  }
  for (const [field, code, message] of UNUSED_FIELDS) {
    if (nonBlank(entry[field])) add('warning', field, code, message);
  }
  issues.push(...tokenAccountIssues(entry));
  return issues;
}

/** codexbar's own checks: what would make `--account` or the active account surprising. */
function tokenAccountIssues(entry: CursorEntry): ConfigIssue[] {
  const data = entry.tokenAccounts;
  if (!data || data.accounts.length === 0) return [];
  const issues: ConfigIssue[] = [];
  const add = (code: string, message: string) =>
    issues.push({ severity: 'warning', provider: 'cursor', field: 'tokenAccounts', code, message });
  const count = data.accounts.length;
  if (data.activeIndex < 0 || data.activeIndex >= count) {
    const used = Math.min(Math.max(data.activeIndex, 0), count - 1) + 1;
    add(
      'active_index_out_of_range',
      `tokenAccounts.activeIndex ${data.activeIndex} is outside 0-${count - 1}; account ${used} is used.`,
    );
  }
  const seen = new Set<string>();
  for (const account of data.accounts) {
    const key = account.label.trim().toLowerCase();
    if (seen.has(key)) {
      add(
        'duplicate_account_label',
        `Token account label '${account.label.trim()}' is used more than once; --account picks the first.`,
      );
    } else seen.add(key);
    if (key === '')
      add('empty_account_label', 'A token account has an empty label; only --account-index can pick it.');
    if (cleanValue(account.token) === undefined) {
      add('empty_account_token', `Token account '${account.label.trim()}' has an empty token.`);
    }
  }
  return issues;
}

function nonBlank(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
