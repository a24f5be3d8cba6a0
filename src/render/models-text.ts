/**
 * `codexbar models` as text: one table row per model (name, display name, Max mode, our list prices per
 * million tokens) and a closing line that counts the models without a list price. An unpriced model says
 * "no list price", never `$0` (docs/invariants.md, "No unknown price as zero"). Names come from the network:
 * they are escaped and cut (`displayName`).
 */
import type { Catalog, CatalogModel } from '../models/catalog.js';
import { displayName } from './safe-text.js';
import { renderTextTable } from './text-table.js';

const NAME_MAX = 48;
const NO_LIST_PRICE = 'no list price';

/** `$3`, `$0.30`, `$0.075`: at least two decimals, more only when the rate has them. */
function formatRate(usd: number): string {
  const text = String(Number(usd.toFixed(6)));
  const [whole, fraction = ''] = text.split('.');
  return `$${whole}.${fraction.padEnd(2, '0')}`;
}

function maxMode(model: CatalogModel): string {
  if (model.supportsMaxMode && !model.supportsNonMaxMode) return 'only';
  return model.supportsMaxMode ? 'yes' : 'no';
}

function priceCells(model: CatalogModel): string[] {
  const price = model.listPrice;
  if (price === null) return [NO_LIST_PRICE, '', '', ''];
  return [price.input, price.output, price.cacheWrite, price.cacheRead].map(formatRate);
}

/** The closing count: "12 of 48 models have no list price". */
function unpricedLine(catalog: Catalog): string {
  const total = catalog.models.length;
  if (catalog.unpriced === 0)
    return total === 1 ? 'The model has a list price' : `All ${total} models have a list price`;
  const verb = catalog.unpriced === 1 ? 'has' : 'have';
  return `${catalog.unpriced} of ${total} ${total === 1 ? 'model' : 'models'} ${verb} no list price`;
}

export function renderModelsText(catalog: Catalog, options: { cacheNote?: string } = {}): string {
  const lines: string[] = [];
  if (catalog.models.length === 0) {
    lines.push('Cursor lists no models for this account');
  } else {
    lines.push(
      renderTextTable({
        head: ['Model', 'Display name', 'Max mode', 'Input', 'Output', 'Cache write', 'Cache read'],
        rows: catalog.models.map((model) => [
          displayName(model.name, NAME_MAX),
          displayName(model.displayName ?? '', NAME_MAX),
          maxMode(model),
          ...priceCells(model),
        ]),
        aligns: ['left', 'left', 'left', 'right', 'right', 'right', 'right'],
        rules: { before: 'last', n: 0 },
      }),
    );
    lines.push('List prices in USD per million tokens, from the table bundled with codexbar');
    lines.push(unpricedLine(catalog));
  }
  if (options.cacheNote) lines.push(options.cacheNote);
  return lines.join('\n');
}
