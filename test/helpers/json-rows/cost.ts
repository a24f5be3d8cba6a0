/**
 * `codexbar cost --json`: CodexBar's CostPayload plus the README's
 * additive fields (`account`, `window`, `apiRateCostUSD`, `byModel`, `byKind`, `requestCounts`, and with `--by`
 * `groupBy`, `weekStart`, `groups`), the cost error row (no `kind`), and the `cli` row.
 */
import { z } from 'zod';
import { cliErrorRowSchema, count, dayKey, isoDate, tokenFields, usd } from './shared.js';

const provenanceSchema = z
  .enum(['listPriceEstimate', 'vendorMetered', 'mixed', 'unknown'])
  .describe(
    '`mixed` when the metered total is known and some day has a known API-rate cost; `vendorMetered` when only ' +
      'the metered total is known; `listPriceEstimate` when only day costs are; `unknown` when neither.',
  );

const coverageSchema = z
  .strictObject({
    priced: count.describe(
      'Every request of every day that has a known cost (unpriced models on that day included).',
    ),
    unpriced: z.literal(0).describe('Always 0.'),
    unmetered: z.literal(0).describe('Always 0.'),
    estimated: z.literal(0).describe('Always 0.'),
  })
  .meta({
    title: 'Coverage',
    about:
      "CodexBar's coverage figures, kept as CodexBar computes them so scripts reading them see the same numbers; " +
      '`requestCounts` gives the honest split.',
  });

const requestCountFields = {
  reported: count.describe("Requests priced by Cursor's own `tokenUsage.totalCents`."),
  estimated: count.describe('Requests estimated at API list price because Cursor sent no `totalCents`.'),
  unpriced: count.describe(
    'Requests left unpriced: a model with no known price, or an invalid value from Cursor.',
  ),
};

const requestCountsSchema = z
  .strictObject(requestCountFields)
  .meta({ title: 'Request counts', about: 'How the token requests were priced.' });

export const windowRequestCountsSchema = z
  .strictObject({
    ...requestCountFields,
    skipped: count
      .optional()
      .describe(
        'Events left out of every figure (a timestamp that is no time, token counts that are negative or ' +
          'overflow); present only when there were any.',
      ),
  })
  .meta({
    title: 'Window request counts',
    about: "How the window's token requests were priced, and what was skipped.",
  });

const apiRateCostField = usd
  .optional()
  .describe("API-rate cost, USD: Cursor's `totalCents`, else the list-price estimate; omitted when unknown.");
const meteredCostField = usd
  .optional()
  .describe(
    'Cursor-metered cost, USD (Σ `chargedCents`); omitted unless every event of it has `chargedCents`.',
  );

const costDaySchema = z
  .strictObject({
    date: dayKey.describe("The local day in the window's time zone."),
    ...tokenFields,
    totalCost: usd
      .optional()
      .describe("API-rate cost of the day: the sum of its models' known costs; omitted when none is known."),
    modelsUsed: z
      .array(z.string())
      .describe('The model names of the day, ascending (`unknown` for events without one).'),
    modelBreakdowns: z
      .array(
        z
          .strictObject({
            modelName: z.string().describe('The model, as Cursor names it.'),
            cost: usd
              .optional()
              .describe('API-rate cost, USD; omitted when unknown (a model without a price).'),
            totalTokens: count.optional().describe('Its tokens; omitted when unknown.'),
          })
          .meta({ title: 'Model breakdown', about: "One model's share of a day." }),
      )
      .describe(
        'The models of the day, most expensive first (unknown cost last), then by tokens, then by name.',
      ),
  })
  .meta({
    title: 'Cost day',
    about:
      'One local day with token events. For Cursor, `cacheCreationTokens` is the cache-write count. Request counts ' +
      "are not in CodexBar's daily entries.",
  });

const costTotalsSchema = z
  .strictObject({
    ...tokenFields,
    totalCost: usd
      .optional()
      .describe(
        'API-rate cost of the window: 0 with no days, else the sum of the known day costs; omitted when none is.',
      ),
    provenance: provenanceSchema
      .optional()
      .describe("As the row's `provenance`; omitted when there are no days."),
    coverage: coverageSchema.optional().describe("As the row's `coverage`; omitted when there are no days."),
  })
  .meta({
    title: 'Cost totals',
    about: 'Summed over `daily`. With no days CodexBar writes only `totalTokens` and `totalCost`.',
  });

