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
 * every proxied request fails (docs/behaviour.md §10.4). The proxy tests go through a real CONNECT proxy.
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
