/**
 * One account's cost report, as `cost` and the MCP tool `cursor_cost` collect it: the account's session, its
 * event store, and every events page of the window under one deadline (docs/invariants.md, "No partial
 * total").
 */
import type { CliIo } from '../cli/io.js';
import type { SharedOptions } from '../cli/options.js';
import { type CollectCostOptions, collectCost } from '../cost/collect.js';
import type { CostReport, CostWindow } from '../cost/types.js';
import { type CursorTarget, runWithCursorSession } from './cursor-session.js';
import { type StoreChoice, withCostStore } from './event-store.js';

export interface AccountCostRequest extends Pick<CollectCostOptions, 'concurrency' | 'onProgress'> {
  window: CostWindow;
  deadline: { signal: AbortSignal; ms: number };
  store: StoreChoice;
  /** Where the event store's notes go (`--verbose`). */
  storeLog: (line: string) => void;
}

export function accountCostReport(
  io: CliIo,
  options: SharedOptions,
  target: CursorTarget,
  log: (line: string) => void,
  request: AccountCostRequest,
): Promise<CostReport> {
  return runWithCursorSession(
    io,
    options,
    'cost',
    log,
    (client, session) =>
      withCostStore(io, request.store, session, { label: target.account?.label }, request.storeLog, (store) =>
        collectCost({
          client,
          cookieHeader: session.cookieHeader,
          window: request.window,
          now: io.now,
          concurrency: request.concurrency,
          timeoutMs: io.timing.requestTimeoutMs,
          retry: { sleep: io.timing.sleep },
          deadline: request.deadline,
          store,
          onProgress: request.onProgress,
        }),
      ),
    target,
  );
}
