/**
 * `codexbar usage --json`: CodexBar's usage row plus the additive
 * `pace.extra` and `usage.memberBudget`, the provider error row, and the `cli` row.
 */
import { z } from 'zod';
import { cliErrorRowSchema, count, errorBodySchema, isoDate } from './shared.js';

const accountField = z
  .string()
  .optional()
  .describe(
    "The token account's label, as stored in the config file, when a token account supplied the session: " +
      'the active one, or the ones `--account`, `--account-index` or `--all-accounts` chose. Right after `provider`.',
  );

const statusSchema = z
  .strictObject({
    indicator: z
      .enum(['none', 'minor', 'major', 'critical', 'maintenance', 'unknown'])
      .describe(
        "Statuspage's indicator; `unknown` for any other value, and when the status page failed (no answer within " +
          '10 s, a non-200, not JSON).',
      ),
    description: z
      .string()
      .optional()
      .describe(
        "The status page's description (`All Systems Operational`), or why it failed " +
          '(`Status page answered HTTP 503`).',
      ),
    updatedAt: isoDate.optional().describe('When the status page last changed, when it says so.'),
    url: z
      .string()
      .describe(
        'The status site a person opens: `https://status.cursor.com`, or `CODEXBAR_CURSOR_STATUS_URL`.',
      ),
  })
  .meta({
    title: 'Status',
    about:
      "cursor.com's status page, with `--status`; asked once per run, without any credential. A failed status " +
      'page never fails the row.',
  });

const statusField = statusSchema.optional().describe('With `--status` only, on every row (error rows too).');

const rateWindowSchema = z
  .strictObject({
    usedPercent: z
      .number()
      .describe('Percent used. Can exceed 100 on a legacy request plan (600 of 500 requests is 120).'),
    windowMinutes: count
      .optional()
      .describe(
        'The window length in minutes: the billing cycle (44640 for 31 days), 10080 for a weekly window.',
      ),
    resetsAt: isoDate.optional().describe('When the window resets.'),
    resetDescription: z
      .string()
      .optional()
      .describe(
        'The reset as text, `Resets Aug 5 at 12:00AM`; on a legacy request plan `120 / 500 requests`.',
      ),
  })
  .meta({ title: 'Rate window', about: 'One usage window. A Grok Bot trial has only `usedPercent`.' });

const paceEntrySchema = z
  .strictObject({
    stage: z
      .enum(['onTrack', 'slightlyAhead', 'ahead', 'farAhead', 'slightlyBehind', 'behind', 'farBehind'])
      .describe(
        'How far usage is from an even pace: within 2 points `onTrack`, then up to 6, 12 and beyond.',
      ),
    deltaPercent: z
      .number()
      .int()
      .describe(
        'Used minus expected, in whole percent: positive is ahead of pace (a deficit), negative in reserve.',
      ),
    expectedUsedPercent: z
      .number()
      .int()
      .describe('The share of the window that has passed, in whole percent.'),
    willLastToReset: z.boolean().describe('Whether the allowance lasts until the reset at the current rate.'),
    etaSeconds: count
      .optional()
      .describe('Seconds until it runs out at the current rate; omitted when it lasts until the reset.'),
    summary: z.string().describe('The text line: `8% in reserve | Expected 50% used | Lasts until reset`.'),
  })
  .meta({ title: 'Pace entry', about: "A window's pace." });

const paceSchema = z
  .strictObject({
    primary: paceEntrySchema.optional().describe("`usage.primary`'s pace, when it qualifies."),
    secondary: paceEntrySchema.optional().describe("`usage.secondary`'s pace, when it qualifies."),
    tertiary: paceEntrySchema.optional().describe("`usage.tertiary`'s pace, when it qualifies."),
    extra: z
      .record(z.string(), paceEntrySchema)
      .optional()
      .meta({
        keyName: 'window id',
        description:
          'Additive: the pace of a paid weekly Grok Bot allowance, keyed by its extra window id: ' +
          '`{"cursor-grok-bot": {…}}`.',
      }),
  })
  .meta({
    title: 'Pace',
    about:
      'Pace against each window. A window qualifies when it has a length and a reset within it, is not used up, ' +
      'and at least 3 % of it has passed. `runOutProbability` and `actualUsedPercent` (CodexBar) are never written.',
  });

