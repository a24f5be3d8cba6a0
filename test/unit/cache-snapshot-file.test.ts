import { describe, expect, it } from 'vitest';
import { decodeSnapshot, encodeSnapshot } from '../../src/cache/snapshot-codec.js';
import { isSnapshotFile } from '../../src/cache/snapshot-file.js';
import { DEFAULT_TEMPLATE, statuslineJson, statuslineText } from '../../src/render/statusline.js';
import { renderUsageText } from '../../src/render/usage-text.js';
import type { UsageSnapshot } from '../../src/usage/types.js';
import { legacyRequestSnapshot, workedExampleSnapshot } from '../helpers/usage-sample.js';

/**
 * docs/invariants.md, "When a snapshot may be trusted": the snapshot file and its one check, which the fast
 * path and the CLI trust.
 */

/** Every optional field present somewhere, so every part of the shape is exercised. */
function richSnapshot(): UsageSnapshot {
  const snapshot = workedExampleSnapshot({ grokShowsPace: true });
  return {
    ...snapshot,
    providerCost: {
      used: 12.34,
      limit: 50,
      currencyCode: 'USD',
      period: 'Monthly',
      resetsAt: new Date('2026-08-05T00:00:00Z'),
      personalUsed: 4.5,
      updatedAt: new Date('2026-07-20T15:00:01.250Z'),
    },
    details: [
      { title: 'Usage', rows: [{ label: 'Request quota', value: '120 / 500', secondaryValue: 'x' }] },
    ],
    identity: { ...snapshot.identity, accountOrganization: 'Acme' },
  };
}

const META = {
  account: '0123456789abcdef0123456789abcdef',
  fetchedAt: new Date('2026-07-20T15:00:01.250Z'),
  baseUrl: 'https://cursor.com',
  timeZone: 'UTC',
};

function fileJson(snapshot: UsageSnapshot = richSnapshot()): Record<string, unknown> {
  return JSON.parse(JSON.stringify(encodeSnapshot(snapshot, META)));
}

const WRONG_VALUES: unknown[] = [null, 0, 1.5, -1, 'x', '', true, false, {}, [], [1], '2026-07-20T15:00:01Z'];

/** The document with the value at `path` replaced (or removed, for `undefined`). */
function withValue(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = value;
  return copy;
}

function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...paths(item, [...prefix, key])]);
}

/** Every document one step away from a valid one: each value removed or replaced, extra keys, wrong roots. */
function variants(): { value: unknown; change: Change }[] {
  const out: { value: unknown; change: Change }[] = [null, [], 'x', 1, true, {}].map((value) => ({
    value,
    change: { kind: 'root' },
  }));
  for (const base of [fileJson(), fileJson(legacyRequestSnapshot())]) {
    for (const path of paths(base)) {
      const original = valueAt(base, path);
      out.push({ value: withValue(base, path, undefined), change: { kind: 'removed', path } });
      for (const wrong of WRONG_VALUES) {
        out.push({
          value: withValue(base, path, wrong),
          change: { kind: 'replaced', path, original, wrong },
        });
      }
      if (Array.isArray(original)) {
        out.push({ value: withValue(base, [...path, original.length], 'x'), change: { kind: 'item', path } });
      } else if (original !== null && typeof original === 'object') {
        out.push({ value: withValue(base, [...path, 'extra'], 1), change: { kind: 'extra key', path } });
      }
    }
  }
  return out;
}

type Change =
  | { kind: 'root' | 'removed' | 'item' | 'extra key'; path?: (string | number)[] }
  | { kind: 'replaced'; path: (string | number)[]; original: unknown; wrong: unknown };

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

/**
 * The file's documented shape (src/cache/snapshot-file.ts), by path: list indexes read `*`, and every rate
 * window (primary, secondary, tertiary, an extra window's) reads `WINDOW`.
 */
const OPTIONAL = new Set([
  'WINDOW.windowMinutes',
  'WINDOW.resetsAt',
  'WINDOW.resetDescription',
  'snapshot.extraRateWindows.*.usageKnown',
  'snapshot.extraRateWindows.*.showsPace',
  'snapshot.providerCost',
  'snapshot.providerCost.period',
  'snapshot.providerCost.resetsAt',
  'snapshot.providerCost.personalUsed',
  'snapshot.details.*.title',
  'snapshot.details.*.rows.*.secondaryValue',
  'snapshot.identity.accountEmail',
  'snapshot.identity.accountOrganization',
  'snapshot.identity.loginMethod',
  'snapshot.identity.accountID',
]);
const NULLABLE = new Set(['snapshot.primary', 'snapshot.secondary', 'snapshot.tertiary']);
/** Fields with a rule beyond their type (a date, one exact value): their own cases below. */
const RULED_KEYS = new Set([
  'version',
  'account',
  'currencyCode',
  'providerID',
  'fetchedAt',
  'updatedAt',
  'resetsAt',
]);

