/**
 * A loopback OpenAI-compatible upstream for the tests of `codexbar proxy` (real HTTP on 127.0.0.1).
 * One server serves every scenario at once: the behaviour is chosen by the request body's `model`.
 *
 * - `POST /v1/chat/completions` with `messages`: OpenAI Chat Completions (JSON, or with `stream: true`
 *   `chat.completion.chunk` SSE ending in `data: [DONE]`; the usage chunk, and `"usage":null` on every
 *   other chunk, only with `stream_options.include_usage: true`). Models `openrouter/…` answer in
 *   OpenRouter's format (usage with `cost` always in the last chunk), `deepseek-chat` / `deepseek-reasoner`
 *   in DeepSeek's (`prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`).
 * - `POST /v1/responses`, or a body with `input` on `/v1/chat/completions`: Responses API (JSON, or SSE
 *   `event:` / `data:` blocks ending with `response.completed`, no [DONE]).
 * - models `error-429` (with `retry-after: 1`), `error-500`, `redirect` (307 to 127.0.0.1:1), `hang`
 *   (never answers), `cut` (head and two frames, then the socket is destroyed), `slow` (frames
 *   `fake_delay_ms` apart, default 50), `big` (2,000 content pieces).
 * - `GET /v1/models`; anything else 404. With `key`, a wrong `Authorization` gets 401 first.
 *
 * Token counts: `expectedUsage` in ./usage.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, jsonAnswer, modelsList, streamFrames } from './answers.js';
import {
  drained,
  flattenHeaders,
  flushed,
  parseJson,
  readBody,
  type Signal,
  sendJson,
  signal,
} from './http.js';
import { dialectOf, isObject } from './usage.js';

export type { ExpectedUsage } from './usage.js';
export { expectedUsage, replyText } from './usage.js';

export interface ReceivedRequest {
  method: string;
  /** The path without the query, e.g. '/v1/chat/completions'. */
  path: string;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** The body exactly as received (at most `maxBodyBytes`). */
  body: Buffer;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
  /** The client went away before the answer ended (not set for `cut`, nor by close()). */
  aborted: boolean;
}

export interface FakeUpstreamOptions {
  /** When set, requests must carry `Authorization: Bearer <key>`. */
  key?: string;
  /** The body cap; a longer body gets 413. Default 64 MiB. */
  maxBodyBytes?: number;
}

