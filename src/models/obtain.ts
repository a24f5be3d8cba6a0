/**
 * The model catalog as `codexbar models` and the MCP tool `cursor_models` get it: from api2
 * (`AiService/AvailableModels`, docs/api2.md) with the session's access token, through the per-account 24 h
 * cache. The first local session says whose cache to read, without a request.
 */
import { fetchAvailableModels } from '../api/api2/available-models.js';
import { cookieCannotOpenApi2 } from '../auth/api2-access.js';
import { type CachedModels, isFresh, modelsCacheDir, readModels, writeModels } from '../cache/models-file.js';
import { sessionAccountKey } from '../cache/session-account.js';
import { messageFor } from '../errors.js';
import { formatDuration } from '../lib/duration.js';
import type { LocalEnvironment } from '../local/environment.js';
import type { CursorSessionSetup } from '../session/cursor-session.js';

export interface ObtainedModels extends CachedModels {
  fromCache: boolean;
}

export interface ObtainOptions {
  api2BaseUrl: string;
  /** Skip the cache (`--refresh`). */
  refresh: boolean;
  /** Who asks, for the error a cookie-only session gets (`codexbar models`, `cursor_models`). */
  who: string;
  requestTimeoutMs: number;
  /** `--verbose` lines. */
  log: (line: string) => void;
}

export async function obtainModels(
  env: LocalEnvironment,
  setup: CursorSessionSetup,
  options: ObtainOptions,
): Promise<ObtainedModels> {
  const dir = modelsCacheDir(env);
  if (!options.refresh) {
    const peeked = await setup.peek();
    const key =
      peeked?.session.accessToken !== undefined
        ? sessionAccountKey(peeked.session, setup.accountLabel)
        : undefined;
    if (peeked && key !== undefined) {
      const read = readModels(dir, key, options.api2BaseUrl);
      const now = env.now();
      if (read.kind === 'ok' && isFresh(read.cached, now)) {
        for (const line of peeked.lines) options.log(line);
        options.log(
          `[cursor] Model catalog from the cache, fetched ${modelsAgeText(read.cached.fetchedAt, now)} ago (--refresh fetches it again)`,
        );
        return { ...read.cached, fromCache: true };
      }
      options.log(
        `[cursor] Fetching the model catalog: the cached one is ${read.kind === 'ok' ? '24 h old or more' : read.reason}`,
      );
    }
  }
  const resolved = await setup.run(async (_client, session, api2) => {
    if (session.accessToken === undefined) throw cookieCannotOpenApi2(options.who, session.description);
    const answer = await fetchAvailableModels(api2, session.accessToken, options.requestTimeoutMs);
    return { answer, fetchedAt: env.now() };
  });
  const key = sessionAccountKey(resolved.session, setup.accountLabel);
  if (key !== undefined) {
    try {
      writeModels(dir, key, options.api2BaseUrl, resolved.value);
    } catch (error) {
      // A cache that cannot be written costs a request next time, never this answer.
      options.log(`[cursor] The model catalog was not cached: ${messageFor(error)}`);
    }
  }
  return { ...resolved.value, fromCache: false };
}

/** Whole seconds since `fetchedAt`, as `3h 12m`. */
export function modelsAgeText(fetchedAt: Date, now: Date): string {
  return formatDuration(Math.max(0, Math.floor((now.getTime() - fetchedAt.getTime()) / 1000)));
}
