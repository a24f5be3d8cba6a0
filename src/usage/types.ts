/**
 * The usage snapshot: what `codexbar usage` knows after mapping cursor.com's responses. Renderers turn it
 * into text or CodexBar's JSON row.
 */

export interface RateWindow {
  /** Percent used; may exceed 100 for legacy request plans. */
  usedPercent: number;
  windowMinutes?: number;
  resetsAt?: Date;
  resetDescription?: string;
  /** The numbers `resetDescription` shows, so text can tell an impossible one; not in JSON. */
  figures?: number[];
}

export interface ExtraRateWindow {
  id: string;
  title: string;
  window: RateWindow;
  /** Only `false` is ever emitted in JSON. */
  usageKnown?: boolean;
  /** Paid weekly Grok Bot allowances get a pace line; trial extras do not. */
  showsPace?: boolean;
}

export interface ProviderCost {
  used: number;
  limit: number;
  currencyCode: 'USD';
  period?: string;
  resetsAt?: Date;
  /** The member's own share when the figures are a team pool. */
  personalUsed?: number;
  updatedAt: Date;
}

/** Dollars, as the team spend endpoint reports them for the signed-in member. */
export interface MemberBudget {
  used: number;
  limit: number;
}

export interface DetailRow {
  label: string;
  value: string;
  secondaryValue?: string;
  /** The numbers `value` shows, so text can tell an impossible one; not in JSON. */
  figures?: number[];
}

export interface DetailSection {
  title?: string;
  rows: DetailRow[];
}

export interface Identity {
  providerID: 'cursor';
  accountEmail?: string;
  accountOrganization?: string;
  loginMethod?: string;
  accountID?: string;
}

export interface WindowLabels {
  /** "Total", or "Weekly" when the unified Cursor/Grok pool is primary. */
  primary: string;
  secondary: string;
  tertiary: string;
}

export interface UsageSnapshot {
  primary: RateWindow | null;
  secondary: RateWindow | null;
  tertiary: RateWindow | null;
  labels: WindowLabels;
  extraRateWindows: ExtraRateWindow[];
  providerCost?: ProviderCost;
  /** The verified team member budget the primary percent was computed from. */
  memberBudget?: MemberBudget;
  details: DetailSection[];
  updatedAt: Date;
  identity: Identity;
  /** Which door the figures came through: api2's Connect RPCs (`rpc`), else cursor.com (absent: `web`). */
  source?: 'web' | 'rpc';
}

export const DEFAULT_LABELS: WindowLabels = {
  primary: 'Total',
  secondary: 'Cursor',
  tertiary: 'Third Party',
};
