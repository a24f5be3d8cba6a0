/**
 * `cost --format csv` (docs/behaviour.md §28.5): a header row, then one row per group and model, numbers
 * unformatted, unknown values empty — for spreadsheets. RFC 4180 through src/render/csv.ts.
 */
import type { CostGroup, GroupBy } from '../cost/groups.js';
import type { CostModelRow, TokenTotals } from '../cost/types.js';
import { type CsvValue, encodeCsv } from './csv.js';

const FIGURES = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheCreationTokens',
  'totalTokens',
  'apiRateCostUSD',
  'meteredCostUSD',
  'requests',
] as const;

const GROUP_COLUMN: Record<Exclude<GroupBy, 'model'>, string> = {
  day: 'date',
  week: 'week',
  month: 'month',
  kind: 'kind',
};

type Figures = TokenTotals & Pick<CostModelRow, 'costUSD' | 'meteredUSD' | 'requestCount'>;

function figures(row: Figures): CsvValue[] {
  return [
    row.inputTokens,
    row.outputTokens,
    row.cacheReadTokens,
    row.cacheCreationTokens,
    row.totalTokens,
    row.costUSD,
    row.meteredUSD,
    row.requestCount,
  ];
}

export function costCsv(groups: readonly CostGroup[], by: GroupBy): string {
  if (by === 'model') {
    return encodeCsv(
      ['model', ...FIGURES],
      groups.map((group) => [group.key, ...figures(group)]),
    );
  }
  const rows: CsvValue[][] = [];
  for (const group of groups) {
    // A group with no token events (a kind of request rows only) still has its row, with no model.
    if (group.models.length === 0) rows.push([group.key, '', ...figures(group)]);
    for (const model of group.models) rows.push([group.key, model.modelName, ...figures(model)]);
  }
  return encodeCsv([GROUP_COLUMN[by], 'model', ...FIGURES], rows);
}