const modelCostSchema = z
  .strictObject({
    modelName: z.string().describe('The model, as Cursor names it; `unknown` for events without one.'),
    apiRateCostUSD: apiRateCostField,
    meteredCostUSD: meteredCostField,
    ...tokenFields,
    requests: count.describe('Its requests with tokens.'),
    requestCounts: requestCountsSchema.describe('How its requests were priced.'),
  })
  .meta({ title: 'Model cost', about: 'One model over the whole window.' });

const kindTotalsSchema = z
  .strictObject({
    requests: count.describe('Every counted request of the kind, with tokens or without.'),
    totalTokens: count.optional().describe('Tokens of its token requests; omitted when unknown.'),
    apiRateCostUSD: apiRateCostField,
    meteredCostUSD: meteredCostField,
  })
  .meta({ title: 'Kind totals', about: 'One billing kind over the whole window.' });

const groupModelSchema = z
  .strictObject({
    modelName: z.string().describe('The model.'),
    ...tokenFields,
    apiRateCostUSD: apiRateCostField,
    meteredCostUSD: meteredCostField,
    requests: count.describe('Its requests with tokens in the group.'),
  })
  .meta({ title: 'Group model', about: "One model's share of a group." });

const costGroupSchema = z
  .strictObject({
    key: z
      .string()
      .describe(
        "A day `2026-11-30`, a week's first day (Monday, or Sunday with `--week-start sunday`), a month `2026-11`, " +
          'a model name, a kind bucket (`included`, `onDemand`, `notCharged`, `byok`, `other`), or with ' +
          '`--by conversation` a conversation key (32 hex digits, `(none)` for requests without a user message).',
      ),
    firstDay: dayKey
      .optional()
      .describe(
        "Time groups: the group's first day within the window (a first week can start before the window).",
      ),
    lastDay: dayKey.optional().describe("Time groups: the group's last day within the window."),
    ...tokenFields,
    apiRateCostUSD: apiRateCostField,
    meteredCostUSD: meteredCostField,
    requests: count.describe("Its requests; a kind's include its events without tokens."),
    models: z
      .array(groupModelSchema)
      .describe("Its models, ordered like a day's models; a model group holds itself."),
  })
  .meta({
    title: 'Cost group',
    about:
      "One group of `--by`. Weeks and months are unions of the window's days and add up to the window; kinds are " +
      'the non-empty buckets.',
  });

