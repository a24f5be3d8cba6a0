/**
 * `cursor_cost`: the report `codexbar cost` makes for the same window (src/commands/cost.ts): the account's
 * event store, every events page, one deadline for the whole call (docs/invariants.md, "No partial total").
 */
import { windowFromFlags } from '../cli/window-options.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { parseCivilDate } from '../cost/window.js';
import { ArgumentError } from '../errors.js';
import { canonicalTimeZone } from '../lib/time-zone.js';
import { accountCostReport } from '../session/account-cost.js';
import type { AccountOutcome } from '../session/per-account.js';
import { asAccount, type McpContext, toolOptions } from './context.js';

/** `cost --timeout`'s default. */
const COST_DEADLINE_MS = 120_000;

export interface CostInput {
  days?: number;
  since?: string;
  until?: string;
  month?: boolean;
  timezone?: string;
}

/** The window as `cost`'s flags would name it; a mix they refuse, or a date that is none, is an argument error. */
export function costWindow(context: McpContext, input: CostInput): CostWindow {
  const dated = input.since !== undefined || input.until !== undefined;
  if (input.days !== undefined && (dated || input.month === true)) {
    throw new ArgumentError('days cannot be combined with since, until or month.');
  }
  if (input.month === true && dated) {
    throw new ArgumentError('month cannot be combined with since or until.');
  }
  let timezone: string | undefined;
  if (input.timezone !== undefined) {
    timezone = canonicalTimeZone(input.timezone.trim());
    if (!timezone) {
      throw new ArgumentError(
        `timezone must be an IANA time zone name such as America/New_York, Europe/Berlin or UTC (got '${input.timezone}').`,
      );
    }
  }
  return windowFromFlags(
    {
      days: input.days,
      since: civilDate('since', input.since),
      until: civilDate('until', input.until),
      month: input.month === true ? true : undefined,
      timezone,
    },
    context.io,
    context.log,
  );
}

function civilDate(name: string, value: string | undefined) {
  if (value === undefined) return undefined;
  const date = parseCivilDate(value);
  if (!date) {
    throw new ArgumentError(
      `${name} must be a date as YYYY-MM-DD or YYYYMMDD, e.g. 2026-11-01 (got '${value}').`,
    );
  }
  return date;
}

export function collectAccountCost(
  context: McpContext,
  window: CostWindow,
  account: string | undefined,
): Promise<AccountOutcome<CostReport>> {
  const { io } = context;
  const options = toolOptions();
  const deadline = { signal: io.timing.deadline(COST_DEADLINE_MS), ms: COST_DEADLINE_MS };
  return asAccount(context, options, account, (target, log) =>
    accountCostReport(io, options, target, log, {
      window,
      deadline,
      store: { noCache: false, refresh: false },
      storeLog: log,
    }),
  );
}
