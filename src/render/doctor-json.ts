import type { AuthReport, EnvironmentReport } from '../doctor/types.js';

export interface DoctorJsonInput {
  environment: EnvironmentReport;
  auth: AuthReport;
  platformName: string;
  appVersion?: string;
  now: Date;
}

const SAFE_DESCRIPTIONS = {
  auth: 'Authentication or setup issue - check provider credentials',
  network: 'Network issue - check connectivity or proxy settings',
  configuration: 'Configuration issue - check the config file',
} as const;

/**
 * The redacted export: CodexBar's `diagnose` object for one provider, keys sorted, plus
 * codexbar's own findings (`node`, `config`, `cache`, `proxy`, `network`, `authSources`, `tokenAccounts`,
 * `doors`, `problems`). It is built from findings that never hold a credential.
 */
export function doctorJson({ environment, auth, platformName, appVersion, now }: DoctorJsonInput): unknown {
  const used = auth.sources.find((source) => source.state === 'used');
  const found = auth.sources.filter((source) => source.state !== 'skipped');
  const category = errorCategory(environment, auth, used !== undefined);
  const report: Record<string, unknown> = {
    schemaVersion: '1.0',
    timestamp: now,
    platform: platformName,
    appVersion,
    provider: 'cursor',
    displayName: 'Cursor',
    source: used ? 'web' : 'failed',
    sourceMode: 'auto',
    auth: {
      configured: auth.mode === 'manual' || auth.accounts.length > 0,
      modes: found.map((source) => source.id),
    },
    fetchAttempts: [{ kind: 'web', wasAvailable: found.length > 0, errorCategory: category }],
    error: category === undefined ? undefined : { category, safeDescription: SAFE_DESCRIPTIONS[category] },
    settings: { sourceMode: 'auto' },
    node: environment.node,
    sqlite: environment.sqlite,
    config: environment.config,
    cache: environment.cache,
    proxy: environment.proxy,
    network: environment.network,
    authSources: auth.sources,
    tokenAccounts: auth.accounts,
    doors: auth.doors,
    problems: [...environment.problems, ...auth.problems],
  };
  return sortKeys(report);
}

function errorCategory(
  environment: EnvironmentReport,
  auth: AuthReport,
  used: boolean,
): keyof typeof SAFE_DESCRIPTIONS | undefined {
  if (used) return undefined;
  if (auth.mode === 'off' || environment.config.issues.some((issue) => issue.severity === 'error')) {
    return 'configuration';
  }
  if (!environment.network.reachable || auth.sources.some((source) => source.state === 'failed'))
    return 'network';
  return 'auth';
}

/** CodexBar sorts the export's keys even when compact. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}
