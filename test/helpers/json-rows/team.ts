/**
 * `codexbar team spend|usage|cost --json`: one row in an array, from the
 * Admin API (`source: "admin-api"`); `team cost`'s is the cost row plus `tokenFeeUSD` and `byMember`.
 */
import { z } from 'zod';
import type { DailyMetric } from '../../../src/api/admin/schemas/daily-usage.js';
import { costRowShape, windowRequestCountsSchema } from './cost.js';
import { cliErrorRowSchema, count, errorBodySchema, isoDate, usd } from './shared.js';

const teamFields = {
  provider: z.literal('cursor').describe('Always `cursor`.'),
  source: z.literal('admin-api').describe('Always `admin-api`.'),
  updatedAt: isoDate.describe('The time of the report.'),
};

const memberSpendSchema = z
  .strictObject({
    name: z.string().optional().describe("The member's name, when the API sends one."),
    email: z.string().optional().describe('Their email, when the API sends one.'),
    role: z
      .string()
      .optional()
      .describe('Their role (`owner`, `member`, `free-owner`), when the API sends one.'),
    spendUSD: usd
      .optional()
      .describe('On-demand spend this cycle (the part a limit applies to); omitted when unknown.'),
    totalSpendUSD: usd.optional().describe('Included plus on-demand spend this cycle; omitted when unknown.'),
    limitUSD: usd
      .optional()
      .describe(
        'Their limit: the first positive one of the effective limit, the admin override and the monthly limit; ' +
          'omitted when none is set.',
      ),
    percentOfLimit: z.number().optional().describe('`spendUSD` ÷ `limitUSD` × 100; omitted without both.'),
    fastPremiumRequests: z.number().optional().describe("Cursor's fast premium request count, when sent."),
  })
  .meta({ title: 'Member spend', about: 'One member of `team spend`.' });

const teamSpendRowSchema = z
  .strictObject({
    ...teamFields,
    subscriptionCycleStart: isoDate.optional().describe('When the billing cycle started, when the API says.'),
    totalMembers: count.describe('Members of the team, whatever `--over` and `--limit` keep.'),
    spendUSD: usd.optional().describe("Σ every member's `spendUSD`; omitted when any member's is unknown."),
    totalSpendUSD: usd
      .optional()
      .describe("Σ every member's `totalSpendUSD`; omitted when any member's is unknown."),
    over: z
      .strictObject({
        percent: z.number().describe('`--over`.'),
        count: count.describe(
          'Members strictly above it (whatever `--limit` shows); any makes the run exit 3.',
        ),
      })
      .optional()
      .describe('With `--over` only.'),
    members: z
      .array(memberSpendSchema)
      .describe(
        'The members `--over` keeps, in `--sort` order (spend, largest first, by default), cut to `--limit`.',
      ),
  })
  .meta({ title: 'Team spend row', about: "Members' spend in the current billing cycle." });

const METRIC_DESCRIPTIONS: Record<DailyMetric, string> = {
  totalLinesAdded: 'Lines added.',
  totalLinesDeleted: 'Lines deleted.',
  acceptedLinesAdded: 'Lines added by accepted suggestions.',
  acceptedLinesDeleted: 'Lines deleted by accepted suggestions.',
  totalApplies: 'Applies.',
  totalAccepts: 'Accepts.',
  totalRejects: 'Rejects.',
  totalTabsShown: 'Tab completions shown.',
  totalTabsAccepted: 'Tab completions accepted.',
  composerRequests: 'Composer requests.',
  chatRequests: 'Chat requests.',
  agentRequests: 'Agent requests.',
  cmdkUsages: 'Cmd-K uses.',
  subscriptionIncludedReqs: 'Requests included in the subscription.',
  usageBasedReqs: 'Usage-based requests.',
  apiKeyReqs: "Requests on the member's own API key.",
  bugbotUsages: 'Bugbot uses.',
};

/** Cursor's daily counters, summed; one missing or malformed in any row leaves every sum it enters unknown. */
const metricFields = Object.fromEntries(
  Object.entries(METRIC_DESCRIPTIONS).map(([metric, description]) => [
    metric,
    z.number().nonnegative().optional().describe(`${description} Omitted when unknown.`),
  ]),
) as Record<DailyMetric, z.ZodOptional<z.ZodNumber>>;

const requestsField = count
  .optional()
  .describe('Included + usage-based + API-key requests; omitted when any of the three is unknown.');

