import type { Dispatcher } from 'undici';
import api from 'undici/lib/api/index.js';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

/**
 * The pieces of undici the client needs: a keep-alive agent that honours HTTP(S)_PROXY and NO_PROXY, and
 * `dispatcher.request()`. undici's index also loads fetch, WebSocket, caches and mocks (~500 KB of the
 * bundle, most of the CLI's start-up time), so its modules are imported directly; undici 7 publishes no
 * exports map, and package.json pins the version exactly.
 *
 * The index does one more thing that the proxy needs: it installs request/connect/stream/… on
 * Dispatcher.prototype. ProxyAgent opens its CONNECT tunnel with `this.connect()`, so without this line
 * every proxied request fails. The proxy tests go through a real CONNECT proxy.
 */
Object.assign(DispatcherBase.prototype, api);

export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * The proxy variables of the run's own environment, lower case first as curl and undici read them. Passed
 * explicitly (empty when unset) so undici never falls back to this process's environment.
 */
export function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  };
}

export function createDispatcher(proxy: ProxySettings): Dispatcher {
  return new EnvHttpProxyAgent({ keepAliveTimeout: 10_000, ...proxy });
}

export function sendRequest(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return api.request.call(dispatcher, options);
}

/** A whole response: status, headers and the body's bytes. */
export interface BufferedResponse {
  statusCode: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Buffer;
}

/** The body went past the caller's limit (by its Content-Length, or while it streamed). */
export class BodyTooLargeError extends Error {}

export interface BufferedRequestOptions extends Dispatcher.DispatchOptions {
  signal?: AbortSignal;
  /** The largest body accepted: past it the request is aborted. */
  maxBytes: number;
}

/**
 * One request whose body is read whole into a single buffer, through undici's dispatch handler: each chunk is
 * copied straight into place (one buffer of the declared Content-Length when there is one), with no stream or
 * async iterator per response. A heavy `cost` run reads 150 bodies of ~340 KB, and the stream machinery cost
 * more CPU than the copies (bench/README.md, Cost CPU). A body past `maxBytes` aborts the request, so an
 * endless or huge answer costs at most the limit in memory.
 */
export function requestBuffered(
  dispatcher: Dispatcher,
  options: BufferedRequestOptions,
): Promise<BufferedResponse> {
  const { signal, maxBytes, ...dispatch } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    const onAbort = () => controller?.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);
    let statusCode = 0;
    let headers: BufferedResponse['headers'] = {};
    let body: Buffer | undefined;
    const chunks: Buffer[] = [];
    let length = 0;
    const tooLarge = (at: Dispatcher.DispatchController) => at.abort(new BodyTooLargeError());
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(at) {
        controller = at;
        if (signal?.aborted) at.abort(signal.reason);
      },
      onResponseStart(at, status, responseHeaders) {
        statusCode = status;
        headers = responseHeaders;
        chunks.length = 0;
        length = 0;
        const raw = responseHeaders['content-length'];
        const declared = Number(Array.isArray(raw) ? raw[0] : raw);
        if (Number.isFinite(declared) && declared > maxBytes) tooLarge(at);
        // The declared size is a promise the body may break; it only sizes the buffer.
        body = Number.isInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : undefined;
      },
      onResponseData(at, chunk) {
        const end = length + chunk.length;
        if (end > maxBytes) {
          tooLarge(at);
          return;
        }
        if (body && end <= body.length) chunk.copy(body, length);
        else {
          if (body) chunks.push(body.subarray(0, length));
          body = undefined;
          chunks.push(Buffer.from(chunk));
        }
        length = end;
      },
      onResponseEnd() {
        settle();
        let bytes: Buffer;
        if (body) bytes = body.length === length ? body : body.subarray(0, length);
        else bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
        resolve({ statusCode, headers, body: bytes });
      },
      onResponseError(_at, error) {
        settle();
        reject(error);
      },
    };
    dispatcher.dispatch(dispatch, handler);
  });
}
