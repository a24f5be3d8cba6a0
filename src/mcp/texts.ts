/**
 * The short text beside each tool's structured content: one or two lines an agent (or the person reading
 * its transcript) takes in at a glance. The figures are the structured content's; unknown ones are left out,
 * never 0 (docs/invariants.md, "Fail closed").
 */
import type { CostReport } from '../cost/types.js';
import { formatDuration } from '../lib/duration.js';
import type { Catalog } from '../models/catalog.js';
import { formatTokens, formatUSD } from '../render/format.js';
import type { RateWindow, UsageSnapshot } from '../usage/types.js';

const who = (label: string | undefined) => (label === undefined ? 'Cursor' : `Cursor (${label})`);

function percent(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** `Cursor: Total 45% used (resets …); Cursor 30% used; on-demand $12.34 of $50.00. From the cache, 30s old.` */
export function usageText(
  snapshot: UsageSnapshot,
  label: string | undefined,
  cache: { fetchedAt: Date; fromCache: boolean },
  now: Date,
): string {
  const windows: Array<[string, RateWindow | null]> = [
    [snapshot.labels.primary, snapshot.primary],
    [snapshot.labels.secondary, snapshot.secondary],
    [snapshot.labels.tertiary, snapshot.tertiary],
  ];
  const parts = windows.flatMap(([name, window]) =>
    window
      ? [
          `${name} ${percent(window.usedPercent)}% used${window.resetDescription ? ` (${window.resetDescription})` : ''}`,
        ]
      : [],
  );
  const cost = snapshot.providerCost;
  if (cost) parts.push(`on-demand ${formatUSD(cost.used)} of ${formatUSD(cost.limit)}`);
  const line = `${who(label)}: ${parts.length > 0 ? parts.join('; ') : 'no usage windows'}.`;
  return cache.fromCache ? `${line}\nFrom the cache, fetched ${age(cache.fetchedAt, now)} ago.` : line;
}

export function budgetText(result: {
  account?: string;
  window: string;
  decision: string;
  remainingPercent?: number;
  minimumRemainingPercent: number;
  unavailableReason?: string;
  message?: string;
}): string {
  const what = `${who(result.account)} ${result.window} window`;
  if (result.decision !== 'unknown') {
    const left = `${percent(result.remainingPercent ?? 0)}% left`;
    return `${result.decision}: ${what} has ${left} (minimum ${result.minimumRemainingPercent}%)`;
  }
  const line = `unknown: ${what} is unavailable (${result.unavailableReason})`;
  return result.message ? `${line}\n${result.message}` : line;
}

/** `Cursor, Last 30 days: $12.34 at API list prices, $5.67 metered, 1.2M tokens, 340 requests.` */
export function costText(report: CostReport, label: string | undefined): string {
  const parts: string[] = [];
  if (report.totals.costUSD !== null) parts.push(`${formatUSD(report.totals.costUSD)} at API list prices`);
  if (report.meteredCostUSD !== null) parts.push(`${formatUSD(report.meteredCostUSD)} metered`);
  if (report.totals.totalTokens !== null) parts.push(`${formatTokens(report.totals.totalTokens)} tokens`);
  parts.push(`${report.eventCount} requests`);
  return `${who(label)}, ${report.window.label}: ${parts.join(', ')}.`;
}

export function modelsText(catalog: Catalog, fetchedAt: Date, fromCache: boolean, now: Date): string {
  const count = catalog.models.length;
  const line = `${count} models; ${catalog.unpriced} of them have no list price.`;
  return fromCache ? `${line} Cached, fetched ${age(fetchedAt, now)} ago.` : line;
}

function age(fetchedAt: Date, now: Date): string {
  return formatDuration(Math.max(0, Math.floor((now.getTime() - fetchedAt.getTime()) / 1000)));
}
