import { parseIsoDate } from '../lib/iso-date.js';
import { decodeBody, describeBytes, SMALL_RESPONSE_LIMIT } from './client.js';
import { statusPageSchema } from './schemas/status-page.js';
import { STATUS_TIMEOUT_MS } from './timeouts.js';
import { BodyTooLargeError, createDispatcher, type ProxySettings, requestBuffered } from './transport.js';

/** CodexBar's indicator values; anything Statuspage adds later reads as `unknown`. */
export const STATUS_INDICATORS = ['none', 'minor', 'major', 'critical', 'maintenance', 'unknown'] as const;
export type StatusIndicator = (typeof STATUS_INDICATORS)[number];

/** What `--status` adds to a usage row. */
export interface ProviderStatus {
  indicator: StatusIndicator;
  description?: string;
  updatedAt?: Date;
  /** The status site, not the API path: what a person opens. */
  url: string;
}

/**
 * `GET <site>/api/v2/status.json`, with no cookie and no credential of any kind (the status site is
 * not cursor.com). Never throws: a failure is indicator `unknown` with the reason as description, as
 * CodexBar reports it.
 */
export async function fetchProviderStatus(
  siteUrl: string,
  proxy: ProxySettings,
  timeoutMs = STATUS_TIMEOUT_MS,
): Promise<ProviderStatus> {
  try {
    return await requestStatus(siteUrl, proxy, timeoutMs);
  } catch (error) {
    return {
      indicator: 'unknown',
      description: error instanceof Error ? error.message : String(error),
      url: siteUrl,
    };
  }
}

async function requestStatus(
  siteUrl: string,
  proxy: ProxySettings,
  timeoutMs: number,
): Promise<ProviderStatus> {
  const url = new URL(`${siteUrl}/api/v2/status.json`);
  const dispatcher = createDispatcher(proxy);
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  let text: string;
  try {
    // A status answer is a few hundred bytes: a huge or endless one is abandoned at the cap
    // (docs/invariants.md, "Every read is bounded").
    const response = await requestBuffered(dispatcher, {
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers: { accept: 'application/json' },
      signal,
      maxBytes: SMALL_RESPONSE_LIMIT,
    });
    status = response.statusCode;
    text = decodeBody(response.body);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new Error(`Status page answered more than ${describeBytes(SMALL_RESPONSE_LIMIT)}`);
    }
    if (signal.aborted) throw new Error(`Status page did not answer within ${timeoutMs / 1000} s`);
    const code = (error as { code?: unknown }).code;
    throw new Error(`Status page unreachable${typeof code === 'string' ? ` (${code})` : ''}`);
  } finally {
    await dispatcher.close().catch(() => {});
  }
  if (status !== 200) throw new Error(`Status page answered HTTP ${status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('Status page answered something that is not JSON');
  }
  const parsed = statusPageSchema.safeParse(json);
  if (!parsed.success) throw new Error('Status page answered an unexpected shape');
  const indicator = (STATUS_INDICATORS as readonly string[]).includes(parsed.data.status.indicator)
    ? (parsed.data.status.indicator as StatusIndicator)
    : 'unknown';
  const result: ProviderStatus = { indicator, url: siteUrl };
  const description = parsed.data.status.description?.trim();
  if (description) result.description = description;
  const updatedAt = parseIsoDate(parsed.data.page?.updated_at ?? undefined);
  if (updatedAt) result.updatedAt = updatedAt;
  return result;
}