const usageSchema = z
  .strictObject({
    primary: rateWindowSchema
      .nullable()
      .describe(
        "The plan's headline window: Total; the shared weekly pool of a unified Cursor/Grok account; the request " +
          "quota of a legacy request plan; a Business or Enterprise member's own budget when one was verified. " +
          'Always present, `null` when missing.',
      ),
    secondary: rateWindowSchema
      .nullable()
      .describe(
        'The Cursor window (Auto + Composer) of the billing cycle. Always present, `null` when missing.',
      ),
    tertiary: rateWindowSchema
      .nullable()
      .describe('The Third Party window (named API models). Always present, `null` when missing.'),
    extraRateWindows: z
      .array(
        z
          .strictObject({
            id: z.literal('cursor-grok-bot').describe('The window id.'),
            title: z.literal('Grok Bot').describe('The label text output uses.'),
            window: rateWindowSchema.describe('Paid: weekly, with its reset; trial: only `usedPercent`.'),
            usageKnown: z.literal(false).optional().describe('Written only when `false`: never for Cursor.'),
          })
          .meta({
            title: 'Extra rate window',
            about: 'A usage window beside the three: the Grok Bot allowance.',
          }),
      )
      .optional()
      .describe(
        'A paid weekly Grok Bot allowance or an unexpired trial; omitted when there is none (and for a unified ' +
          'account, whose pool is `primary`).',
      ),
    providerCost: z
      .strictObject({
        used: z
          .number()
          .describe(
            "On-demand spend this cycle, USD: your own, or the team pool's when `personalUsed` is there.",
          ),
        limit: z.number().describe("Your on-demand limit, else the team's; 0 for spend with no limit."),
        currencyCode: z.literal('USD').describe('Always `USD`.'),
        period: z.string().optional().describe('`Monthly`.'),
        resetsAt: isoDate.optional().describe('The end of the billing cycle, when known.'),
        personalUsed: z
          .number()
          .optional()
          .describe(
            'Your own spend when `used` and `limit` are the team pool; text says `Your spend: $44.71`.',
          ),
        updatedAt: isoDate.describe('When the figures were fetched.'),
      })
      .meta({
        title: 'Provider cost',
        about: 'On-demand spend ("Extra usage") and its limit, as the `On-demand: $12.34 / $50.00` line.',
      })
      .optional()
      .describe('On-demand spend; present only when something was spent or there is a limit.'),
    memberBudget: z
      .strictObject({
        used: z.number().describe('Your spend this cycle, USD.'),
        limit: z.number().describe('Your limit, USD.'),
        currencyCode: z.literal('USD').describe('Always `USD`.'),
      })
      .optional()
      .describe(
        "Additive: a Business or Enterprise member's own spend and limit, present only when a verified member " +
          'budget drove the primary percent.',
      ),
    details: z
      .array(
        z
          .strictObject({
            title: z.string().optional().describe('`Usage`.'),
            rows: z
              .array(
                z
                  .strictObject({
                    label: z.string().describe('`Request quota`.'),
                    value: z.string().describe('`120 / 500`.'),
                    secondaryValue: z.string().optional().describe('A second value, when the row has one.'),
                  })
                  .meta({ title: 'Detail row', about: 'One labelled value.' }),
              )
              .describe('Its rows; a section is never empty.'),
          })
          .meta({
            title: 'Detail section',
            about: 'A titled list of rows, for what the windows do not show.',
          }),
      )
      .optional()
      .describe('Legacy request plans: the request quota. Omitted when empty.'),
    updatedAt: isoDate.describe(
      'When the figures were fetched (with `--max-age`, when the cached snapshot was).',
    ),
    identity: z
      .strictObject({
        providerID: z.literal('cursor').describe('Always `cursor`.'),
        accountEmail: z
          .string()
          .optional()
          .describe(
            "The account's email (`/api/auth/me`, else the session token); a token account's label when neither says.",
          ),
        accountOrganization: z.string().optional().describe('CodexBar has it; Cursor never sets it.'),
        loginMethod: z
          .string()
          .optional()
          .describe('The plan: `Cursor Pro`, `Cursor Enterprise`, …; omitted when unknown.'),
        accountID: z
          .string()
          .optional()
          .describe(
            "`/api/auth/me`'s `sub`, else the session token's; omitted on a token account's row, as CodexBar.",
          ),
      })
      .meta({
        title: 'Identity',
        about: 'Whose usage this is. It always belongs to the session whose usage is shown.',
      })
      .describe('Whose usage this is.'),
    accountEmail: z.string().optional().describe('A copy of `identity.accountEmail`.'),
    accountOrganization: z.string().optional().describe('A copy of `identity.accountOrganization`.'),
    loginMethod: z.string().optional().describe('A copy of `identity.loginMethod`.'),
  })
  .meta({
    title: 'Usage',
    about:
      "The figures, in CodexBar's order. The labels text shows (`Total`, `Weekly`, `Cursor`, …) are not in the " +
      'JSON: primary is primary.',
  });

export const usageRowSchema = z
  .strictObject({
    provider: z.literal('cursor').describe('Always `cursor`.'),
    account: accountField,
    source: z
      .enum(['web', 'rpc'])
      .describe(
        "The door the figures came through: `web` (cursor.com, as CodexBar), or `rpc` (api2's Connect RPCs, with `--source rpc` or when cursor.com's usage endpoint changed and a Cursor app or cursor-agent token was at hand). The figures mean the same either way.",
      ),
    status: statusField,
    usage: usageSchema.describe('The figures.'),
    pace: paceSchema.optional().describe('Pace against the windows that qualify; omitted when none does.'),
  })
  .meta({
    title: 'Usage row',
    about: 'One account whose usage was fetched (or read from the cache with `--max-age`).',
  });

export const usageErrorRowSchema = z
  .strictObject({
    provider: z.literal('cursor').describe('Always `cursor`.'),
    account: accountField,
    source: z
      .enum(['auto', 'web', 'cli', 'oauth', 'api'])
      .describe(
        '`--source` as given (`auto` without it); `oauth` and `api` are valid values Cursor does not support.',
      ),
    status: statusField,
    error: errorBodySchema.describe('The failure.'),
  })
  .meta({
    title: 'Usage error row',
    about:
      'One account that failed: no session, not logged in, cursor.com failing, a timeout, an unparsable answer, an ' +
      'account that cannot be selected. With several accounts the others still print; the run exits with the last ' +
      "failing row's code.",
  });

export const usageOutputSchema = z.array(z.union([usageRowSchema, usageErrorRowSchema, cliErrorRowSchema]));