function shapePath(path: readonly (string | number)[]): string {
  return path
    .map((key) => (typeof key === 'number' ? '*' : key))
    .join('.')
    .replace(/^snapshot\.(?:primary|secondary|tertiary|extraRateWindows\.\*\.window)(?=\.)/, 'WINDOW');
}

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** What the shape says of a one-step variant; undefined for a ruled field, which has cases of its own. */
function shapeAccepts(change: Change): boolean | undefined {
  const path = change.path ?? [];
  switch (change.kind) {
    case 'root':
      return false;
    case 'extra key':
      return true;
    case 'item':
      // A text is not a row, a window or a section.
      return false;
    case 'removed':
      return typeof path.at(-1) === 'number' || OPTIONAL.has(shapePath(path));
    case 'replaced': {
      if (RULED_KEYS.has(String(path.at(-1)))) return undefined;
      if (change.wrong === null) return NULLABLE.has(shapePath(path));
      const type = jsonType(change.original);
      if (type === 'array') return Array.isArray(change.wrong) && change.wrong.length === 0;
      return type !== 'object' && jsonType(change.wrong) === type;
    }
  }
}

describe('isSnapshotFile', () => {
  it('accepts and refuses what the shape says, over every one-step variant of valid files', () => {
    const all = variants();
    const wrong = all.filter(({ value, change }) => {
      const expected = shapeAccepts(change);
      return expected !== undefined && isSnapshotFile(value) !== expected;
    });

    const described = wrong.map(({ change }) =>
      [change.kind, change.path?.join('.'), 'wrong' in change ? JSON.stringify(change.wrong) : ''].join(' '),
    );
    expect(described).toEqual([]);
    // Both answers occur many times, so the comparison is not vacuous.
    const accepted = all.filter(({ value }) => isSnapshotFile(value)).length;
    expect(accepted).toBeGreaterThan(50);
    expect(all.length - accepted).toBeGreaterThan(500);
  });

  it('whatever it accepts, the statusline and usage text render without an error', () => {
    const now = new Date('2026-07-20T15:05:00Z');
    let rendered = 0;
    for (const { value } of variants()) {
      if (!isSnapshotFile(value)) continue;
      const { snapshot, fetchedAt } = decodeSnapshot(value);
      const view = { snapshot, fetchedAt, now, stale: false };
      expect(typeof statuslineText(DEFAULT_TEMPLATE, view, false)).toBe('string');
      expect(statuslineJson('', view).provider).toBe('cursor');
      expect(typeof renderUsageText(snapshot, { now, colour: false })).toBe('string');
      rendered++;
    }
    expect(rendered).toBeGreaterThan(50);
  });

  it.each([
    ['a date with an offset instead of Z', ['fetchedAt'], '2026-07-20T15:00:01.250+00:00'],
    ['a date that does not exist', ['snapshot', 'updatedAt'], '2026-02-30T15:00:01.000Z'],
    ['another version', ['version'], 2],
    ['an account key that is not 32 hex digits', ['account'], 'ABC'],
    ['a currency other than USD', ['snapshot', 'providerCost', 'currencyCode'], 'EUR'],
  ])('refuses %s', (_what, path, value) => {
    expect(isSnapshotFile(fileJson())).toBe(true);
    expect(isSnapshotFile(withValue(fileJson(), path, value))).toBe(false);
  });
});

describe('encode and decode', () => {
  it.each([
    ['the worked example', workedExampleSnapshot()],
    ['every optional field', richSnapshot()],
    ['a legacy request plan', legacyRequestSnapshot()],
  ])('%s survives the round trip through JSON unchanged, milliseconds included', (_what, snapshot) => {
    const json = JSON.parse(JSON.stringify(encodeSnapshot(snapshot, META)));
    expect(isSnapshotFile(json)).toBe(true);

    const decoded = decodeSnapshot(json);

    expect(decoded.snapshot).toEqual(snapshot);
    expect(decoded).toMatchObject(META);
  });
});
