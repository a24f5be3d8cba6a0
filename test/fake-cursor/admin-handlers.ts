/** Endpoint logic of the fake Admin API: spend, daily usage and usage events, paged as documented. */
import type { AdminEventJson, AdminMemberJson, DailyUsageJson, FakeAdminOptions } from './admin-types.js';
import type { FakeResponse } from './types.js';

const DAY_MS = 86_400_000;
const DEFAULT_MAX_SPAN_MS = 30 * DAY_MS;

type Body = Record<string, unknown>;

const bad = (error: string): FakeResponse => ({ status: 400, json: { error } });
const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function pagination(page: number, pageSize: number, total: number) {
  const numPages = Math.max(1, Math.ceil(total / pageSize));
  return { numPages, currentPage: page, pageSize, hasNextPage: page < numPages, hasPreviousPage: page > 1 };
}

export function spendHandler(options: FakeAdminOptions) {
  const members = options.members ?? [];
  return (body: Body): FakeResponse => {
    const page = body.page ?? 1;
    const pageSize = body.pageSize ?? 10;
    if (!isWhole(page) || page < 1 || !isWhole(pageSize) || pageSize < 1)
      return bad('invalid page or pageSize');
    const sorted = [...members];
    const direction = body.sortDirection === 'asc' ? 1 : -1;
    const key = (m: AdminMemberJson) =>
      body.sortBy === 'user' ? m.name : body.sortBy === 'amount' ? m.spendCents : m.userId;
    sorted.sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : 0));
    const totalMembers = options.spendTotalMembers?.(page) ?? members.length;
    return {
      json: {
        teamMemberSpend: sorted.slice((page - 1) * pageSize, page * pageSize),
        subscriptionCycleStart: options.cycleStart ?? 0,
        totalMembers,
        totalPages: Math.max(1, Math.ceil(totalMembers / pageSize)),
      },
    };
  };
}

function span(body: Body, required: boolean, maxSpanMs: number): { start: number; end: number } | string {
  const { startDate, endDate } = body;
  if (startDate === undefined && endDate === undefined && !required) {
    return { start: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  }
  if (!isWhole(startDate) || !isWhole(endDate)) return 'startDate and endDate must be epoch ms numbers';
  if (endDate < startDate) return 'endDate is before startDate';
  if (endDate - startDate > maxSpanMs) return 'Date range cannot exceed 30 days';
  return { start: startDate, end: endDate };
}

export function dailyUsageHandler(options: FakeAdminOptions) {
  const rows = options.daily ?? [];
  return (body: Body): FakeResponse => {
    const range = span(body, true, options.maxSpanMs ?? DEFAULT_MAX_SPAN_MS);
    if (typeof range === 'string') return bad(range);
    const inRange = rows.filter((row: DailyUsageJson) => row.date >= range.start && row.date <= range.end);
    const period = { startDate: range.start, endDate: range.end };
    const size = options.dailyPageSize;
    if (size === undefined) return { json: { data: inRange, period } };
    const page = body.page ?? 1;
    if (!isWhole(page) || page < 1) return bad('invalid page');
    return {
      json: {
        data: inRange.slice((page - 1) * size, page * size),
        period,
        pagination: pagination(page, size, inRange.length),
      },
    };
  };
}

/**
 * Window and member filtering are cached per query, and page JSON too unless the count is scripted, so
 * the 200,000-event benchmark pages quickly.
 */
export function usageEventsHandler(options: FakeAdminOptions) {
  const events = options.events ?? [];
  const stamps = Float64Array.from(events, (event) => Number(event.timestamp));
  const selections = new Map<string, AdminEventJson[]>();
  const texts = new Map<string, string>();
  const select = (start: number, end: number, email: string | undefined): AdminEventJson[] => {
    const key = `${start}|${end}|${email ?? ''}`;
    let rows = selections.get(key);
    if (!rows) {
      if (selections.size >= 8) {
        selections.clear();
        texts.clear();
      }
      rows = events.filter(
        (event, i) =>
          stamps[i]! >= start && stamps[i]! <= end && (email === undefined || event.userEmail === email),
      );
      selections.set(key, rows);
    }
    return rows;
  };
  return (body: Body): FakeResponse => {
    const range = span(body, false, options.maxSpanMs ?? DEFAULT_MAX_SPAN_MS);
    if (typeof range === 'string') return bad(range);
    const page = body.page ?? 1;
    const pageSize = body.pageSize ?? 10;
    if (!isWhole(page) || page < 1) return bad('invalid page');
    if (!isWhole(pageSize) || pageSize < 1 || pageSize > 1000) return bad('pageSize must be 1 to 1000');
    const email = typeof body.email === 'string' ? body.email : undefined;
    const key = `${range.start}|${range.end}|${email ?? ''}|${page}|${pageSize}`;
    const cached = texts.get(key);
    if (cached !== undefined) return { text: cached };
    const rows = select(range.start, range.end, email);
    const count = options.eventsCount ? options.eventsCount(page, rows.length) : rows.length;
    const text = JSON.stringify({
      totalUsageEventsCount: count,
      pagination: pagination(page, pageSize, count),
      usageEvents: rows.slice((page - 1) * pageSize, page * pageSize),
      period: { startDate: body.startDate, endDate: body.endDate },
    });
    if (!options.eventsCount) texts.set(key, text);
    return { text };
  };
}
