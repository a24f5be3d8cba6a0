/**
 * `codexbar models --json`: an array with one object per model (docs/json.md). `listPrice` is `null` for a
 * model the bundled table lacks, never zeros; `fetchedAt` says when the catalog was fetched, so a cached
 * answer is never taken for a fresh one (docs/invariants.md, "No cached figure as fresh").
 */
import { isoSeconds } from '../lib/iso-date.js';
import type { Catalog } from '../models/catalog.js';

export interface ModelJsonRow {
  name: string;
  displayName?: string;
  serverModelName?: string;
  supportsMaxMode: boolean;
  supportsNonMaxMode: boolean;
  listPrice: {
    input: number;
    output: number;
    cacheWrite: number;
    cacheRead: number;
    currency: 'USD';
    unit: 'per 1M tokens';
    priceKey: string;
  } | null;
  fetchedAt: string;
}

export function modelsJson(catalog: Catalog, fetchedAt: Date): ModelJsonRow[] {
  const fetched = isoSeconds(fetchedAt);
  return catalog.models.map((model) => {
    const price = model.listPrice;
    // Built in the documented field order: compact output keeps it.
    const row: ModelJsonRow = {
      name: model.name,
      ...(model.displayName !== undefined && { displayName: model.displayName }),
      ...(model.serverModelName !== undefined && { serverModelName: model.serverModelName }),
      supportsMaxMode: model.supportsMaxMode,
      supportsNonMaxMode: model.supportsNonMaxMode,
      listPrice: price && {
        input: price.input,
        output: price.output,
        cacheWrite: price.cacheWrite,
        cacheRead: price.cacheRead,
        currency: 'USD',
        unit: 'per 1M tokens',
        priceKey: price.key,
      },
      fetchedAt: fetched,
    };
    return row;
  });
}
