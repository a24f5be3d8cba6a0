/**
 * What `codexbar team spend|usage|cost` do once they run (docs/behaviour.md §30). src/commands/team.ts
 * registers the commands and imports this only when one runs, so no other command loads the Admin API
 * client, the team collectors or their renderers (docs/architecture.md, Start-up).
 */

import type { CliIo } from '../cli/io.js';
import { type WindowFlags, windowFromFlags } from '../cli/window-options.js';
import { createListPricer } from '../cost/pricing.js';
import { localTimeZone } from '../lib/time-zone.js';
import { eventsPageMessage } from '../render/progress.js';
import { renderTeamCostCsv, renderTeamCostText, teamCostJsonRow } from '../render/team-cost.js';
import { renderSpendCsv, renderSpendText, spendJsonRow } from '../render/team-spend.js';
import { renderUsageCsv, renderUsageText, usageJsonRow } from '../render/team-usage.js';
import { withEventStore } from '../session/event-store.js';
import { parseTeamOutput, runTeamCommand, type TeamIo, type TeamRun } from '../session/team-run.js';
import { collectTeamCost } from '../team/cost.js';
import { collectTeamSpend, selectSpend } from '../team/spend.js';
import type { SpendSort } from '../team/spend-sorts.js';
import { memberStoreKey } from '../team/store-key.js';
import { collectDailyUsage } from '../team/usage.js';
import { aggregateDailyUsage } from '../team/usage-aggregate.js';

/** `team spend --over` exit code when any member is over: for cron alerts (docs/behaviour.md §30). */
const OVER_EXIT_CODE = 3;
const UNBOUNDED_COLUMNS = 1000;

export type TeamAction = 'spend' | 'usage' | 'cost';

/** Runs one `team` subcommand with commander's parsed flags; resolves to the exit code. */
export function runTeamAction(io: CliIo, action: TeamAction, raw: Record<string, unknown>): Promise<number> {
  const output = parseTeamOutput(raw);
  return runTeamCommand(io as TeamIo, output, (run) => ACTIONS[action](run, raw));
}

function terminalColumns(io: CliIo): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return io.stdout.isTTY ? (io.stdout.columns ?? 80) : UNBOUNDED_COLUMNS;
}

function resolveWindow(raw: Record<string, unknown>, run: TeamRun) {
  return windowFromFlags(raw as WindowFlags, run.io, run.progress.verbose);
}

async function spendAction(run: TeamRun, raw: Record<string, unknown>): Promise<number> {
  const { context, reporter, progress, output, io } = run;
  const report = await collectTeamSpend(context, {
    now: io.now(),
    onPage: (page, total) => progress.step(`Fetching team spend… page ${page}/${total}`),
  });
  progress.finish();
  const over = raw.over as number | undefined;
  const selected = selectSpend(report.members, {
    over,
    sort: (raw.sort as SpendSort | undefined) ?? 'spend',
    limit: raw.limit as number | undefined,
  });
  const view = { report, selected, over };
  if (output.format === 'json') reporter.printJson([spendJsonRow(view)]);
  else if (output.format === 'csv') io.stdout.write(renderSpendCsv(view));
  else
    reporter.printText(renderSpendText(view, { colour: reporter.colour, timeZone: localTimeZone(io.env) }));
  return over !== undefined && selected.overCount > 0 ? OVER_EXIT_CODE : 0;
}

async function usageAction(run: TeamRun, raw: Record<string, unknown>): Promise<number> {
  const { context, reporter, progress, output, io } = run;
  const window = resolveWindow(raw, run);
  const fetched = await collectDailyUsage(context, {
    window,
    onRequest: ({ request, pieces }) =>
      progress.step(`Fetching daily usage… request ${request}${request <= pieces ? `/${pieces}` : ''}`),
  });
  progress.verbose(
    `[cursor-team] daily usage: ${fetched.requests} requests for ${fetched.pieces} 30-day pieces`,
  );
  progress.finish();
  const report = aggregateDailyUsage(fetched.rows, {
    window,
    generatedAt: io.now(),
    member: raw.member as string | undefined,
    requests: fetched.requests,
  });
  if (output.format === 'json') reporter.printJson([usageJsonRow(report)]);
  else if (output.format === 'csv') io.stdout.write(renderUsageCsv(report));
  else reporter.printText(renderUsageText(report, { colour: reporter.colour }));
  return 0;
}

async function costAction(run: TeamRun, raw: Record<string, unknown>): Promise<number> {
  const { context, reporter, progress, output, io } = run;
  const window = resolveWindow(raw, run);
  const member = raw.member as string | undefined;
  // docs/behaviour.md §30: the team's event store, or one of its own for one member's events.
  const key = member === undefined ? run.teamKey : memberStoreKey(run.teamKey, member);
  const choice = { noCache: raw.cache === false, refresh: raw.refresh === true };
  const target = { key, owner: 'team', tag: '[cursor-team]' } as const;
  const report = await withEventStore(run.env, choice, target, progress.verbose, (store) =>
    collectTeamCost(context, {
      window,
      member,
      pricing: createListPricer(),
      now: () => io.now(),
      store,
      onProgress: (page) => {
        progress.verbose(
          `[cursor-team] events piece ${page.piece}/${page.pieces} page ${page.page}: ${page.pageEvents} events (${page.eventsReceived} raw total)`,
        );
        const piece = page.pieces > 1 ? ` (30-day piece ${page.piece}/${page.pieces})` : '';
        progress.step(eventsPageMessage(page.page, page.pagesKnown ?? undefined) + piece);
      },
    }),
  );
  progress.finish();
  if (output.format === 'json') reporter.printJson([teamCostJsonRow(report)]);
  else if (output.format === 'csv') io.stdout.write(renderTeamCostCsv(report));
  else {
    reporter.printText(
      renderTeamCostText(report, {
        colour: reporter.colour,
        columns: terminalColumns(io),
        compact: raw.compact === true,
        breakdown: raw.breakdown === true,
        isTTY: io.stdout.isTTY === true,
      }),
    );
  }
  return 0;
}

const ACTIONS: Record<TeamAction, (run: TeamRun, raw: Record<string, unknown>) => Promise<number>> = {
  spend: spendAction,
  usage: usageAction,
  cost: costAction,
};
