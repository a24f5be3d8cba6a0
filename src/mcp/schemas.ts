/**
 * The MCP tools' input and output schemas (zod, which the SDK turns into the JSON Schemas `tools/list`
 * declares). The outputs are the JSON rows the CLI prints (docs/json.md): `usage --json`'s row, `cost --json`'s
 * row, `guard --json`'s object and `models --json`'s array, each as an object. They declare the fields an
 * agent needs and let the rest through (loose objects), so a field the CLI adds later is never an MCP error.
 */
import { z } from 'zod';
import { GROUP_BYS } from '../cost/groups.js';
import { MAX_HISTORY_DAYS } from '../cost/window.js';

const account = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    'A token account by its label in the codexbar config file (trimmed, any case), like `--account`; ' +
      'absent: the account a plain `codexbar usage` run uses.',
  );

export const usageInput = { account };

export const budgetInput = {
  min_remaining: z
    .number()
    .min(0)
    .max(100)
    .default(10)
    .describe('The least percent left that passes, 0-100, inclusive (like `guard --min-remaining`).'),
  window: z
    .enum(['session', 'weekly'])
    .default('session')
    .describe('session (Cursor: the primary window) or weekly (the secondary one).'),
  account,
};

const civilDate = z.string().regex(/^\d{4}-?\d{2}-?\d{2}$/, 'a date as YYYY-MM-DD or YYYYMMDD');

export const costInput = {
  days: z
    .number()
    .int()
    .min(1)
    .max(MAX_HISTORY_DAYS)
    .optional()
    .describe('The last N local days including today (default 30); not with since, until or month.'),
  since: civilDate.optional().describe('First local day, YYYY-MM-DD.'),
  until: civilDate.optional().describe('Last local day, YYYY-MM-DD (default: today).'),
  month: z.boolean().optional().describe('Month to date; not with days, since or until.'),
  by: z
    .enum(GROUP_BYS.filter((by) => by !== 'conversation') as ['day', 'week', 'month', 'model', 'kind'])
    .optional()
    .describe('Add `groups`: one entry per day, week (Monday first), month, model or kind.'),
  timezone: z
    .string()
    .max(100)
    .optional()
    .describe('IANA time zone for the window and the days (default: the server’s TZ or system zone).'),
  account,
};

export const modelsInput = { account };

const isoDate = z.string().describe('An ISO 8601 instant, seconds precision, UTC.');

const rateWindow = z
  .looseObject({
    usedPercent: z.number().describe('Percent used; over 100 on a legacy request plan.'),
    windowMinutes: z.number().optional(),
    resetsAt: isoDate.optional(),
    resetDescription: z.string().optional(),
  })
  .nullable();

const cacheFields = {
  fetchedAt: isoDate.describe('When cursor.com gave these figures.'),
  fromCache: z.boolean().describe('Answered from the usage cache (at most the server’s max age old).'),
};

export const usageOutput = z.looseObject({
  provider: z.literal('cursor'),
  account: z.string().optional().describe('The token account’s label, when one supplied the session.'),
  source: z.string().describe('`web` (cursor.com) or `rpc` (api2).'),
  usage: z
    .looseObject({
      primary: rateWindow.describe('The plan’s main window: Total (or the unified pool).'),
      secondary: rateWindow,
      tertiary: rateWindow,
      providerCost: z
        .looseObject({ used: z.number(), limit: z.number(), currencyCode: z.string() })
        .optional()
        .describe('On-demand spend and its limit, in dollars.'),
      updatedAt: isoDate,
      accountEmail: z.string().optional(),
    })
    .describe('`codexbar usage --json`’s `usage` object (docs/json.md).'),
  pace: z.looseObject({}).optional().describe('Pace per window, when a window qualifies.'),
  ...cacheFields,
});

export const budgetOutput = z.object({
  provider: z.literal('cursor'),
  account: z.string().optional(),
  window: z.enum(['session', 'weekly']),
  remainingPercent: z.number().optional(),
  minimumRemainingPercent: z.number(),
  decision: z
    .enum(['ok', 'blocked', 'unknown'])
    .describe('ok: at least the minimum is left; blocked: less; unknown: the figures cannot be had.'),
  unavailableReason: z
    .enum(['account-resolution', 'fetch-failed', 'timeout', 'window-unavailable'])
    .optional(),
  message: z.string().optional().describe('With unknown: the error the CLI prints.'),
  fetchedAt: isoDate.optional(),
  fromCache: z.boolean().optional(),
});

const costLine = z.looseObject({});

export const costOutput = z.looseObject({
  provider: z.literal('cursor'),
  account: z.string().optional(),
  source: z.string(),
  updatedAt: isoDate,
  currencyCode: z.literal('USD'),
  historyDays: z.number(),
  last30DaysTokens: z.number().optional().describe('Tokens over the window (the name is CodexBar’s).'),
  last30DaysCostUSD: z.number().optional().describe('API list-price cost over the window.'),
  meteredCostUSD: z.number().optional().describe('What Cursor metered over the window.'),
  window: z.looseObject({ start: isoDate, end: isoDate, timeZone: z.string() }),
  daily: z.array(costLine),
  byModel: z.array(costLine).optional(),
  groupBy: z.string().optional(),
  groups: z.array(costLine).optional(),
});

export const modelsOutput = z.object({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        supportsMaxMode: z.boolean(),
        supportsNonMaxMode: z.boolean(),
        listPrice: z.looseObject({ input: z.number(), output: z.number() }).nullable(),
      }),
    )
    .describe('`codexbar models --json`’s rows.'),
  unpriced: z.number().describe('How many models have no list price.'),
  ...cacheFields,
});
