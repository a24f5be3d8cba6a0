/**
 * The dashboard-v1 snapshot, built from the `/usage` and `/cost` answers so
 * it never fetches on its own and always agrees with them.
 */
import type { JsonErrorBody } from '../errors.js';
import type { PaceJson, UsageJson, UsageRow } from '../render/usage-json.js';
import type { CacheState, Served } from './cache.js';
import type { IdentityMode } from './settings.js';

type WindowJson = NonNullable<UsageJson['primary']>;

export interface SnapshotInputs {
  version: string;
  generatedAt: Date;
  refreshIntervalSeconds: number;
  identity: IdentityMode;
  enabled: boolean;
  source: string;
  /** Absent for `detail=shell` and for a disabled provider. */
  usage?: Served<UsageRow>;
  cost?: Served<Record<string, unknown>>;
  /** The cache clock's now, for `ageSeconds`. */
  nowMs: number;
}

const WEEK_MINUTES = 10_080;

export function buildSnapshot(inputs: SnapshotInputs): Record<string, unknown> {
  return {
    schemaVersion: 1,
    generatedAt: inputs.generatedAt,
    staleAfterSeconds: inputs.refreshIntervalSeconds,
    host: { codexBarVersion: inputs.version, refreshIntervalSeconds: inputs.refreshIntervalSeconds },
    providers: [providerRow(inputs)],
  };
}

function providerRow(inputs: SnapshotInputs): Record<string, unknown> {
  const shell = {
    id: 'cursor',
    name: 'Cursor',
    enabled: inputs.enabled,
    source: inputs.source,
    status: null,
    identity: null,
    windows: [],
    credits: null,
    cost: null,
    display: { iconURL: '/icons/cursor.svg', dashboardURL: 'https://cursor.com/dashboard' },
    error: null,
    updatedAt: null,
  };
  const usageRow = inputs.usage?.rows[0];
  if (!inputs.usage || !usageRow) return shell;
  const { usage } = usageRow;
  const costRow = inputs.cost?.rows[0];
  const error = usageRow.error ?? (costRow?.error as JsonErrorBody | undefined);
  return {
    ...shell,
    identity: usage ? identityOf(usage, inputs.identity) : null,
    windows: usage ? windowsOf(usage, usageRow.pace) : [],
    cost: {
      onDemand: usage?.providerCost,
      memberBudget: usage?.memberBudget,
      last30Days: costRow && !costRow.error ? last30Days(costRow) : undefined,
      cache: cacheOf(inputs.cost, inputs.nowMs),
    },
    error: error ? { message: error.message } : null,
    updatedAt: usage?.updatedAt ?? null,
    cache: cacheOf(inputs.usage, inputs.nowMs),
  };
}

function cacheOf(
  served: Served<unknown> | undefined,
  nowMs: number,
): { state: CacheState; ageSeconds: number } | null {
  if (!served) return null;
  return { state: served.state, ageSeconds: Math.max(0, Math.floor((nowMs - served.fetchedAt) / 1000)) };
}

function identityOf(usage: UsageJson, mode: IdentityMode): Record<string, unknown> {
  const identity = usage.identity ?? {};
  if (mode === 'redacted') return { plan: identity.loginMethod };
  return { email: identity.accountEmail, plan: identity.loginMethod, accountID: identity.accountID };
}

/** The labels `codexbar usage` prints; the unified weekly pool is the only 7-day primary window. */
function primaryLabel(usage: UsageJson): string {
  const weekly = usage.primary?.windowMinutes === WEEK_MINUTES && !usage.secondary && !usage.tertiary;
  return weekly ? 'Weekly' : 'Total';
}

function windowsOf(usage: UsageJson, pace: PaceJson | undefined): Array<Record<string, unknown>> {
  const windows: Array<Record<string, unknown>> = [];
  const add = (id: string, label: string, window: WindowJson | null | undefined, paceEntry: unknown) => {
    if (!window) return;
    windows.push({
      id,
      label,
      usedPercent: window.usedPercent,
      remainingPercent: Math.max(0, 100 - window.usedPercent),
      windowMinutes: window.windowMinutes,
      resetsAt: window.resetsAt,
      resetDescription: window.resetDescription,
      pace: paceEntry ?? undefined,
    });
  };
  const extraPace: Record<string, unknown> = pace?.extra ?? {};
  add('primary', primaryLabel(usage), usage.primary, pace?.primary);
  add('secondary', 'Cursor', usage.secondary, pace?.secondary);
  add('tertiary', 'Third Party', usage.tertiary, pace?.tertiary);
  for (const extra of usage.extraRateWindows ?? [])
    add(extra.id, extra.title, extra.window, extraPace[extra.id]);
  return windows;
}

function last30Days(row: Record<string, unknown>): Record<string, unknown> {
  return { apiRateUSD: row.last30DaysCostUSD, meteredUSD: row.meteredCostUSD, tokens: row.last30DaysTokens };
}
