/**
 * The model catalog as `codexbar models` shows it: each model of an AvailableModels answer with our list
 * prices from the bundled table (src/cost/price-table.ts), looked up by the same key cost estimates use
 * (`priceKeyFor`). A model the table lacks has no price, never a zero one (docs/invariants.md, "No unknown
 * price as zero"). Pure: the answer and the instant in, rows out.
 */
import type { AvailableModels } from '../api/api2/schemas/available-models.js';
import { PRICE_TABLE, type PriceRow } from '../cost/price-table.js';
import { priceKeyFor, priceRowAppliesAt } from '../cost/pricing.js';

/** USD per million tokens, as we bill them: a missing cache-write rate is the input rate. */
export interface ListPrice {
  key: string;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  source: string;
  asOf: string;
}

export interface CatalogModel {
  name: string;
  displayName?: string;
  serverModelName?: string;
  supportsMaxMode: boolean;
  supportsNonMaxMode: boolean;
  /** Null when the bundled table has no row for the model. */
  listPrice: ListPrice | null;
}

export interface Catalog {
  models: CatalogModel[];
  unpriced: number;
}

/** The list price of a model by its name, else by its server name; null when neither has a row. */
function listPriceFor(
  names: readonly (string | undefined)[],
  atMs: number,
  table: readonly PriceRow[] = PRICE_TABLE,
): ListPrice | null {
  for (const name of names) {
    if (!name) continue;
    const key = priceKeyFor(name);
    const row = table.find((candidate) => candidate.key === key && priceRowAppliesAt(candidate, atMs));
    if (row) {
      return {
        key,
        input: row.input,
        output: row.output,
        cacheWrite: row.cacheWrite ?? row.input,
        cacheRead: row.cacheRead,
        source: row.source,
        asOf: row.asOf,
      };
    }
  }
  return null;
}

/** Every named model of the answer, in the server's order; entries without a name are not models. */
export function buildCatalog(answer: AvailableModels, at: Date, table?: readonly PriceRow[]): Catalog {
  const models: CatalogModel[] = [];
  for (const model of answer.models ?? []) {
    const name = model.name ?? model.serverModelName;
    if (!name) continue;
    const entry: CatalogModel = {
      name,
      supportsMaxMode: model.supportsMaxMode === true,
      supportsNonMaxMode: model.supportsNonMaxMode === true,
      listPrice: listPriceFor([name, model.serverModelName], at.getTime(), table),
    };
    if (model.clientDisplayName) entry.displayName = model.clientDisplayName;
    if (model.serverModelName) entry.serverModelName = model.serverModelName;
    models.push(entry);
  }
  return { models, unpriced: models.filter((model) => model.listPrice === null).length };
}
