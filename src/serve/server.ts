/**
 * A running `serve`: the listener, the request pipeline, the caches and the page, wired together. Tests
 * start it directly with short deadlines and their own clock.
 */
import type { CliIo } from '../cli/io.js';
import { createApp } from './app.js';
import { ServeData } from './data-service.js';
import { CursorDataSource } from './data-source.js';
import { type Listener, type ListenerOptions, listen } from './listener.js';
import type { RequestLogger } from './log.js';
import { pageAssets } from './page/assets.js';
import type { ServeSettings } from './settings.js';

export interface ServeDeps
  extends Pick<ListenerOptions, 'headDeadlineMs' | 'readIdleMs' | 'maxPendingHeads'> {
  io: CliIo;
  version: string;
  /** Cache clock in ms (default `Date.now`): tests step it past the refresh interval. */
  now?: () => number;
  cooldownMs?: number;
  log?: RequestLogger;
  /** `[cursor] …` lines from the fetches (serve --verbose). */
  fetchLog?: (line: string) => void;
  /** Where rows come from; tests pass a source whose config read never ends, to reach the 504. */
  source?: (options: { io: CliIo; log?: (line: string) => void }) => CursorDataSource;
}

export interface RunningServer {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  listener: Listener;
  data: ServeData;
  /** Stops accepting, lets requests in flight finish (at most the request timeout), stops fetches. */
  stop(): Promise<void>;
}

/** With no request timeout, shutdown still waits no longer than this for requests in flight. */
const UNBOUNDED_SHUTDOWN_GRACE_MS = 30_000;
/** Time for a 504 written at the deadline to reach its client. */
const FLUSH_MARGIN_MS = 1_000;

export async function startServe(settings: ServeSettings, deps: ServeDeps): Promise<RunningServer> {
  const now = deps.now ?? Date.now;
  const makeSource = deps.source ?? ((options) => new CursorDataSource(options));
  const source = makeSource({ io: deps.io, log: deps.fetchLog });
  const data = new ServeData({ source, settings, now, cooldownMs: deps.cooldownMs });
  const page = pageAssets(settings, deps.version);
  const handle = createApp({ settings, source, data, page, version: deps.version, now, clock: deps.io.now });
  const listener = await listen({
    host: settings.host,
    port: settings.port,
    headDeadlineMs: deps.headDeadlineMs,
    readIdleMs: deps.readIdleMs,
    maxPendingHeads: deps.maxPendingHeads,
    handle,
    onResponse: deps.log,
  });
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${settings.host}:${listener.port}`,
    port: listener.port,
    listener,
    data,
    stop() {
      stopping ??= (async () => {
        const timeoutMs = settings.requestTimeoutSeconds * 1000;
        await listener.close(timeoutMs > 0 ? timeoutMs + FLUSH_MARGIN_MS : UNBOUNDED_SHUTDOWN_GRACE_MS);
        data.close();
      })();
      return stopping;
    },
  };
}
