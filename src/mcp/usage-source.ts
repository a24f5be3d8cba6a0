/**
 * `cursor_usage` and `cursor_budget_check`: the usage snapshot through the usage cache, as `usage --max-age`
 * gets it (docs/invariants.md, "When a snapshot may be trusted"), so an agent asking in a loop costs
 * cursor.com one fetch per max age. Calls for the same account while one is fetching share that fetch.
 */

import type { AccountOutcome } from '../session/per-account.js';
import { noteTimeZone, type ObtainedUsage, obtainUsage } from '../session/usage-cache.js';
import { asAccount, type McpContext, toolOptions } from './context.js';

/** A live fetch gives up after this long, like `guard --timeout`'s default. */
const USAGE_DEADLINE_MS = 60_000;

export class UsageSource {
  private readonly inFlight = new Map<string, Promise<AccountOutcome<ObtainedUsage>>>();

  constructor(private readonly context: McpContext) {}

  /** The account's snapshot; a selection error (an unknown label, a bad config) is thrown. */
  obtain(account: string | undefined): Promise<AccountOutcome<ObtainedUsage>> {
    // Labels are matched trimmed and in any case, so the key is too.
    const key = account === undefined ? '' : `=${account.trim().toLowerCase()}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const started = this.fetch(account).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  private fetch(account: string | undefined): Promise<AccountOutcome<ObtainedUsage>> {
    const { io, log, maxAgeMs } = this.context;
    const options = toolOptions();
    const timeZone = noteTimeZone(io, log);
    return asAccount(this.context, options, account, (target, accountLog) =>
      obtainUsage(io, options, accountLog, { maxAgeMs, timeZone, deadlineMs: USAGE_DEADLINE_MS }, target),
    );
  }
}
