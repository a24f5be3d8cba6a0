import { describe, expect, it } from 'vitest';
import { ADMIN_EVENTS_PAGE_SIZE } from '../../src/api/admin/endpoints.js';
import { adminEventsPageSchema, kindFromLabel } from '../../src/api/admin/schemas/usage-events.js';
import { eventsPageSchema } from '../../src/api/schemas/events.js';
import { PAGE_SIZE } from '../../src/cost/pager.js';
import { usageKindBucket } from '../../src/cost/usage-kind.js';

const EVENT = {
  timestamp: '1750979225854',
  model: 'claude-4-opus',
  kind: 'Usage-based',
  maxMode: true,
  requestsCosts: 5,
  isTokenBasedCall: true,
  tokenUsage: {
    inputTokens: 126,
    outputTokens: 450,
    cacheWriteTokens: 6112,
    cacheReadTokens: 11964,
    totalCents: 20.18,
  },
  isFreeBugbot: false,
  userEmail: 'developer@company.com',
};

describe('Admin API usage events', () => {
  it('decodes the documented page into the pager shape, with the member and the kind as an enum name', () => {
    const page = adminEventsPageSchema.parse({
      totalUsageEventsCount: 113,
      pagination: { numPages: 12, currentPage: 1, pageSize: 10, hasNextPage: true, hasPreviousPage: false },
      usageEvents: [EVENT],
      period: { startDate: 1748411762359, endDate: 1751003762359 },
    });
    expect(page.totalUsageEventsCount).toBe(113);
    expect(page.usageEventsDisplay).toHaveLength(1);
    expect(page.usageEventsDisplay[0]).toMatchObject({
      timestamp: 1750979225854,
      userEmail: 'developer@company.com',
      kind: 'USAGE_EVENT_KIND_USAGE_BASED',
      tokenUsage: { inputTokens: 126, totalCents: 20.18 },
    });
  });

  it.each([
    ['Usage-based', 'onDemand'],
    ['Included in Business', 'included'],
    ['Included in Pro+', 'included'],
    ['User API Key', 'byok'],
    ['Errored, Not Charged', 'notCharged'],
    ['Aborted, Not Charged', 'notCharged'],
    ['Basé sur l’usage', 'other'],
    ['USAGE_EVENT_KIND_USAGE_BASED', 'onDemand'],
  ])('kind %s counts as %s', (label, bucket) => {
    expect(usageKindBucket(kindFromLabel(label))).toBe(bucket);
  });

  it('an empty page may leave out the array; a page that carries anything else may not', () => {
    expect(
      adminEventsPageSchema.parse({ totalUsageEventsCount: 0, pagination: {} }).usageEventsDisplay,
    ).toEqual([]);
    expect(adminEventsPageSchema.safeParse({ totalUsageEventsCount: 5, events: [EVENT] }).success).toBe(
      false,
    );
    expect(adminEventsPageSchema.safeParse({ usageEvents: [{ ...EVENT, userEmail: 42 }] }).success).toBe(
      false,
    );
  });

  it('the dashboard decoder never reads a member email, so cost caches cannot hold one', () => {
    const page = eventsPageSchema.parse({ totalUsageEventsCount: 1, usageEventsDisplay: [EVENT] });
    expect(page.usageEventsDisplay[0]).not.toHaveProperty('userEmail');
  });

  it("the Admin API's page size is the pager's, so a short page still proves the end", () => {
    expect(ADMIN_EVENTS_PAGE_SIZE).toBe(PAGE_SIZE);
  });
});
