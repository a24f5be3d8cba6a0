/**
 * The usage snapshot file, version 1 (docs/behaviour.md §26.2): everything `usage` text and JSON and
 * `statusline` need, plus when it was fetched, from where and for which account. Dates are ISO-8601 with
 * milliseconds. No token, cookie or key is ever part of it. Zod-free: the statusline fast path reads it.
 */

export const SNAPSHOT_VERSION = 1;

export interface WindowFile {
  usedPercent: number;
  windowMinutes?: number;
  resetsAt?: string;
  resetDescription?: string;
}

export interface SnapshotFile {
  version: typeof SNAPSHOT_VERSION;
  /** The account key (docs/behaviour.md §25.2) the file name is made of, checked again on read. */
  account: string;
  fetchedAt: string;
  /** The cursor.com base URL the figures came from: a snapshot from another server is never shown. */
  baseUrl: string;
  /** The zone `resetDescription` was written in. */
  timeZone: string;
  snapshot: {
    primary: WindowFile | null;
    secondary: WindowFile | null;
    tertiary: WindowFile | null;
    labels: { primary: string; secondary: string; tertiary: string };
    extraRateWindows: Array<{
      id: string;
      title: string;
      window: WindowFile;
      usageKnown?: boolean;
      showsPace?: boolean;
    }>;
    providerCost?: {
      used: number;
      limit: number;
      currencyCode: 'USD';
      period?: string;
      resetsAt?: string;
      personalUsed?: number;
      updatedAt: string;
    };
    details: Array<{
      title?: string;
      rows: Array<{ label: string; value: string; secondaryValue?: string }>;
    }>;
    updatedAt: string;
    identity: {
      providerID: 'cursor';
      accountEmail?: string;
      accountOrganization?: string;
      loginMethod?: string;
      accountID?: string;
    };
  };
}

/** Exactly what `Date#toISOString()` writes for a real date (no Feb 30): the only date form the file holds. */
export function isIsoInstant(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** A 32-hex-digit account key (docs/behaviour.md §25.2). */
export const ACCOUNT_KEY = /^[0-9a-f]{32}$/;
