import { describe, expect, it } from 'vitest';
import type { Served } from '../../src/serve/cache.js';
import { buildSnapshot, type SnapshotInputs } from '../../src/serve/snapshot.js';

const window = (usedPercent: number, windowMinutes = 44640) => ({
  usedPercent,
  windowMinutes,
  resetsAt: '2026-12-15T00:00:00Z',
});

const usageServed = (usage: Record<string, unknown>, extra: Record<string, unknown> = {}): Served<never> =>
  ({
    rows: [{ provider: 'cursor', source: 'web', usage, ...extra }],
    state: 'hit',
    fetchedAt: 1_000_000 - 42_000,
  }) as unknown as Served<never>;

const inputs = (overrides: Partial<SnapshotInputs>): SnapshotInputs => ({
  version: '1.2.3',
  generatedAt: new Date('2026-11-20T12:00:00Z'),
  refreshIntervalSeconds: 60,
  identity: 'full',
  enabled: true,
  source: 'auto',
  nowMs: 1_000_000,
  ...overrides,
});

const identity = {
  providerID: 'cursor',
  accountEmail: 'dev@example.com',
  loginMethod: 'Cursor Pro',
  accountID: 'u1',
};

describe('dashboard-v1 snapshot', () => {
  it('the envelope, and a config-only row for detail=shell', () => {
    expect(buildSnapshot(inputs({}))).toEqual({
      schemaVersion: 1,
      generatedAt: new Date('2026-11-20T12:00:00Z'),
      staleAfterSeconds: 60,
      host: { codexBarVersion: '1.2.3', refreshIntervalSeconds: 60 },
      providers: [
        {
          id: 'cursor',
          name: 'Cursor',
          enabled: true,
          source: 'auto',
          status: null,
          identity: null,
          windows: [],
          credits: null,
          cost: null,
          display: { iconURL: '/icons/cursor.svg', dashboardURL: 'https://cursor.com/dashboard' },
          error: null,
          updatedAt: null,
        },
      ],
    });
  });

  it('windows in order with labels, remaining percent and pace; cache metadata of the /usage answer', () => {
    const usage = {
      primary: window(42),
      secondary: window(35),
      tertiary: null,
      extraRateWindows: [{ id: 'cursor-grok-bot', title: 'Grok Bot', window: window(20, 10080) }],
      updatedAt: '2026-11-20T11:59:18Z',
      identity,
    };
    const pace = {
      primary: { stage: 'behind', summary: 's' },
      extra: { 'cursor-grok-bot': { stage: 'onTrack' } },
    };
    const row = buildSnapshot(inputs({ usage: usageServed(usage, { pace }) })).providers as Array<
      Record<string, unknown>
    >;
    expect(row[0]).toMatchObject({
      identity: { email: 'dev@example.com', plan: 'Cursor Pro', accountID: 'u1' },
      updatedAt: '2026-11-20T11:59:18Z',
      cache: { state: 'hit', ageSeconds: 42 },
      error: null,
    });
    expect(row[0]?.windows).toEqual([
      {
        id: 'primary',
        label: 'Total',
        remainingPercent: 58,
        ...window(42),
        pace: pace.primary,
      },
      {
        id: 'secondary',
        label: 'Cursor',
        remainingPercent: 65,
        ...window(35),
        pace: undefined,
      },
      {
        id: 'cursor-grok-bot',
        label: 'Grok Bot',
        remainingPercent: 80,
        ...window(20, 10080),
        pace: pace.extra['cursor-grok-bot'],
      },
    ]);
  });

  it('the unified weekly pool is labelled Weekly', () => {
    const usage = { primary: window(10, 10080), secondary: null, tertiary: null, identity };
    const [row] = buildSnapshot(inputs({ usage: usageServed(usage) })).providers as Array<{
      windows: Array<{ label: string }>;
    }>;
    expect(row?.windows.map((entry) => entry.label)).toEqual(['Weekly']);
  });

  it('--identity redacted keeps only the plan', () => {
    const usage = { primary: window(1), secondary: null, tertiary: null, identity };
    const [row] = buildSnapshot(inputs({ identity: 'redacted', usage: usageServed(usage) }))
      .providers as Array<Record<string, unknown>>;
    expect(row?.identity).toEqual({ plan: 'Cursor Pro' });
  });

  it('an error row becomes the provider error, with no windows', () => {
    const served = {
      rows: [
        {
          provider: 'cursor',
          source: 'auto',
          error: { code: 1, message: 'Not logged in', kind: 'provider' },
        },
      ],
      state: 'miss',
      fetchedAt: 1_000_000,
    } as unknown as Served<never>;
    const [row] = buildSnapshot(inputs({ usage: served })).providers as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ error: { message: 'Not logged in' }, windows: [], identity: null });
  });
});
