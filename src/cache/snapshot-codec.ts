import type { ExtraRateWindow, ProviderCost, RateWindow, UsageSnapshot } from '../usage/types.js';
import { SNAPSHOT_VERSION, type SnapshotFile, type WindowFile } from './snapshot-file.js';

/** Between the in-memory usage snapshot and its file form. Zod-free. */

export interface SnapshotMeta {
  account: string;
  fetchedAt: Date;
  baseUrl: string;
  timeZone: string;
}

export interface CachedSnapshot extends SnapshotMeta {
  snapshot: UsageSnapshot;
}

export function encodeSnapshot(snapshot: UsageSnapshot, meta: SnapshotMeta): SnapshotFile {
  const cost = snapshot.providerCost;
  return {
    version: SNAPSHOT_VERSION,
    account: meta.account,
    fetchedAt: meta.fetchedAt.toISOString(),
    baseUrl: meta.baseUrl,
    timeZone: meta.timeZone,
    snapshot: {
      primary: snapshot.primary && encodeWindow(snapshot.primary),
      secondary: snapshot.secondary && encodeWindow(snapshot.secondary),
      tertiary: snapshot.tertiary && encodeWindow(snapshot.tertiary),
      labels: { ...snapshot.labels },
      extraRateWindows: snapshot.extraRateWindows.map((extra) =>
        defined({
          id: extra.id,
          title: extra.title,
          window: encodeWindow(extra.window),
          usageKnown: extra.usageKnown,
          showsPace: extra.showsPace,
        }),
      ),
      providerCost:
        cost &&
        defined({
          used: cost.used,
          limit: cost.limit,
          currencyCode: cost.currencyCode,
          period: cost.period,
          resetsAt: cost.resetsAt?.toISOString(),
          personalUsed: cost.personalUsed,
          updatedAt: cost.updatedAt.toISOString(),
        }),
      details: snapshot.details.map((section) =>
        defined({
          title: section.title,
          rows: section.rows.map((row) =>
            defined({ label: row.label, value: row.value, secondaryValue: row.secondaryValue }),
          ),
        }),
      ),
      updatedAt: snapshot.updatedAt.toISOString(),
      identity: defined({ ...snapshot.identity }),
      ...(snapshot.source === 'rpc' ? { source: 'rpc' as const } : {}),
    },
  };
}

/** The file, already checked (`isSnapshotFile`), back to the model. */
export function decodeSnapshot(file: SnapshotFile): CachedSnapshot {
  const data = file.snapshot;
  const cost = data.providerCost;
  const providerCost: ProviderCost | undefined = cost && {
    ...cost,
    resetsAt: optionalDate(cost.resetsAt),
    updatedAt: new Date(cost.updatedAt),
  };
  const snapshot: UsageSnapshot = {
    primary: data.primary && decodeWindow(data.primary),
    secondary: data.secondary && decodeWindow(data.secondary),
    tertiary: data.tertiary && decodeWindow(data.tertiary),
    labels: { ...data.labels },
    extraRateWindows: data.extraRateWindows.map(
      (extra): ExtraRateWindow => defined({ ...extra, window: decodeWindow(extra.window) }),
    ),
    details: data.details.map((section) => ({ ...section, rows: section.rows.map((row) => ({ ...row })) })),
    updatedAt: new Date(data.updatedAt),
    identity: { ...data.identity },
  };
  if (providerCost) snapshot.providerCost = defined(providerCost);
  if (data.source === 'rpc') snapshot.source = 'rpc';
  return {
    account: file.account,
    fetchedAt: new Date(file.fetchedAt),
    baseUrl: file.baseUrl,
    timeZone: file.timeZone,
    snapshot,
  };
}

function encodeWindow(window: RateWindow): WindowFile {
  return defined({
    usedPercent: window.usedPercent,
    windowMinutes: window.windowMinutes,
    resetsAt: window.resetsAt?.toISOString(),
    resetDescription: window.resetDescription,
  });
}

function decodeWindow(window: WindowFile): RateWindow {
  return defined({ ...window, resetsAt: optionalDate(window.resetsAt) });
}

function optionalDate(text: string | undefined): Date | undefined {
  return text === undefined ? undefined : new Date(text);
}

/** Drops keys whose value is undefined, so the file and the model never carry explicit undefineds. */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}
