/**
 * `cursor_models`: the catalog `codexbar models` shows (src/commands/models.ts), from api2 with the session's
 * access token, cached per account for 24 h in the same file the command reads and writes.
 */
import { fetchAvailableModels } from '../api/api2/available-models.js';
import { cookieCannotOpenApi2 } from '../auth/api2-access.js';
import { type CachedModels, isFresh, modelsCacheDir, readModels, writeModels } from '../cache/models-file.js';
import { sessionAccountKey } from '../cache/session-account.js';
import { messageFor } from '../errors.js';
import { openCursorSession } from '../session/cursor-session.js';
import type { AccountOutcome } from '../session/per-account.js';
import { asAccount, type McpContext, toolOptions } from './context.js';

export interface ObtainedModels extends CachedModels {
  fromCache: boolean;
}

export function obtainModels(
  context: McpContext,
  account: string | undefined,
): Promise<AccountOutcome<ObtainedModels>> {
  const { io } = context;
  // The catalog is an api2 RPC: only a session with an access token can ask for it.
  const options = toolOptions({ sourceMode: 'rpc', sourceLabel: 'rpc' });
  return asAccount(context, options, account, async (target, log) => {
    const setup = await openCursorSession(io, options, 'usage', log, target);
    const prep = target.prep;
    const dir = modelsCacheDir(io);
    const api2BaseUrl = prep?.api2BaseUrl ?? '';
    // The first local session says whose cache to read, without a request.
    const peeked = await setup.peek();
    const peekedKey =
      peeked?.session.accessToken !== undefined
        ? sessionAccountKey(peeked.session, setup.accountLabel)
        : undefined;
    if (peekedKey !== undefined) {
      const read = readModels(dir, peekedKey, api2BaseUrl);
      if (read.kind === 'ok' && isFresh(read.cached, io.now())) return { ...read.cached, fromCache: true };
    }
    const resolved = await setup.run(async (_client, session, api2) => {
      if (session.accessToken === undefined) {
        throw cookieCannotOpenApi2('cursor_models', session.description);
      }
      const answer = await fetchAvailableModels(api2, session.accessToken, io.timing.requestTimeoutMs);
      return { answer, fetchedAt: io.now() };
    });
    const key = sessionAccountKey(resolved.session, setup.accountLabel);
    if (key !== undefined) {
      try {
        writeModels(dir, key, api2BaseUrl, resolved.value);
      } catch (error) {
        // A cache that cannot be written costs a request next time, never this call's answer.
        log(`[cursor] The model catalog was not cached: ${messageFor(error)}`);
      }
    }
    return { ...resolved.value, fromCache: false };
  });
}
