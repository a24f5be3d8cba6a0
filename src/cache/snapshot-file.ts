/**
 * The usage snapshot file, version 1 (docs/invariants.md, "When a snapshot may be trusted"): everything
 * `usage` text and JSON and `statusline` need, plus when it was fetched, from where and for which account.
 * Dates are ISO-8601 with milliseconds. No token, cookie or key is ever part of it.
 *
 * `isSnapshotFile` is its one check, by hand rather than zod, since the statusline fast path reads it and
 * must not load zod; the full CLI trusts the same check. Like a zod object, it ignores keys it does not list.
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
  /** The account key the file name is made of, checked again on read. */
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
    /** `rpc` when the figures came through api2; absent (older files too) means cursor.com. */
    source?: 'web' | 'rpc';
  };
}

/** Exactly what `Date#toISOString()` writes for a real date (no Feb 30): the only date form the file holds. */
function isIsoInstant(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** A 32-hex-digit account key. */
export const ACCOUNT_KEY = /^[0-9a-f]{32}$/;

type Check = (value: unknown) => boolean;

const text: Check = (value) => typeof value === 'string';
const count: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const flag: Check = (value) => typeof value === 'boolean';
const instant: Check = (value) => typeof value === 'string' && isIsoInstant(value);
const exactly =
  (expected: unknown): Check =>
  (value) =>
    value === expected;
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const list =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** Like zod's object: the listed keys must check, other keys are ignored, arrays are not objects. */
const object =
  (shape: Record<string, Check>): Check =>
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(shape).every(([key, check]) => check((value as Record<string, unknown>)[key]));

const window = object({
  usedPercent: count,
  windowMinutes: optional(count),
  resetsAt: optional(instant),
  resetDescription: optional(text),
});

const snapshotFile = object({
  version: exactly(SNAPSHOT_VERSION),
  account: (value) => typeof value === 'string' && ACCOUNT_KEY.test(value),
  fetchedAt: instant,
  baseUrl: text,
  timeZone: text,
  snapshot: object({
    primary: nullable(window),
    secondary: nullable(window),
    tertiary: nullable(window),
    labels: object({ primary: text, secondary: text, tertiary: text }),
    extraRateWindows: list(
      object({ id: text, title: text, window, usageKnown: optional(flag), showsPace: optional(flag) }),
    ),
    providerCost: optional(
      object({
        used: count,
        limit: count,
        currencyCode: exactly('USD'),
        period: optional(text),
        resetsAt: optional(instant),
        personalUsed: optional(count),
        updatedAt: instant,
      }),
    ),
    details: list(
      object({
        title: optional(text),
        rows: list(object({ label: text, value: text, secondaryValue: optional(text) })),
      }),
    ),
    updatedAt: instant,
    identity: object({
      providerID: exactly('cursor'),
      accountEmail: optional(text),
      accountOrganization: optional(text),
      loginMethod: optional(text),
      accountID: optional(text),
    }),
    source: optional((value) => value === 'web' || value === 'rpc'),
  }),
});

export function isSnapshotFile(value: unknown): value is SnapshotFile {
  return snapshotFile(value);
}
