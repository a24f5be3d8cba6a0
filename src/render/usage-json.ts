/**
 * The `usage --json` row (docs/behaviour.md §16). Objects are built in CodexBar's encoding order so
 * compact output follows it; `--pretty` sorts keys anyway. Absent optionals are left undefined and
 * dropped by the encoder; `primary`/`secondary`/`tertiary` are always present, null when missing.
 */

import type { ProviderStatus } from '../api/status-page.js';
import { errorBody, type JsonErrorBody } from '../errors.js';
import type {
  DetailSection,
  ExtraRateWindow,
  Identity,
  ProviderCost,
  RateWindow,
  UsageSnapshot,
} from '../usage/types.js';
import { type Pace, snapshotPace } from './window-pace.js';

export interface UsageRow {
  provider: string;
  /** The token-account label, when one supplied the session (docs/behaviour.md §27.3). */
  account?: string;
  source: string;
  /** With `--status` (docs/behaviour.md §27.6). */
  status?: Record<string, unknown>;
  usage?: Record<string, unknown>;
  error?: JsonErrorBody;
  pace?: Record<string, unknown>;
}

/** What a row may carry besides the usage: the token account and the status page (docs/behaviour.md §27). */
export interface RowExtras {
  account?: string;
  status?: ProviderStatus;
}

/** A successful Cursor row; `now` is the instant pace is measured at. */
export function usageRow(snapshot: UsageSnapshot, now: Date, extras: RowExtras = {}): UsageRow {
  return {
    provider: 'cursor',
    account: extras.account,
    source: 'web',
    status: statusObject(extras.status),
    usage: usageObject(snapshot),
    pace: paceObject(snapshot, now),
  };
}

/** A failed provider row: `source` is the mode as given (`auto`, `web`, …), docs/behaviour.md §3.9. */
export function usageErrorRow(error: unknown, source: string, extras: RowExtras = {}): UsageRow {
  return {
    provider: 'cursor',
    account: extras.account,
    source,
    status: statusObject(extras.status),
    error: errorBody(error),
  };
}

/** CodexBar's `status`: `{indicator, description?, updatedAt?, url}`. */
function statusObject(status: ProviderStatus | undefined): Record<string, unknown> | undefined {
  if (!status) return undefined;
  return {
    indicator: status.indicator,
    description: status.description,
    updatedAt: status.updatedAt,
    url: status.url,
  };
}

/**
 * A command-level failure (bad flags, config): provider and source are both `cli` (docs/behaviour.md §3.9).
 */
export function cliErrorRow(error: unknown): UsageRow {
  return { provider: 'cli', source: 'cli', error: errorBody(error) };
}

function usageObject(snapshot: UsageSnapshot): Record<string, unknown> {
  const { identity } = snapshot;
  const details = snapshot.details.filter((section) => section.rows.length > 0);
  return {
    primary: windowObject(snapshot.primary),
    secondary: windowObject(snapshot.secondary),
    tertiary: windowObject(snapshot.tertiary),
    extraRateWindows:
      snapshot.extraRateWindows.length > 0 ? snapshot.extraRateWindows.map(extraWindowObject) : undefined,
    providerCost: snapshot.providerCost ? providerCostObject(snapshot.providerCost) : undefined,
    // Additive (docs/behaviour.md §3.10): the member budget behind a team plan's primary percent.
    memberBudget: snapshot.memberBudget
      ? { used: snapshot.memberBudget.used, limit: snapshot.memberBudget.limit, currencyCode: 'USD' }
      : undefined,
    details: details.length > 0 ? details.map(detailObject) : undefined,
    updatedAt: snapshot.updatedAt,
    identity: identityObject(identity),
    accountEmail: identity.accountEmail,
    accountOrganization: identity.accountOrganization,
    loginMethod: identity.loginMethod,
  };
}

function windowObject(window: RateWindow | null): Record<string, unknown> | null {
  if (!window) return null;
  return {
    usedPercent: window.usedPercent,
    windowMinutes: window.windowMinutes,
    resetsAt: window.resetsAt,
    resetDescription: window.resetDescription,
  };
}

function extraWindowObject(extra: ExtraRateWindow): Record<string, unknown> {
  return {
    id: extra.id,
    title: extra.title,
    window: windowObject(extra.window),
    // docs/behaviour.md §16.2: only `false` is ever emitted.
    usageKnown: extra.usageKnown === false ? false : undefined,
  };
}

function providerCostObject(cost: ProviderCost): Record<string, unknown> {
  return {
    used: cost.used,
    limit: cost.limit,
    currencyCode: cost.currencyCode,
    period: cost.period,
    resetsAt: cost.resetsAt,
    personalUsed: cost.personalUsed,
    updatedAt: cost.updatedAt,
  };
}

function detailObject(section: DetailSection): Record<string, unknown> {
  return {
    title: section.title,
    rows: section.rows.map((row) => ({
      label: row.label,
      value: row.value,
      secondaryValue: row.secondaryValue,
    })),
  };
}

function identityObject(identity: Identity): Record<string, unknown> {
  return {
    providerID: identity.providerID,
    accountEmail: identity.accountEmail,
    accountOrganization: identity.accountOrganization,
    loginMethod: identity.loginMethod,
    accountID: identity.accountID,
  };
}

/** docs/behaviour.md §16.3: only windows that qualify; the whole key is omitted when none does. */
function paceObject(snapshot: UsageSnapshot, now: Date): Record<string, unknown> | undefined {
  const pace = snapshotPace(snapshot, now);
  const extra = [...pace.extra].map(([id, entry]) => [id, paceEntry(entry)] as const);
  const object = {
    primary: pace.primary && paceEntry(pace.primary),
    secondary: pace.secondary && paceEntry(pace.secondary),
    tertiary: pace.tertiary && paceEntry(pace.tertiary),
    // Additive (docs/behaviour.md §3.10, §16.3): paid weekly Grok Bot pace, keyed by the extra window's id.
    extra: extra.length > 0 ? Object.fromEntries(extra) : undefined,
  };
  return Object.values(object).some((entry) => entry !== undefined) ? object : undefined;
}

/**
 * `runOutProbability` and `actualUsedPercent` are never emitted (docs/behaviour.md §16.3); computePace
 * already rounds the numbers to whole values, so this only fixes the key order.
 */
function paceEntry(pace: Pace): Record<string, unknown> {
  return {
    stage: pace.stage,
    deltaPercent: pace.deltaPercent,
    expectedUsedPercent: pace.expectedUsedPercent,
    willLastToReset: pace.willLastToReset,
    etaSeconds: pace.etaSeconds,
    summary: pace.summary,
  };
}
