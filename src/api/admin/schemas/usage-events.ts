import { z } from 'zod';
import {
  type DecodedUsageEvent,
  type EventExtension,
  type EventsPage,
  eventCountSchema,
  optionalString,
  usageEventsArraySchema,
} from '../../schemas/events.js';
import { paginationSchema } from './fields.js';

/**
 * The English labels Cursor's Admin API docs show for `kind`, mapped to the dashboard's enum names so
 * `team cost` splits by billing kind with the same rules as `cost`. Only exact labels are mapped: a
 * translated or new label stays as sent and lands in "other".
 */
const KIND_LABELS: Readonly<Record<string, string>> = {
  'Usage-based': 'USAGE_EVENT_KIND_USAGE_BASED',
  'User API Key': 'USAGE_EVENT_KIND_USER_API_KEY',
  'Errored, Not Charged': 'USAGE_EVENT_KIND_ERRORED_NOT_CHARGED',
  'Aborted, Not Charged': 'USAGE_EVENT_KIND_ABORTED_NOT_CHARGED',
  'Free Credit': 'USAGE_EVENT_KIND_FREE_CREDIT',
};
const INCLUDED_LABEL = /^Included in ([A-Za-z+ ]+)$/;

export function kindFromLabel(kind: string | undefined): string | undefined {
  if (kind === undefined) return undefined;
  const mapped = KIND_LABELS[kind];
  if (mapped) return mapped;
  const included = INCLUDED_LABEL.exec(kind);
  if (included) {
    const plan = included[1]!.trim().toUpperCase().replace(/\+/g, '_PLUS').replace(/ +/g, '_');
    return `USAGE_EVENT_KIND_INCLUDED_IN_${plan}`;
  }
  return kind;
}

/** The member behind each event, and the kind label as an enum name. */
const adminEventFields: EventExtension = (raw, event: DecodedUsageEvent, issues) => {
  const email = optionalString(raw.userEmail, 'userEmail', issues);
  if (email !== undefined) event.userEmail = email;
  event.kind = kindFromLabel(event.kind);
};

const usageEventsArray = usageEventsArraySchema('usageEvents', adminEventFields);
const usageEventsDisplayArray = usageEventsArraySchema('usageEventsDisplay', adminEventFields);

/** Keys a page may carry when it omits an empty events array. */
const EMPTY_PAGE_KEYS = new Set(['totalUsageEventsCount', 'pagination', 'period']);

/**
 * `POST /teams/filtered-usage-events`, decoded into the dashboard pager's page shape so `team cost` pages
 * with exactly the rules of `cost`. The array is `usageEvents` (some answers say `usageEventsDisplay`);
 * an answer without it must be an empty page, never an envelope that carries something else.
 */
export const adminEventsPageSchema = z
  .looseObject({
    totalUsageEventsCount: eventCountSchema,
    pagination: paginationSchema,
    usageEvents: usageEventsArray.optional(),
    usageEventsDisplay: usageEventsDisplayArray.optional(),
  })
  .superRefine((page, ctx) => {
    if (page.usageEvents !== undefined || page.usageEventsDisplay !== undefined) return;
    const unexpected = Object.keys(page).filter((key) => !EMPTY_PAGE_KEYS.has(key));
    if (unexpected.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `usageEvents is missing and the page has other fields (${unexpected.join(', ')})`,
      });
    }
  })
  .transform(
    (page): EventsPage => ({
      totalUsageEventsCount: page.totalUsageEventsCount,
      usageEventsDisplay: page.usageEvents ?? page.usageEventsDisplay ?? [],
    }),
  );
