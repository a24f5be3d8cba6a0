/**
 * The BYOK report's rules, row by row: how a ledger row becomes a cost event (or a request without usage, or
 * a skipped row), and how the cross-check compares and words its figures.
 */
import { describe, expect, it } from 'vitest';
import { type CrossCheck, crossCheckDeviation, crossCheckOf } from '../../src/cost/byok/cross-check.js';
import type { LedgerReadRow } from '../../src/cost/byok/ledger-read.js';
import { BYOK_EVENT_KIND, eventOf } from '../../src/cost/byok/report.js';
import type { CostReport } from '../../src/cost/types.js';
import { crossCheckLine } from '../../src/render/cost-byok.js';

function row(fields: Partial<LedgerReadRow>): LedgerReadRow {
  return {
    startedAt: 1_780_000_000_000n,
    model: 'gpt-4.1',
    completed: 1n,
    promptTokens: 1000n,
    cachedTokens: null,
    cacheWriteTokens: null,
    completionTokens: 10n,
    providerCostUSD: null,
    conversation: null,
    ...fields,
  };
}

describe('a ledger row as a cost event', () => {
  it('splits the prompt into input, cache reads and cache writes, which do not overlap', () => {
    const event = eventOf(row({ promptTokens: 1000n, cachedTokens: 300n, cacheWriteTokens: 200n }));
    expect(event).toMatchObject({ kind: BYOK_EVENT_KIND, model: 'gpt-4.1', timestamp: 1_780_000_000_000 });
    expect(event?.tokenUsage).toMatchObject({
      inputTokens: 500,
      cacheReadTokens: 300,
      cacheWriteTokens: 200,
      outputTokens: 10,
      totalCents: undefined,
    });
  });

  it.each([
    ['cache reads and writes equal to the prompt', 600n, 400n, true],
    ['one more than the prompt', 601n, 400n, false],
  ])('%s: counted only when they fit in the prompt', (_name, cached, written, counted) => {
    const event = eventOf(row({ promptTokens: 1000n, cachedTokens: cached, cacheWriteTokens: written }));
    expect(event !== undefined).toBe(counted);
  });

  it('the provider cost is in cents, a reported 0 stays 0, and no cost leaves it to the price table', () => {
    expect(eventOf(row({ providerCostUSD: 0.0123 }))?.tokenUsage?.totalCents).toBeCloseTo(1.23, 12);
    expect(eventOf(row({ providerCostUSD: 0 }))?.tokenUsage?.totalCents).toBe(0);
    expect(eventOf(row({ providerCostUSD: null }))?.tokenUsage?.totalCents).toBeUndefined();
  });

  it('no prompt or no completion count: a request without usage (no tokens), never zero tokens', () => {
    expect(eventOf(row({ promptTokens: null, completionTokens: null }))).toMatchObject({
      tokenUsage: undefined,
    });
    expect(eventOf(row({ completionTokens: null }))).toMatchObject({ tokenUsage: undefined });
    expect(eventOf(row({ promptTokens: null }))).toMatchObject({ tokenUsage: undefined });
  });

  it('a NULL model is `unknown` to the aggregator (undefined: unpriced)', () => {
    expect(eventOf(row({ model: null }))?.model).toBeUndefined();
  });

  it.each<[string, Partial<LedgerReadRow>]>([
    ['a negative count', { promptTokens: -1n }],
    ['a count past 2^53 − 1', { completionTokens: 2n ** 53n }],
    ['text in a count', { promptTokens: '1000' }],
    ['a fraction in a count', { cachedTokens: 1.5 }],
    ['a negative cost', { providerCostUSD: -0.01 }],
    ['a cost that is text', { providerCostUSD: '0.01' }],
    ['no time', { startedAt: 0n }],
    ['a model that is not text', { model: 12n }],
  ])('%s: the row is skipped', (_name, fields) => {
    expect(eventOf(row(fields))).toBeUndefined();
  });

  it('a count of exactly 2^53 − 1 is kept', () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    expect(eventOf(row({ promptTokens: max, completionTokens: 0n }))?.tokenUsage?.inputTokens).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });
});

function cursorReport(requests: number, totalTokens: number | null): CostReport {
  return { byKind: { byok: { requests, totalTokens } } } as unknown as CostReport;
}

describe('the cross-check', () => {
  it('sums every selected account, and leaves the check out when one failed or a sum is unknown', () => {
    const proxy = { requests: 5, tokens: 1000 };
    expect(
      crossCheckOf(
        [
          { ok: true, report: cursorReport(2, 400) },
          { ok: true, report: cursorReport(3, 590) },
        ],
        proxy,
      ),
    ).toEqual({
      ok: true,
      check: { cursorRequests: 5, cursorTokens: 990, proxyRequests: 5, proxyTokens: 1000 },
    });
    expect(
      crossCheckOf(
        [
          { ok: true, report: cursorReport(2, 400) },
          { ok: false, reason: 'down' },
        ],
        proxy,
      ),
    ).toEqual({ ok: false, reason: 'down' });
    expect(crossCheckOf([{ ok: true, report: cursorReport(2, null) }], proxy).ok).toBe(false);
    expect(crossCheckOf([{ ok: true, report: cursorReport(2, 1) }], { requests: 1, tokens: null }).ok).toBe(
      false,
    );
  });

  const check = (cursorTokens: number, proxyTokens: number, cursorRequests = 3): CrossCheck => ({
    cursorRequests,
    cursorTokens,
    proxyRequests: 4,
    proxyTokens,
  });

  it.each([
    [check(12_100, 12_345), '(−2.0 %)'],
    [check(1004, 1000), '(+0.4 %)'],
    [check(10_000, 10_000), '(±0.0 %)'],
    [check(10_000, 10_004), '(±0.0 %)'],
  ])('words the deviation of Cursor from the proxy: %o', (value, expected) => {
    expect(crossCheckLine(value)).toContain(expected);
  });

  it('the whole line, one request, and a proxy that saw no tokens', () => {
    expect(
      crossCheckLine({ cursorRequests: 39, cursorTokens: 12_100, proxyRequests: 40, proxyTokens: 12_345 }),
    ).toBe(
      'Cross-check: the proxy saw 12,345 tokens in 40 requests; cursor.com recorded 12,100 tokens in 39 BYOK requests (−2.0 %).',
    );
    expect(crossCheckLine({ cursorRequests: 1, cursorTokens: 5, proxyRequests: 1, proxyTokens: 0 })).toBe(
      'Cross-check: the proxy saw 0 tokens in 1 request; cursor.com recorded 5 tokens in 1 BYOK request.',
    );
    expect(crossCheckDeviation(check(5, 0))).toBeUndefined();
    expect(crossCheckLine({ cursorRequests: 0, cursorTokens: 0, proxyRequests: 2, proxyTokens: 10 })).toBe(
      'Cross-check: the proxy saw 10 tokens in 2 requests; cursor.com recorded no BYOK requests in this window.',
    );
  });
});
