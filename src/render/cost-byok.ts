/**
 * `cost --source byok` output: `cost`'s text and JSON row, labelled as the BYOK ledger's, with what the
 * ledger adds: how each figure was priced (provider-reported, list-price estimate, unpriced), the partial
 * requests, the requests without usage that no total holds (docs/invariants.md, "Fail closed"), the skipped
 * rows, and the cross-check against cursor.com. CSV is `cost`'s (src/render/cost-csv.ts).
 */

import { type CrossCheck, crossCheckDeviation } from '../cost/byok/cross-check.js';
import type { ByokCounts, ByokReport } from '../cost/byok/report.js';
import { type CostGrouping, type CostRow, costRow } from './cost-json.js';
import { type CostTextOptions, plural, renderCostText } from './cost-text.js';
import { formatCount, formatFixed } from './format.js';
import { safeText } from './safe-text.js';

export type ByokTextOptions = Omit<CostTextOptions, 'heading' | 'reportedBy' | 'totalNote' | 'extraLines'> & {
  /** The ledger's path as shown (home as `~`). */
  ledgerShown: string;
  crossCheck?: CrossCheck;
};

export function renderByokText(byok: ByokReport, options: ByokTextOptions): string {
  const { ledgerShown, crossCheck, ...text } = options;
  return renderCostText(byok.report, {
    ...text,
    heading: {
      title: 'BYOK Cost (codexbar proxy ledger)',
      hint:
        `From the codexbar proxy's ledger, ${safeText(ledgerShown)}: the provider's reported cost where it sent ` +
        "one, else list price; may differ from your provider's invoice.",
    },
    reportedBy: 'provider',
    totalNote: totalNote(byok.counts),
    extraLines: [...countLines(byok.counts), ...(crossCheck ? [crossCheckLine(crossCheck)] : [])],
    emptyText:
      byok.counts.requests === 0
        ? 'No BYOK requests in this window.'
        : 'No BYOK requests with usage in this window.',
  });
}

/** Whether every request of the window is in the totals: none without usage, none skipped. */
function totalsComplete(counts: ByokCounts): boolean {
  return counts.requestsWithoutUsage === 0 && counts.skippedRows === 0;
}

/** docs/invariants.md, "Fail closed": the total line says what it leaves out. */
function totalNote(counts: ByokCounts): string | undefined {
  if (totalsComplete(counts)) return undefined;
  const parts: string[] = [];
  if (counts.requestsWithoutUsage > 0) {
    parts.push(`${plural(counts.requestsWithoutUsage, 'request')} without usage`);
  }
  if (counts.skippedRows > 0) parts.push(plural(counts.skippedRows, 'skipped row'));
  return ` (not counting ${parts.join(' and ')})`;
}

function countLines(counts: ByokCounts): string[] {
  const lines: string[] = [];
  const { requestsWithoutUsage: without, partialRequests: partial, skippedRows: skipped } = counts;
  if (without > 0) {
    lines.push(
      `Note: ${plural(without, 'request')} without usage (aborted before the provider reported it): ` +
        'not in these totals.',
    );
  }
  if (partial > 0) {
    lines.push(
      `Note: ${plural(partial, 'partial request')} (the answer did not end cleanly): counted with the usage ` +
        'the proxy saw.',
    );
  }
  if (skipped > 0) {
    lines.push(
      `Note: ${plural(skipped, 'ledger row')} skipped: token counts that do not add up (cache reads and writes ` +
        `above the prompt) or are not whole numbers; ${skipped === 1 ? 'it is' : 'they are'} left out of every ` +
        'figure above.',
    );
  }
  return lines;
}

/** `Cross-check: the proxy saw … ; cursor.com recorded … (−2.0 %).` */
export function crossCheckLine(check: CrossCheck): string {
  const proxy = `the proxy saw ${plural(check.proxyTokens, 'token')} in ${plural(check.proxyRequests, 'request')}`;
  if (check.cursorRequests === 0) {
    return `Cross-check: ${proxy}; cursor.com recorded no BYOK requests in this window.`;
  }
  const deviation = crossCheckDeviation(check);
  const cursor =
    `cursor.com recorded ${plural(check.cursorTokens, 'token')} in ` +
    `${formatCount(check.cursorRequests)} BYOK request${check.cursorRequests === 1 ? '' : 's'}`;
  return `Cross-check: ${proxy}; ${cursor}${deviation === undefined ? '' : ` (${percent(deviation)})`}.`;
}

/** `−2.0 %`, `+0.4 %`, `±0.0 %`. */
function percent(value: number): string {
  const magnitude = formatFixed(Math.abs(value), 1);
  const sign = magnitude === '0.0' ? '±' : value < 0 ? '−' : '+';
  return `${sign}${magnitude} %`;
}

/** `cost`'s row, `source: "byok"`, and the ledger's counts under `byok` (additive). */
export function byokCostRow(byok: ByokReport, grouping?: CostGrouping, crossCheck?: CrossCheck): CostRow {
  const row = costRow(byok.report, { grouping });
  row.source = 'byok';
  row.byok = {
    ...byok.counts,
    totalsComplete: totalsComplete(byok.counts),
    ...(crossCheck ? { crossCheck: { ...crossCheck } } : {}),
  };
  return row;
}
