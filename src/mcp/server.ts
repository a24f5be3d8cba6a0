/**
 * `codexbar mcp`'s tools: usage, cost, a budget check and the model catalog, each with a declared input and
 * output schema, a JSON row as structured content and a short text. They only read: the figures come through
 * the same session, cache and collect steps as the commands, and nothing is written but those caches. A
 * failure is a tool error whose text is what the CLI prints on stderr, credentials redacted
 * (docs/invariants.md, "Never a credential shown").
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorLine } from '../cli/output.js';
import { groupReport } from '../cost/groups.js';
import { hintFor } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { redact } from '../lib/redact.js';
import { buildCatalog } from '../models/catalog.js';
import { costRow } from '../render/cost-json.js';
import { modelsJson } from '../render/models-json.js';
import { safeText } from '../render/safe-text.js';
import { usageRow } from '../render/usage-json.js';
import type { AccountOutcome } from '../session/per-account.js';
import { labelledSnapshot } from '../usage/account-label.js';
import { type BudgetVerdict, unavailableVerdict, verdictOf } from '../usage/budget.js';
import type { McpContext } from './context.js';
import { collectAccountCost, costWindow } from './cost-source.js';
import { obtainAccountModels } from './models-source.js';
import {
  budgetInput,
  budgetOutput,
  costInput,
  costOutput,
  modelsInput,
  modelsOutput,
  usageInput,
  usageOutput,
} from './schemas.js';
import { budgetText, costText, modelsText, usageText } from './texts.js';
import { UsageSource } from './usage-source.js';

/** Every tool only reads, and talks to cursor.com. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export function createMcpServer(context: McpContext, version: string): McpServer {
  const server = new McpServer({ name: 'codexbar', version }, { capabilities: { tools: {} } });
  const usage = new UsageSource(context);

  server.registerTool(
    'cursor_usage',
    {
      title: 'Cursor plan usage',
      description:
        "The Cursor plan's usage: percent used per window, when each resets, on-demand spend and pace " +
        '(`codexbar usage --json`). Answered from a snapshot at most the server’s max age old (default 60 s).',
      inputSchema: usageInput,
      outputSchema: usageOutput,
      annotations: READ_ONLY,
    },
    ({ account }) =>
      answer(context, async () => {
        const outcome = await usage.obtain(account);
        if (!outcome.ok) return failure(outcome);
        const label = outcome.account?.label;
        const { snapshot, fetchedAt, fromCache } = outcome.value;
        const row = usageRow(labelledSnapshot(snapshot, label), context.io.now(), { account: label });
        return success(
          { ...row, fetchedAt, fromCache },
          usageText(snapshot, label, outcome.value, context.io.now()),
        );
      }),
  );

  server.registerTool(
    'cursor_budget_check',
    {
      title: 'Cursor budget check',
      description:
        'Whether at least `min_remaining` percent of a Cursor window is left, by `codexbar guard`’s rules: ' +
        '`ok`, `blocked`, or `unknown` when the figures cannot be had. Check it before a long task.',
      inputSchema: budgetInput,
      outputSchema: budgetOutput,
      annotations: READ_ONLY,
    },
    ({ min_remaining, window, account }) =>
      answer(context, async () => {
        let verdict: BudgetVerdict;
        // As `guard` names it: only when the call named an account.
        let label: string | undefined;
        let extra: Record<string, unknown> = {};
        try {
          const outcome = await usage.obtain(account);
          label = account === undefined ? undefined : outcome.account?.label;
          if (outcome.ok) {
            verdict = verdictOf(outcome.value.snapshot, window, min_remaining);
            extra = { fetchedAt: outcome.value.fetchedAt, fromCache: outcome.value.fromCache };
          } else {
            verdict = unavailableVerdict(outcome.error);
            extra = { message: errorText(outcome.error, label) };
          }
        } catch (error) {
          // Guard's rule: an account that cannot be selected is unavailable, not a failed check.
          verdict = unavailableVerdict(error);
          extra = { message: errorText(error) };
        }
        const result = {
          provider: 'cursor',
          account: label,
          window,
          remainingPercent: verdict.remainingPercent,
          minimumRemainingPercent: min_remaining,
          decision: verdict.decision,
          unavailableReason: verdict.unavailableReason,
          ...extra,
        };
        return success(result, budgetText(result));
      }),
  );

  server.registerTool(
    'cursor_cost',
    {
      title: 'Cursor cost',
      description:
        'What Cursor usage cost over a window, at API list prices and as Cursor metered it, per day and per ' +
        'model (`codexbar cost --json`); `by` adds groups per day, week, month, model or kind.',
      inputSchema: costInput,
      outputSchema: costOutput,
      annotations: READ_ONLY,
    },
    ({ by, account, ...window }) =>
      answer(context, async () => {
        const outcome = await collectAccountCost(context, costWindow(context, window), account);
        if (!outcome.ok) return failure(outcome);
        const report = outcome.value;
        const label = outcome.account?.label;
        const grouping = by && {
          by,
          weekStart: 'monday' as const,
          groups: groupReport(report, { by, weekStart: 'monday' }),
        };
        return success(costRow(report, { account: label, grouping }), costText(report, label));
      }),
  );

  server.registerTool(
    'cursor_models',
    {
      title: 'Cursor models',
      description:
        'The models Cursor offers this account, with list prices per million tokens (`codexbar models --json`); ' +
        'cached for 24 h.',
      inputSchema: modelsInput,
      outputSchema: modelsOutput,
      annotations: READ_ONLY,
    },
    ({ account }) =>
      answer(context, async () => {
        const outcome = await obtainAccountModels(context, account);
        if (!outcome.ok) return failure(outcome);
        const { answer: models, fetchedAt, fromCache } = outcome.value;
        const catalog = buildCatalog(models, context.io.now());
        const content = {
          models: modelsJson(catalog, fetchedAt),
          unpriced: catalog.unpriced,
          fetchedAt,
          fromCache,
        };
        return success(content, modelsText(catalog, fetchedAt, fromCache, context.io.now()));
      }),
  );

  return server;
}

/** A thrown error (a bad argument, a config or selection error) is the call's failure, as the CLI prints it. */
async function answer(context: McpContext, perform: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await perform();
  } catch (error) {
    context.log(`[mcp] ${errorLine(error)}`);
    return { content: [{ type: 'text', text: errorText(error) }], isError: true };
  }
}

function failure(outcome: Extract<AccountOutcome<unknown>, { ok: false }>): CallToolResult {
  return {
    content: [{ type: 'text', text: errorText(outcome.error, outcome.account?.label) }],
    isError: true,
  };
}

/** What the CLI prints on stderr: `Error: …` (labelled for a token account) and `Hint: …`. */
function errorText(error: unknown, account?: string): string {
  const hint = hintFor(error);
  return hint ? `${errorLine(error, account)}\nHint: ${safeText(redact(hint))}` : errorLine(error, account);
}

/**
 * The row as the CLI's JSON encoder writes it (dates to the second, nothing undefined), and the short text
 * with control characters shown. Like the CLI's stdout, neither holds a credential: the rows are built from
 * the figures alone, and only error texts (which may quote a server) need redacting.
 */
function success(row: unknown, text: string): CallToolResult {
  const structured = JSON.parse(encodeJson(row)) as Record<string, unknown>;
  const shown = text
    .split('\n')
    .map((line) => safeText(line))
    .join('\n');
  return { content: [{ type: 'text', text: shown }], structuredContent: structured };
}
