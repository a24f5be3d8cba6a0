/**
 * `cost --format csv`: a header row, then one row per group and model, numbers
 * unformatted, unknown values empty — for spreadsheets. RFC 4180 through src/render/csv.ts.
 */
import type { CostGroup, GroupBy } from '../cost/groups.js';
import type { CostModelRow, TokenTotals } from '../cost/types.js';
import { type CsvColumn, type CsvValue, encodeCsv } from './csv.js';

type Figures = TokenTotals & Pick<CostModelRow, 'costUSD' | 'meteredUSD' | 'requestCount'>;

const FIGURES: CsvColumn<Figures>[] = [
  ['inputTokens', (row) => row.inputTokens],
  ['outputTokens', (row) => row.outputTokens],
  ['cacheReadTokens', (row) => row.cacheReadTokens],
  ['cacheCreationTokens', (row) => row.cacheCreationTokens],
  ['totalTokens', (row) => row.totalTokens],
  ['apiRateCostUSD', (row) => row.costUSD],
  ['meteredCostUSD', (row) => row.meteredUSD],
  ['requests', (row) => row.requestCount],
];
const FIGURE_HEADERS = FIGURES.map(([header]) => header);

const GROUP_COLUMN: Record<Exclude<GroupBy, 'model'>, string> = {
  day: 'date',
  week: 'week',
  month: 'month',
  kind: 'kind',
  conversation: 'conversation',
};

function figures(row: Figures): CsvValue[] {
  return FIGURES.map(([, value]) => value(row));
}

export function costCsv(groups: readonly CostGroup[], by: GroupBy): string {
  if (by === 'model') {
    return encodeCsv(
      ['model', ...FIGURE_HEADERS],
      groups.map((group) => [group.key, ...figures(group)]),
    );
  }
  const rows: CsvValue[][] = [];
  for (const group of groups) {
    // A group with no token events (a kind of request rows only) still has its row, with no model.
    if (group.models.length === 0) rows.push([group.key, '', ...figures(group)]);
    for (const model of group.models) rows.push([group.key, model.modelName, ...figures(model)]);
  }
  return encodeCsv([GROUP_COLUMN[by], 'model', ...FIGURE_HEADERS], rows);
}
