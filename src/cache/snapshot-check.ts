import { ACCOUNT_KEY, isIsoInstant, SNAPSHOT_VERSION, type SnapshotFile } from './snapshot-file.js';

/**
 * The usage snapshot file checked by hand, for the statusline fast path, which must not load zod
 * (docs/behaviour.md §26.7). It accepts exactly what `snapshotFileSchema` accepts; a test feeds both the same
 * valid file and hundreds of broken ones and requires the same answer.
 */

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
  }),
});

export function isSnapshotFile(value: unknown): value is SnapshotFile {
  return snapshotFile(value);
}