export interface FakeUpstream {
  /** 'http://127.0.0.1:<port>/v1' (the proxy's --upstream). */
  url: string;
  /** 'http://127.0.0.1:<port>'. */
  origin: string;
  /** Every request received (head and whole body), in order. */
  requests: ReceivedRequest[];
  /** Resolves when n requests have been received. */
  waitForRequests(n: number): Promise<void>;
  /** Resolves once request i's answer has closed (ended, cut or aborted). */
  closed(i: number): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const DEFAULT_DELAY_MS = 50;
/** `cut` destroys the socket after this many frames. */
const CUT_AFTER = 2;
const REDIRECT_LOCATION = 'http://127.0.0.1:1/elsewhere';

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

function delayOf(body: Record<string, unknown>): number {
  const ms = body.fake_delay_ms;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : DEFAULT_DELAY_MS;
}

export async function startFakeUpstream(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const requests: ReceivedRequest[] = [];
  const arrivals: { n: number; resolve(): void }[] = [];
  const closings = new Map<number, Signal>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  const closingOf = (i: number): Signal => {
    let s = closings.get(i);
    if (!s) {
      s = signal();
      closings.set(i, s);
    }
    return s;
  };

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  /** Frames one write each, `delayMs` apart; with `cut`, the socket dies after CUT_AFTER frames. */
  const writeFrames = async (
    res: http.ServerResponse,
    frames: string[],
    delayMs: number,
    cut: (() => void) | undefined,
  ): Promise<void> => {
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    for (const [i, frame] of frames.entries()) {
      if (i > 0 && delayMs > 0) await wait(delayMs);
      if (res.destroyed) return;
      if (cut && i === CUT_AFTER - 1) {
        await flushed(res, frame);
        cut();
        return;
      }
      if (!res.write(frame)) await drained(res);
    }
    if (!res.destroyed) res.end();
  };

  const answer = async (
    entry: ReceivedRequest,
    index: number,
    tooLarge: boolean,
    res: http.ServerResponse,
    cut: () => void,
  ) => {
    const fail = (
      status: number,
      message: string,
      type: string,
      code?: string,
      headers?: Record<string, string>,
    ) => sendJson(res, status, errorBody(message, type, code), headers);
    if (tooLarge) return fail(413, `Request body larger than ${maxBody} bytes`, 'invalid_request_error');
    if (options.key !== undefined && entry.headers.authorization !== `Bearer ${options.key}`) {
      return fail(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    }
    if (entry.method === 'GET' && entry.path === '/v1/models') return sendJson(res, 200, modelsList());
    const known = entry.path === '/v1/chat/completions' || entry.path === '/v1/responses';
    if (entry.method !== 'POST' || !known) {
      return fail(404, `Invalid URL (${entry.method} ${entry.path})`, 'invalid_request_error', 'unknown_url');
    }
    const body = entry.json;
    if (!isObject(body)) return fail(400, 'The body is not a JSON object.', 'invalid_request_error');
    const dialect = dialectOf(body);
    if (dialect === undefined || (entry.path === '/v1/responses' && dialect !== 'responses')) {
      const missing = entry.path === '/v1/responses' ? "'input'" : "'messages'";
      return fail(400, `Missing required parameter: ${missing}.`, 'invalid_request_error');
    }
    const model = typeof body.model === 'string' ? body.model : '';
    if (model === '') return fail(400, 'You must provide a model parameter.', 'invalid_request_error');
    switch (model) {
      case 'error-429':
        return fail(429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded', {
          'retry-after': '1',
        });
      case 'error-500':
        return fail(500, 'The server had an error while processing your request.', 'server_error');
      case 'redirect':
        res.writeHead(307, { location: REDIRECT_LOCATION, 'content-length': '0' });
        res.end();
        return;
      case 'hang':
        return; // holds the socket until the client leaves or close()
    }
    const delayMs = model === 'slow' ? delayOf(body) : 0;
    if (body.stream === true) {
      return writeFrames(res, streamFrames(dialect, body, index), delayMs, model === 'cut' ? cut : undefined);
    }
    if (delayMs > 0) await wait(delayMs);
    if (model !== 'cut') return sendJson(res, 200, jsonAnswer(dialect, body, index));
    const text = JSON.stringify(jsonAnswer(dialect, body, index));
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    await flushed(res, text.slice(0, text.length >> 1));
    cut();
  };

  const handle: http.RequestListener = (req, res) => {
    let entry: ReceivedRequest | undefined;
    let index = -1;
    let cutByFake = false;
    const cut = () => {
      cutByFake = true;
      res.socket?.destroy();
    };
    const onClose = () => {
      if (entry && !res.writableFinished && !cutByFake && !closing) entry.aborted = true;
      if (index >= 0) closingOf(index).resolve();
    };
    res.on('close', onClose);
    void (async () => {
      const { body, tooLarge } = await readBody(req, maxBody);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      entry = {
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: flattenHeaders(req.headers),
        body,
        json: parseJson(body),
        aborted: false,
      };
      index = requests.push(entry) - 1;
      for (const arrival of arrivals.filter((a) => requests.length >= a.n)) {
        arrivals.splice(arrivals.indexOf(arrival), 1);
        arrival.resolve();
      }
      if (res.destroyed) return onClose();
      await answer(entry, index, tooLarge, res, cut);
    })().catch(() => {
      // The client left while its body was arriving (nothing to record), or the answer failed.
      res.destroy();
    });
  };

  const server = http.createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  return {
    url: `${origin}/v1`,
    origin,
    requests,
    waitForRequests(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => arrivals.push({ n, resolve }));
    },
    closed(i) {
      return closingOf(i).promise;
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets and held answers (hang, slow) would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
