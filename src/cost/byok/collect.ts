/**
 * `cost --source byok`'s data: the window's rows of the ledger at `<data dir>/codexbar/byok.sqlite`, read
 * without a change to any file (src/cost/byok/ledger-read.ts), summed into a BYOK report.
 */
import { authPaths } from '../../auth/paths.js';
import type { LocalEnvironment } from '../../local/environment.js';
import { displayPath } from '../../local/paths.js';
import { ledgerPath } from '../../proxy/ledger.js';
import type { CostWindow } from '../types.js';
import { readLedgerRows } from './ledger-read.js';
import { type ByokReport, createByokAggregation } from './report.js';

export interface ByokCollected {
  byok: ByokReport;
  /** The ledger's path as messages show it (home as `~`). */
  shown: string;
}

export async function collectByok(options: {
  env: LocalEnvironment;
  window: CostWindow;
  now: () => Date;
  byConversation: boolean;
  log: (line: string) => void;
}): Promise<ByokCollected> {
  const { env, window } = options;
  const file = ledgerPath(authPaths(env).codexbarDataDir);
  const shown = displayPath(file, env);
  options.log(`[byok] Ledger: ${shown}`);
  const aggregation = createByokAggregation({
    window,
    today: options.now(),
    byConversation: options.byConversation,
  });
  // The window's end is its last millisecond (src/cost/window.ts), as cursor.com's endDate is: the rows
  // read are [start, end + 1 ms), the same span the cross-check asks cursor.com for.
  const span = { startMs: window.start.getTime(), endMs: window.end.getTime() + 1 };
  await readLedgerRows(file, shown, span, (row) => aggregation.add(row));
  return { byok: aggregation.finish(window, options.now()), shown };
}
