/**
 * `cursor_models`: the catalog `codexbar models` shows (src/models/obtain.ts), from api2 with the session's
 * access token, cached per account for 24 h in the same file the command reads and writes.
 */
import { type ObtainedModels, obtainModels } from '../models/obtain.js';
import { openCursorSession } from '../session/cursor-session.js';
import type { AccountOutcome } from '../session/per-account.js';
import { asAccount, type McpContext, toolOptions } from './context.js';

export function obtainAccountModels(
  context: McpContext,
  account: string | undefined,
): Promise<AccountOutcome<ObtainedModels>> {
  const { io } = context;
  // The catalog is an api2 RPC: only a session with an access token can ask for it.
  const options = toolOptions({ sourceMode: 'rpc', sourceLabel: 'rpc' });
  return asAccount(context, options, account, async (target, log) =>
    obtainModels(io, await openCursorSession(io, options, 'usage', log, target), {
      api2BaseUrl: target.prep?.api2BaseUrl ?? '',
      refresh: false,
      who: 'cursor_models',
      requestTimeoutMs: io.timing.requestTimeoutMs,
      log,
    }),
  );
}
