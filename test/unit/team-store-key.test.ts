/** The keys of team cost's event stores: one-way, stable, never the key. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountKey } from '../../src/cache/account-key.js';
import { memberStoreKey, teamStoreKey } from '../../src/team/store-key.js';

const KEY = `key_${'0123456789abcdef'.repeat(4)}`;

describe('team store keys', () => {
  it('are 32 hex digits, the same for the same key, different for another key or member', () => {
    const team = teamStoreKey(KEY);
    expect(team).toMatch(/^[0-9a-f]{32}$/);
    expect(teamStoreKey(KEY)).toBe(team);
    expect(teamStoreKey(`${KEY}0`)).not.toBe(team);
    const ana = memberStoreKey(team, 'ana@example.test');
    expect(ana).toMatch(/^[0-9a-f]{32}$/);
    expect(ana).not.toBe(team);
    expect(memberStoreKey(team, 'bo@example.test')).not.toBe(ana);
    expect(memberStoreKey(teamStoreKey(`${KEY}0`), 'ana@example.test')).not.toBe(ana);
  });

  it('hold no part of the key, and are not a bare hash of it nor an account key made of it', () => {
    const team = teamStoreKey(KEY);
    for (let i = 0; i + 8 <= KEY.length; i++) expect(team).not.toContain(KEY.slice(i, i + 8));
    expect(team).not.toBe(createHash('sha256').update(KEY).digest('hex').slice(0, 32));
    expect(team).not.toBe(accountKey({ userId: KEY }));
  });
});
