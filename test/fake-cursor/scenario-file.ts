import fs from 'node:fs';
import { z } from 'zod';
import { generateEvents } from './generate-events.js';
import type { EventsScenario, FakeAccount, FakeResponse, UsageEventJson } from './types.js';

/**
 * Scenario files: JSON descriptions of fake accounts whose dates are relative to "now", so a
 * bundled sample (fixtures/demo/account.json) always looks current.
 *
 * Any string of the form `{{now}}`, `{{now-12d-5h}}` or `{{now+7d}}` (units d, h, m, s) becomes an
 * ISO-8601 timestamp; `{{ms:now-30d}}` becomes epoch milliseconds as a decimal string.
 * Events are either literal (`"events": [...]`) or generated (`"generate": {count, seed, start, end, …}`).
 */

const PLACEHOLDER = /^\{\{(ms:)?now((?:[+-]\d+(?:\.\d+)?[dhms])*)\}\}$/;
const OFFSET = /([+-]\d+(?:\.\d+)?)([dhms])/g;
const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };

function expandPlaceholder(text: string, now: Date): string {
  const match = PLACEHOLDER.exec(text);
  if (!match) return text;
  let ms = now.getTime();
  for (const [, amount, unit] of (match[2] ?? '').matchAll(OFFSET)) ms += Number(amount) * UNIT_MS[unit!]!;
  return match[1] ? String(Math.round(ms)) : new Date(ms).toISOString();
}

/** Replaces every relative-date placeholder in a parsed JSON value. */
export function expandRelativeDates(value: unknown, now: Date): unknown {
  if (typeof value === 'string') return expandPlaceholder(value, now);
  if (Array.isArray(value)) return value.map((item) => expandRelativeDates(item, now));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandRelativeDates(v, now)]));
  }
  return value;
}

const isoDate = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

const responseSchema = z.strictObject({
  status: z.number().int().optional(),
  json: z.unknown().optional(),
  text: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  delayMs: z.number().nonnegative().optional(),
  destroy: z.boolean().optional(),
});

const generateSchema = z.strictObject({
  count: z.number().int().nonnegative(),
  seed: z.number().int(),
  start: isoDate,
  end: isoDate,
  models: z.array(z.string()).optional(),
  kinds: z.array(z.string()).optional(),
  withoutTotalCentsEvery: z.number().int().positive().optional(),
  withoutChargedCentsEvery: z.number().int().positive().optional(),
  owningUser: z.string().optional(),
});

const emptyShape = z.enum(['omit-array', 'empty-object']);

const eventsSchema = z
  .strictObject({
    events: z.array(z.record(z.string(), z.unknown())).optional(),
    generate: generateSchema.optional(),
    count: z.number().int().nullable().optional(),
    pages: z.record(z.string(), z.union([z.array(z.record(z.string(), z.unknown())), emptyShape])).optional(),
    overlap: z
      .object({ afterPage: z.number().int().positive(), rows: z.number().int().nonnegative() })
      .optional(),
    emptyShape: emptyShape.optional(),
    faults: z
      .array(
        z.object({
          page: z.number().int().positive(),
          status: z.number().int().optional(),
          times: z.number().int().nonnegative().optional(),
          retryAfter: z.string().optional(),
          truncated: z.boolean().optional(),
          destroy: z.boolean().optional(),
          delayMs: z.number().nonnegative().optional(),
        }),
      )
      .optional(),
  })
  .refine(
    (file) => file.events !== undefined || file.generate !== undefined,
    'events or generate is required',
  );

const accountSchema = z.strictObject({
  description: z.string().optional(),
  cookies: z.array(z.string()).default([]),
  usageSummary: responseSchema.optional(),
  me: responseSchema.optional(),
  legacyUsage: responseSchema.optional(),
  sand: responseSchema.optional(),
  teams: responseSchema.optional(),
  teamSpend: responseSchema.optional(),
  usageStatus: responseSchema.optional(),
  events: z.union([eventsSchema, responseSchema]).optional(),
});

const fileSchema = z.union([z.object({ accounts: z.array(accountSchema).min(1) }), accountSchema]);

type EventsFile = z.infer<typeof eventsSchema>;

const isEventsFile = (value: EventsFile | FakeResponse): value is EventsFile =>
  'events' in value || 'generate' in value;

function toScenario(file: EventsFile): EventsScenario {
  const { events, generate, pages, ...rest } = file;
  const scenario: EventsScenario = {
    ...rest,
    events: (events as UsageEventJson[] | undefined) ?? (generate ? generateEvents(generate) : []),
  };
  if (pages) {
    scenario.pages = Object.fromEntries(
      Object.entries(pages).map(([page, rows]) => [Number(page), rows as UsageEventJson[] | typeof rows]),
    ) as EventsScenario['pages'];
  }
  return scenario;
}

function toAccount(file: z.infer<typeof accountSchema>): FakeAccount {
  const { description: _description, events, ...responses } = file;
  const account: FakeAccount = { ...responses };
  if (events !== undefined) account.events = isEventsFile(events) ? toScenario(events) : events;
  return account;
}

/** Parses a scenario file's JSON (one account, or `{accounts: [...]}`) against `now`. */
function parseScenario(json: unknown, now: Date): FakeAccount[] {
  const parsed = fileSchema.parse(expandRelativeDates(json, now));
  return 'accounts' in parsed ? parsed.accounts.map(toAccount) : [toAccount(parsed)];
}

export function loadScenarioFile(filePath: string | URL, now: Date): FakeAccount[] {
  return parseScenario(JSON.parse(fs.readFileSync(filePath, 'utf8')), now);
}
