/**
 * `/metrics`: the served `/usage` and `/cost` rows in the Prometheus text format, through prom-client. A
 * fresh registry per scrape holds only what these rows say, so an account or a model that is gone leaves
 * no series behind; the fetch counts come from ServeData, which keeps them for the server's life. An
 * unknown value has no series, never a 0 (docs/invariants.md, "No unknown price as zero").
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { CostRow } from '../render/cost-json.js';
import type { UsageRow } from '../render/usage-json.js';
import type { Served } from './cache.js';
import type { FetchRecord } from './data-service.js';

export const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsInputs {
  version: string;
  /** Absent for a provider disabled in the config. */
  usage?: Served<UsageRow>;
  cost?: Served<CostRow>;
  fetches: readonly FetchRecord[];
}

/** The account label of a row: its token-account label, else `default`. */
const accountOf = (row: { account?: unknown }): string =>
  typeof row.account === 'string' ? row.account : 'default';

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const BASES = [
  ['apiRateCostUSD', 'api_rate'],
  ['meteredCostUSD', 'metered'],
] as const;

export async function renderMetrics(inputs: MetricsInputs): Promise<string> {
  const registry = new Registry();
  const registers = [registry];
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers });

  new Gauge({
    name: 'codexbar_build_info',
    help: 'The codexbar version serving these metrics (always 1).',
    labelNames: ['version'],
    registers,
  }).set({ version: inputs.version }, 1);

  const used = gauge(
    'codexbar_plan_used_ratio',
    "The plan window's used fraction (1 is 100 %; may exceed 1).",
    ['account', 'window'],
  );
  const resets = gauge('codexbar_plan_reset_timestamp_seconds', 'When the plan window resets (Unix time).', [
    'account',
    'window',
  ]);
  const spend = gauge('codexbar_on_demand_spend_dollars', 'On-demand spend this billing cycle, USD.', [
    'account',
  ]);
  const limit = gauge(
    'codexbar_on_demand_limit_dollars',
    'The on-demand spend limit, USD (none: no series).',
    ['account'],
  );
  for (const row of inputs.usage?.rows ?? []) {
    const usage = row.error ? undefined : row.usage;
    if (!usage) continue;
    const account = accountOf(row);
    const windows: Array<[string, { usedPercent: number; resetsAt?: Date } | null | undefined]> = [
      ['primary', usage.primary],
      ['secondary', usage.secondary],
      ['tertiary', usage.tertiary],
      ...(usage.extraRateWindows ?? []).map(
        (extra) =>
          [extra.id, extra.usageKnown === false ? undefined : extra.window] as [string, typeof extra.window],
      ),
    ];
    for (const [window, figures] of windows) {
      if (!figures) continue;
      if (finite(figures.usedPercent)) used.set({ account, window }, figures.usedPercent / 100);
      const at = figures.resetsAt?.getTime();
      if (finite(at)) resets.set({ account, window }, at / 1000);
    }
    const cost = usage.providerCost;
    if (cost && finite(cost.used)) spend.set({ account }, cost.used);
    if (cost && finite(cost.limit) && cost.limit > 0) limit.set({ account }, cost.limit);
  }

  const total = gauge(
    'codexbar_cost_dollars',
    'Cost over the last 30 days, USD, at API rates or as metered.',
    ['account', 'basis'],
  );
  const byModel = gauge('codexbar_cost_by_model_dollars', 'Cost over the last 30 days by model, USD.', [
    'account',
    'model',
    'basis',
  ]);
  const byKind = gauge('codexbar_cost_by_kind_dollars', 'Cost over the last 30 days by billing kind, USD.', [
    'account',
    'kind',
    'basis',
  ]);
  for (const row of inputs.cost?.rows ?? []) {
    if (row.error) continue;
    const account = accountOf(row);
    for (const [field, basis] of BASES) {
      const value = row[field];
      if (finite(value)) total.set({ account, basis }, value);
    }
    for (const model of Array.isArray(row.byModel) ? (row.byModel as Array<Record<string, unknown>>) : []) {
      if (typeof model.modelName !== 'string') continue;
      for (const [field, basis] of BASES) {
        const value = model[field];
        if (finite(value)) byModel.set({ account, model: model.modelName, basis }, value);
      }
    }
    const kinds = (row.byKind ?? {}) as Record<string, Record<string, unknown> | undefined>;
    for (const [kind, figures] of Object.entries(kinds)) {
      for (const [field, basis] of BASES) {
        const value = figures?.[field];
        if (finite(value)) byKind.set({ account, kind, basis }, value);
      }
    }
  }

  const success = gauge(
    'codexbar_last_success_timestamp_seconds',
    "When the last fetch with a good row for the account ended (Unix time): the served figures' fetch time.",
    ['account', 'data'],
  );
  const errors = new Counter({
    name: 'codexbar_fetch_errors_total',
    help: 'Fetches from cursor.com whose row for the account was an error.',
    labelNames: ['account', 'data'],
    registers,
  });
  for (const record of inputs.fetches) {
    const labels = { account: record.account, data: record.data };
    errors.inc(labels, record.errors);
    if (record.lastSuccessAt !== undefined) success.set(labels, record.lastSuccessAt / 1000);
  }
  return registry.metrics();
}