/** The fields `cost` and `team cost` rows share, in CodexBar's order, then the additive ones. */
const costRowFields = {
  provider: z.literal('cursor').describe('Always `cursor`.'),
  account: z
    .string()
    .optional()
    .describe(
      "Additive: the token account's label, when a token account supplied the session (CodexBar has no account on " +
        'cost rows). Right after `provider`.',
    ),
  source: z.literal('web').describe('Always `web`.'),
  updatedAt: isoDate.describe('The time of the report.'),
  currencyCode: z.literal('USD').describe('Always `USD`.'),
  sessionTokens: count
    .optional()
    .describe(
      "Today's tokens (today in the window's time zone); 0 when nothing was used today; omitted when unknown.",
    ),
  sessionCostUSD: usd
    .optional()
    .describe("Today's API-rate cost, USD; 0 when nothing was used today; omitted when unknown."),
  historyDays: count.describe(
    "The window's length in days: `--days N`, or the local days `--since`, `--month` or `--all` span.",
  ),
  historyCoverageIsEstablished: z.literal(true).describe('Always `true`.'),
  last30DaysTokens: count
    .optional()
    .describe(
      "Tokens over the whole window, whatever its length (CodexBar's fixed name); omitted when unknown.",
    ),
  last30DaysCostUSD: usd
    .optional()
    .describe(
      "API-rate cost over the whole window, whatever its length (CodexBar's fixed name); omitted when unknown.",
    ),
  meteredCostUSD: usd
    .optional()
    .describe(
      'What Cursor charged: Σ `chargedCents` / 100 over every counted event, including events without tokens; ' +
        'omitted unless every event has it (a partial sum is never published).',
    ),
  daily: z
    .array(costDaySchema)
    .describe('One entry per local day with token events, oldest first (whatever `--order`).'),
  projects: z.tuple([]).describe("Always `[]` (CodexBar's field; Cursor has no projects)."),
  totals: costTotalsSchema.describe('Summed over `daily`.'),
  provenance: provenanceSchema,
  coverage: coverageSchema.describe("CodexBar's coverage figures."),
  window: z
    .strictObject({
      start: isoDate.describe(
        "The window's start, as sent to cursor.com: local midnight of its first day (the Unix epoch for `--all`).",
      ),
      end: isoDate.describe("Its end, as sent to cursor.com: now, or the end of a past `--until`'s day."),
      timeZone: z
        .string()
        .min(1)
        .describe('The IANA zone of the window bounds and the day buckets (`--timezone`, else `TZ`).'),
    })
    .meta({ title: 'Cost window', about: 'The window of a cost report.' })
    .describe('Additive: the instants sent to cursor.com and the zone of the day buckets.'),
  apiRateCostUSD: usd
    .optional()
    .describe(
      "Additive: the window's API-rate total, the same figure as `last30DaysCostUSD` under an honest name.",
    ),
  byModel: z
    .array(modelCostSchema)
    .describe('Additive: every model over the whole window, most expensive first (unknown cost last).'),
  byKind: z
    .strictObject({
      included: kindTotalsSchema.describe(
        'Included in the plan: `INCLUDED_IN_*`, `ULTRA_REQUESTS`, `FREE_CREDIT`, `CUSTOM_SUBSCRIPTION`.',
      ),
      onDemand: kindTotalsSchema.describe('On-demand (usage-based): `USAGE_BASED`.'),
      notCharged: kindTotalsSchema.describe('Not charged: `ERRORED_NOT_CHARGED`, `ABORTED_NOT_CHARGED`.'),
      byok: kindTotalsSchema.describe('Your own API key: `USER_API_KEY`.'),
      other: kindTotalsSchema.describe('Any other kind, including the localised labels some endpoints send.'),
    })
    .meta({
      title: 'Billing kinds',
      about: 'Every counted request in one of five buckets, by how Cursor billed it.',
    })
    .describe(
      "Additive: the window by billing kind, each bucket from the event's `kind` (with or without `USAGE_EVENT_KIND_`).",
    ),
  requestCounts: windowRequestCountsSchema.describe("Additive: how the window's token requests were priced."),
  storedRanges: z
    .strictObject({
      used: count.min(1).describe('Stored ranges of the window taken from the event store.'),
      checkedByCountOnly: count
        .min(1)
        .describe(
          "Of those, the ones checked by their event count alone, because the server's totals of the range " +
            'were unavailable (the Admin API has none): such a check cannot see a settled event re-rated in ' +
            'place. The others were checked by count and by cursor.com’s totals of the range.',
        ),
    })
    .optional()
    .meta({ title: 'Stored ranges', about: 'How the event store’s ranges this run used were verified.' })
    .describe(
      'Additive, only when a stored range was checked by its count alone (a run whose stored ranges were ' +
        'all checked by count and totals prints what a cold run would).',
    ),
};

const crossCheckSchema = z
  .strictObject({
    cursorRequests: count.describe(
      "cursor.com's `USER_API_KEY` requests in the window (every selected account).",
    ),
    cursorTokens: count.describe('Their tokens: input, output, cache reads and cache writes.'),
    proxyRequests: count.describe("The ledger's counted requests in the window (`byok.requests`)."),
    proxyTokens: count.describe(
      'The tokens of those with usage: prompt + completion (`totals.totalTokens`).',
    ),
  })
  .meta({
    title: 'BYOK cross-check',
    about: 'The tokens the proxy saw beside those cursor.com recorded as BYOK requests, for the same window.',
  });

