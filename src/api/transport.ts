import type { Dispatcher } from 'undici';
import requestWith from 'undici/lib/api/api-request.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

/**
 * The two pieces of undici the client needs: a keep-alive agent that honours HTTP(S)_PROXY and NO_PROXY,
 * and `dispatcher.request()`. undici's index also loads fetch, WebSocket, caches and mocks (~500 KB of the
 * bundle, most of the CLI's start-up time), so these modules are imported directly; undici 7 publishes no
 * exports map and the lockfile pins the version.
 */
export function createDispatcher(): Dispatcher {
  return new EnvHttpProxyAgent({ keepAliveTimeout: 10_000 });
}

export function sendRequest(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return requestWith.call(dispatcher, options);
}
