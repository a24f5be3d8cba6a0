/** `codexbar team spend|usage|cost`: Cursor's Admin API for team admins. */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type CliIo, terminalColumns } from '../cli/io.js';
import { choiceOption, wholeNumber } from '../cli/parsers.js';

import {
  addStoreOptions,
  addWindowOptions,
  type WindowFlags,
  windowFromFlags,
} from '../cli/window-options.js';
import { createListPricer } from '../cost/pricing.js';
import { localTimeZone } from '../lib/time-zone.js';
import { eventsPageMessage } from '../render/progress.js';
import { renderTeamCostCsv, renderTeamCostText, teamCostJsonRow } from '../render/team-cost.js';
import { renderSpendCsv, renderSpendText, spendJsonRow } from '../render/team-spend.js';
import { renderUsageCsv, renderUsageText, usageJsonRow } from '../render/team-usage.js';
import { withEventStore } from '../session/event-store.js';
import { parseTeamOutput, runTeamCommand, type TeamIo, type TeamRun } from '../session/team-run.js';
import { collectTeamCost } from '../team/cost.js';
import { collectTeamSpend, SPEND_SORTS, type SpendSort, selectSpend } from '../team/spend.js';
import { memberStoreKey } from '../team/store-key.js';
import { collectDailyUsage } from '../team/usage.js';
import { aggregateDailyUsage } from '../team/usage-aggregate.js';

function parsePercent(value: string): number {
  const number = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 100_000)) {
    throw new InvalidArgumentError(
      `--over must be a percentage of the limit from 0, e.g. 80 (got '${value}').`,
    );
  }
  return number;
}

function parseEmail(value: string): string {
  const email = value.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new InvalidArgumentError(`--member must be the member's email address (got '${value}').`);
  }
  return email;
}

function addOutputOptions(command: Command): Command {
  return command
    .addOption(choiceOption('--format <format>', 'output format', ['text', 'json', 'csv']))
    .addOption(new Option('--json', 'same as --format json').conflicts(['csv', 'format']))
    .addOption(new Option('--csv', 'same as --format csv (RFC 4180, CRLF)').conflicts(['format']))
    .option('--json-only', 'JSON on stdout and nothing on stderr')
    .option('--pretty', 'pretty JSON (sorted keys)')
    .option('--no-color', 'no ANSI colours in text output')
    .option('-v, --verbose', 'request and wait lines on stderr (never the key, never member emails)')
    .option('--api-key-stdin', 'read the Admin API key from the first line of stdin');
}

const memberOption = () => new Option('--member <email>', 'only this member').argParser(parseEmail);

function actionFor(io: CliIo, setExitCode: (code: number) => void, action: TeamAction) {
  return async (raw: Record<string, unknown>) => {
    const output = parseTeamOutput(raw);
    setExitCode(await runTeamCommand(io as TeamIo, output, (run) => ACTIONS[action](run, raw)));
  };
}

const KEY_HELP = [
  '',
  'The Admin API key (a team admin key, key_… or crsr_…) comes from --api-key-stdin, then',
  'CURSOR_ADMIN_API_KEY, then "apiKey" in the cursor entry of the config file. It is never',
  'accepted as an argument and never printed. CODEXBAR_CURSOR_ADMIN_BASE_URL replaces https://api.cursor.com.',
].join('\n');

/** Adds `team` and its three subcommands to the program (so they inherit its output and exit settings). */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  const team = program
    .command('team')
    .description("team admins: members' spend, daily usage and team-wide cost from Cursor's Admin API")
    .addHelpText('after', KEY_HELP);

  addOutputOptions(team.command('spend').description("members' spend this cycle, sorted by spend"))
    .addOption(
      new Option('--over <percent>', 'only members above this share of their limit; exit 3 if any').argParser(
        parsePercent,
      ),
    )
    .addOption(choiceOption('--sort <key>', 'sort order', SPEND_SORTS).default('spend'))
    .addOption(new Option('--limit <n>', 'at most N members').argParser(wholeNumber('--limit', 1, 1_000_000)))
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 success, 3 when --over matches any member (for cron alerts), 1 any failure, 4 a timeout.',
        '',
        'Examples:',
        '  CURSOR_ADMIN_API_KEY=key_… codexbar team spend',
        '  codexbar team spend --over 80 || notify "someone is near their limit"',
        '  codexbar team spend --sort percent --limit 10 --csv > spend.csv',
        KEY_HELP,
      ].join('\n'),
    )
    .action(actionFor(io, setExitCode, 'spend'));

  addWindowOptions(
    addOutputOptions(team.command('usage').description('daily usage per day and per member over any window')),
    { all: false },
  )
    .addOption(memberOption())
    .addHelpText(
      'after',
      [
        '',
        'Windows longer than 30 days are fetched in 30-day requests, about 20 a minute.',
        '',
        'Examples:',
        '  codexbar team usage --days 90',
        '  codexbar team usage --month --member dev@example.com --json',
        KEY_HELP,
      ].join('\n'),
    )
    .action(actionFor(io, setExitCode, 'usage'));

  addStoreOptions(
    addWindowOptions(
      addOutputOptions(
        team.command('cost').description('team-wide cost per day, model, member and kind, from usage events'),
      ),
      { all: false },
    ),
  )
    .addOption(memberOption())
    .option('--breakdown', 'per-model rows under each day')
    .option('--compact', 'the narrow table layout')
    .addHelpText(
      'after',
      [
        '',
        'Events are paged 1,000 at a time within about 60 requests a minute; a long fetch shows its',
        'progress and any rate-limit wait on stderr. Events older than 48 hours are kept in a local',
        'store and reused once the API confirms their count, so a repeated run asks for little more',
        'than the last two days.',
        '',
        'Examples:',
        '  codexbar team cost --days 7',
        '  codexbar team cost --month --csv > cost.csv',
        KEY_HELP,
      ].join('\n'),
    )
    .action(actionFor(io, setExitCode, 'cost'));
}

/** `team spend --over` exit code when any member is over: for cron alerts. */
const OVER_EXIT_CODE = 3;

type TeamAction = 'spend' | 'usage' | 'cost';

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
  // The team's event store, or one of its own for one member's events.
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