const byokSchema = z
  .strictObject({
    requests: count.describe('Requests counted: every ledger row of the window but the skipped ones.'),
    partialRequests: count.describe(
      'Of those, answers that did not end cleanly (aborted, timed out, cut): counted with the usage the proxy saw.',
    ),
    requestsWithoutUsage: count.describe(
      'Of those, requests whose prompt or completion count the provider never reported (an answer aborted ' +
        'before its usage): in no token or cost figure.',
    ),
    skippedRows: count.describe(
      'Rows left out of every figure: token counts that do not add up (cache reads and writes above the ' +
        'prompt), or values that are not whole numbers. The same as `requestCounts.skipped`.',
    ),
    providerReportedRequests: count.describe(
      "Requests whose cost is the provider's own (e.g. OpenRouter's `usage.cost`): `requestCounts.reported`.",
    ),
    totalsComplete: z
      .boolean()
      .describe(
        'Whether every request of the window is in the totals: `false` when some are without usage or skipped, ' +
          'so the token and cost totals are lower bounds.',
      ),
    crossCheck: crossCheckSchema
      .optional()
      .describe(
        'The comparison with cursor.com; omitted with `--no-cross-check`, or when no Cursor session was found ' +
          'or cursor.com failed (`--verbose` says why).',
      ),
  })
  .meta({
    title: 'BYOK ledger counts',
    about:
      "What `cost --source byok` adds: the ledger's requests, and what its totals leave out. In a BYOK row, " +
      "`reported` costs are the provider's (never Cursor's), estimates use the same price table, and a model " +
      'without a price is unpriced, never $0.',
  });

export const costRowSchema = z
  .strictObject({
    ...costRowFields,
    source: z
      .enum(['web', 'byok'])
      .describe('`web`; `byok` with `--source byok` (the codexbar proxy ledger, with `byok` below).'),
    groupBy: z
      .enum(['day', 'week', 'month', 'model', 'kind', 'conversation'])
      .optional()
      .describe('Additive, with `--by` only: the grouping (`conversation` with `--source byok` only).'),
    weekStart: z
      .enum(['monday', 'sunday'])
      .optional()
      .describe('Additive, with `--by week` only: the first day of a week.'),
    groups: z
      .array(costGroupSchema)
      .optional()
      .describe(
        'Additive, with `--by` only: the groups in `--order` (time oldest first, models, kinds and conversations ' +
          'most expensive first, by default).',
      ),
    byok: byokSchema.optional().describe('Additive, with `--source byok` only.'),
  })
  .meta({
    title: 'Cost row',
    about:
      "One account's cost over the window. Unknown values are omitted, never written as 0. List-price estimates " +
      'use a bundled table (each row names its source and date, `src/cost/price-table.ts`) and apply only when ' +
      'Cursor sent no `totalCents`; they are not what Cursor charged, which is `meteredCostUSD`.',
  });

const costErrorSchema = z
  .strictObject({
    code: count.describe('The exit code this failure gives: 1, or 4 for a timeout.'),
    message: z.string().min(1).describe('What went wrong, without the `Error: ` prefix. Never a credential.'),
  })
  .meta({ title: 'Cost error', about: "A cost error row's `error`: CodexBar's cost rows carry no `kind`." });

export const costErrorRowSchema = z
  .strictObject({
    provider: z.literal('cursor').describe('Always `cursor`.'),
    account: costRowFields.account,
    source: z.enum(['web', 'byok']).describe('`web`; `byok` with `--source byok`.'),
    updatedAt: isoDate.describe('The time of the error.'),
    daily: z.tuple([]).describe('Always `[]`.'),
    projects: z.tuple([]).describe('Always `[]`.'),
    error: costErrorSchema.describe('The failure.'),
  })
  .meta({
    title: 'Cost error row',
    about:
      'One account that failed: no session, not logged in, cursor.com failing, incomplete pagination, a timeout. ' +
      'Never a partial total.',
  });

export const costOutputSchema = z.array(z.union([costRowSchema, costErrorRowSchema, cliErrorRowSchema]));

export type CostRowJson = z.infer<typeof costRowSchema>;

/** `team cost` builds on the cost row (test/helpers/json-rows/team.ts). */
export const costRowShape = costRowFields;
