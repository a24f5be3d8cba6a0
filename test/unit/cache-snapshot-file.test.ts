import { describe, expect, it } from 'vitest';
import { isSnapshotFile } from '../../src/cache/snapshot-check.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/cache/snapshot-codec.js';
import { snapshotFileSchema } from '../../src/cache/snapshot-schema.js';
import type { UsageSnapshot } from '../../src/usage/types.js';
import { legacyRequestSnapshot, workedExampleSnapshot } from './render-usage-fixture.js';

/** docs/behaviour.md §26.2, §26.7: the snapshot file, its zod schema and the fast path's hand-written check. */

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
function variants(): unknown[] {
  const out: unknown[] = [null, [], 'x', 1, true, {}];
  for (const base of [fileJson(), fileJson(legacyRequestSnapshot())]) {
    out.push(base);
    for (const path of paths(base)) {
      out.push(withValue(base, path, undefined));
      for (const wrong of WRONG_VALUES) out.push(withValue(base, path, wrong));
      const value = path.reduce<unknown>(
        (node, key) => (node as Record<string | number, unknown>)[key],
        base,
      );
      if (Array.isArray(value)) out.push(withValue(base, [...path, value.length], 'x'));
      else if (value !== null && typeof value === 'object') out.push(withValue(base, [...path, 'extra'], 1));
    }
  }
  return out;
}

describe('the hand-written check', () => {
  it('accepts exactly what the zod schema accepts, over every one-step variant of valid files', () => {
    const all = variants();
    const disagreements = all.filter(
      (value) => isSnapshotFile(value) !== snapshotFileSchema.safeParse(value).success,
    );

    expect(disagreements.map((value) => JSON.stringify(value).slice(0, 300))).toEqual([]);
    // Both answers occur many times, so the comparison is not vacuous.
    const accepted = all.filter((value) => isSnapshotFile(value)).length;
    expect(accepted).toBeGreaterThan(50);
    expect(all.length - accepted).toBeGreaterThan(500);
  });

  it.each([
    ['a date with an offset instead of Z', ['fetchedAt'], '2026-07-20T15:00:01.250+00:00'],
    ['a date that does not exist', ['snapshot', 'updatedAt'], '2026-02-30T15:00:01.000Z'],
    ['another version', ['version'], 2],
    ['an account key that is not 32 hex digits', ['account'], 'ABC'],
    ['a currency other than USD', ['snapshot', 'providerCost', 'currencyCode'], 'EUR'],
  ])('refuses %s, as zod does', (_what, path, value) => {
    const broken = withValue(fileJson(), path, value);
    expect(isSnapshotFile(broken)).toBe(false);
    expect(snapshotFileSchema.safeParse(broken).success).toBe(false);
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
