/**
 * The `usage --json` row (docs/invariants.md, "CodexBar's JSON, only ever added to"). Objects are built
 * in CodexBar's encoding order so compact output follows it; `--pretty` sorts keys anyway. Absent
 * optionals are left undefined and dropped by the encoder; `primary`/`secondary`/`tertiary` are always
 * present, null when missing.
 */

import type { ProviderStatus } from '../api/status-page.js';
import { errorBody, type JsonErrorBody } from '../errors.js';
import { computePace } from '../usage/pace.js';
import type { DetailSection, ExtraRateWindow, RateWindow, UsageSnapshot } from '../usage/types.js';

export interface UsageRow {
  provider: string;
  /** The token-account label, when one supplied the session. */
  account?: string;
  source: string;
  /** With `--status`. */
  status?: Record<string, unknown>;
  usage?: UsageJson;
  error?: JsonErrorBody;
  pace?: PaceJson;
}

/** The `usage` object and the `pace` object, as built here (the dashboard snapshot reads them). */
export type UsageJson = ReturnType<typeof usageObject>;
export type PaceJson = NonNullable<ReturnType<typeof paceObject>>;

/** What a row may carry besides the usage: the token account and the status page. */
export interface RowExtras {
  account?: string;
  status?: ProviderStatus;
}

/** A successful Cursor row; `now` is the instant pace is measured at. */
export function usageRow(snapshot: UsageSnapshot, now: Date, extras: RowExtras = {}): UsageRow {
  return {
    provider: 'cursor',
    account: extras.account,
    // docs/json.md: `rpc` when the figures came through api2's Connect RPCs.
    source: snapshot.source ?? 'web',
    status: extras.status && pick(extras.status, STATUS_KEYS),
    usage: usageObject(snapshot),
    pace: paceObject(snapshot, now),
  };
}

/** A failed provider row: `source` is the mode as given (`auto`, `web`, …). */
export function usageErrorRow(error: unknown, source: string, extras: RowExtras = {}): UsageRow {
  return {
    provider: 'cursor',
    account: extras.account,
    source,
    status: extras.status && pick(extras.status, STATUS_KEYS),
    error: errorBody(error),
  };
}

/** A command-level failure (bad flags, config): provider and source are both `cli`. */
export function cliErrorRow(error: unknown): UsageRow {
  return { provider: 'cli', source: 'cli', error: errorBody(error) };
}

function usageObject(snapshot: UsageSnapshot) {
  const { identity } = snapshot;
  const details = snapshot.details.filter((section) => section.rows.length > 0);
  return {
    primary: windowObject(snapshot.primary),
    secondary: windowObject(snapshot.secondary),
    tertiary: windowObject(snapshot.tertiary),
    extraRateWindows:
      snapshot.extraRateWindows.length > 0 ? snapshot.extraRateWindows.map(extraWindowObject) : undefined,
    providerCost: snapshot.providerCost && pick(snapshot.providerCost, COST_KEYS),
    // Additive: the member budget behind a team plan's primary percent.
    memberBudget: snapshot.memberBudget
      ? { used: snapshot.memberBudget.used, limit: snapshot.memberBudget.limit, currencyCode: 'USD' }
      : undefined,
    details: details.length > 0 ? details.map(detailObject) : undefined,
    updatedAt: snapshot.updatedAt,
    identity: pick(identity, IDENTITY_KEYS),
    accountEmail: identity.accountEmail,
    accountOrganization: identity.accountOrganization,
    loginMethod: identity.loginMethod,
  };
}

// Each object's fields in CodexBar's encoding order, and nothing else the model carries (the encoder drops
// undefined ones).
const STATUS_KEYS = ['indicator', 'description', 'updatedAt', 'url'] as const;
const WINDOW_KEYS = ['usedPercent', 'windowMinutes', 'resetsAt', 'resetDescription'] as const;
const COST_KEYS = [
  'used',
  'limit',
  'currencyCode',
  'period',
  'resetsAt',
  'personalUsed',
  'updatedAt',
] as const;
const DETAIL_ROW_KEYS = ['label', 'value', 'secondaryValue'] as const;
const IDENTITY_KEYS = [
  'providerID',
  'accountEmail',
  'accountOrganization',
  'loginMethod',
  'accountID',
] as const;
const PACE_KEYS = [
  'stage',
  'deltaPercent',
  'expectedUsedPercent',
  'willLastToReset',
  'etaSeconds',
  'summary',
] as const;

function pick<T, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = source[key];
  return picked;
}

function windowObject(window: RateWindow | null) {
  return window && pick(window, WINDOW_KEYS);
}

function extraWindowObject(extra: ExtraRateWindow) {
  return {
    id: extra.id,
    title: extra.title,
    window: windowObject(extra.window),
    // Only `false` is ever emitted.
    usageKnown: extra.usageKnown === false ? false : undefined,
  };
}

function detailObject(section: DetailSection) {
  return {
    title: section.title,
    rows: section.rows.map((row) => pick(row, DETAIL_ROW_KEYS)),
  };
}

/**
 * `pace`: only windows that qualify; the whole key is omitted when none does. An extra window is paced only
 * when flagged `showsPace` (the paid weekly Grok Bot allowance): upstream never paces extras; ours is an
 * additive choice.
 */
function paceObject(snapshot: UsageSnapshot, now: Date) {
  // `runOutProbability` and `actualUsedPercent` are never emitted; computePace
  // already rounds the numbers to whole values, so this only fixes the key order.
  const paced = (window: RateWindow | null) => {
    const pace = window && computePace(window, now);
    return pace ? pick(pace, PACE_KEYS) : undefined;
  };
  const extra = new Map<string, NonNullable<ReturnType<typeof paced>>>();
  for (const entry of snapshot.extraRateWindows) {
    const pace = entry.showsPace ? paced(entry.window) : undefined;
    if (pace) extra.set(entry.id, pace);
  }
  const object = {
    primary: paced(snapshot.primary),
    secondary: paced(snapshot.secondary),
    tertiary: paced(snapshot.tertiary),
    // Additive: paid weekly Grok Bot pace, keyed by the extra window's id.
    extra: extra.size > 0 ? Object.fromEntries(extra) : undefined,
  };
  return Object.values(object).some((entry) => entry !== undefined) ? object : undefined;
}