const teamUsageRowSchema = z
  .strictObject({
    ...teamFields,
    window: z
      .strictObject({
        start: isoDate.describe("The window's start: local midnight of its first day."),
        end: isoDate.describe("Its end: now, or the end of a past `--until`'s day."),
        timeZone: z.string().min(1).describe('The IANA zone of the window (`--timezone`, else `TZ`).'),
      })
      .describe(
        "The window, as `cost`'s. Rows stay on Cursor's own day; days outside the window's are dropped.",
      ),
    historyDays: count.describe("The window's length in local days."),
    requestsSent: count.describe(
      'How many Admin API requests the run made (one per 30-day piece, plus pages).',
    ),
    totals: z
      .strictObject({
        activeMembers: count.describe('Members active on at least one day.'),
        requests: requestsField,
        ...metricFields,
      })
      .describe('The whole window.'),
    daily: z
      .array(
        z
          .strictObject({
            date: z.iso.date().describe("Cursor's day."),
            members: count.describe('Members with a row that day.'),
            activeMembers: count.describe('Of them, those marked active.'),
            requests: requestsField,
            ...metricFields,
          })
          .meta({ title: 'Team usage day', about: 'One day, summed over its members.' }),
      )
      .describe('One entry per day with rows, oldest first.'),
    members: z
      .array(
        z
          .strictObject({
            member: z.string().describe('Their email, else `user <id>`, else `(unknown member)`.'),
            days: count.describe('Days with a row.'),
            activeDays: count.describe('Of them, days marked active.'),
            requests: requestsField,
            mostUsedModel: z
              .string()
              .optional()
              .describe(
                "The model named most often as the day's most used, over their active days (ties alphabetically).",
              ),
            ...metricFields,
          })
          .meta({ title: 'Team usage member', about: 'One member, summed over the window.' }),
      )
      .describe('Most requests first (unknown last), then by name.'),
  })
  .meta({
    title: 'Team usage row',
    about: "Cursor's daily usage data summed per day and per member (`--member` keeps one).",
  });

const { provider: _provider, account: _account, source: _source, ...teamCostShape } = costRowShape;

const memberCostSchema = z
  .strictObject({
    member: z.string().describe("The member's email, as the events name it."),
    requests: count.describe('Their counted events.'),
    totalTokens: count.optional().describe('Their tokens; omitted when unknown.'),
    tokenFeeUSD: usd
      .optional()
      .describe('The Cursor token fee they paid; omitted when no event of the team carries one.'),
    apiRateCostUSD: teamCostShape.apiRateCostUSD.describe('Their API-rate cost; omitted when unknown.'),
    meteredCostUSD: teamCostShape.meteredCostUSD.describe(
      'Their Cursor-metered cost; omitted unless every event has it.',
    ),
    byModel: teamCostShape.byModel.describe("Their models, as the row's `byModel`."),
    byKind: teamCostShape.byKind.describe("Their billing kinds, as the row's `byKind`."),
    requestCounts: windowRequestCountsSchema.describe('How their token requests were priced.'),
  })
  .meta({ title: 'Member cost', about: 'One member of `team cost`.' });

const teamCostRowSchema = z
  .strictObject({
    provider: teamFields.provider,
    source: teamFields.source,
    ...teamCostShape,
    tokenFeeUSD: usd
      .optional()
      .describe(
        'The Cursor token fee (Σ `cursorTokenFee`, part of Cursor-metered); omitted unless some event carries one.',
      ),
    byMember: z.array(memberCostSchema).describe('Every member with events.'),
  })
  .meta({
    title: 'Team cost row',
    about:
      "The cost row of `codexbar cost` for the whole team (no `account`; no `--by`), from the Admin API's usage " +
      "events, plus the token fee and each member. Event kinds are the Admin API's English labels (`Usage-based`, " +
      '`Included in <plan>`, `User API Key`, `Errored, Not Charged`, …), mapped to the same buckets; any other label ' +
      'counts as `other`.',
  });

const teamErrorRowSchema = z
  .strictObject({
    ...teamFields,
    updatedAt: isoDate.describe('The time of the error.'),
    error: errorBodySchema.describe('The failure.'),
  })
  .meta({
    title: 'Team error row',
    about:
      'Any `team` failure but an argument or config error (a missing or malformed key is a `cli` row): the Admin ' +
      'API refusing the key or failing, incomplete paging, a timeout. It carries `kind`, unlike the cost error row.',
  });

export const teamSpendOutputSchema = z.array(
  z.union([teamSpendRowSchema, teamErrorRowSchema, cliErrorRowSchema]),
);
export const teamUsageOutputSchema = z.array(
  z.union([teamUsageRowSchema, teamErrorRowSchema, cliErrorRowSchema]),
);
export const teamCostOutputSchema = z.array(
  z.union([teamCostRowSchema, teamErrorRowSchema, cliErrorRowSchema]),
);
