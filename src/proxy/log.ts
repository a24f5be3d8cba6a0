/**
 * `proxy --verbose`: one line per request on stderr with the route, model, status, how the answer ended, the
 * token counts and the time. Never a header, a body, a query string, a key or a token (docs/invariants.md,
 * "Servers safe by default"); the model is the client's text, so its control characters are made visible.
 */
import { safeText } from '../render/safe-text.js';
import type { ProxyLine } from './server.js';

const count = (n: number) => n.toLocaleString('en-US');

export function proxyLine(line: ProxyLine): string {
  const parts = [`[proxy] ${safeText(line.method).slice(0, 16)} ${line.route}`];
  if (line.model !== undefined) parts.push(safeText(line.model));
  parts.push(String(line.status));
  if (line.outcome !== undefined) parts.push(line.outcome);
  if (line.stream) parts.push('stream');
  const usage = line.usage;
  if (usage?.promptTokens !== undefined) {
    const cached = usage.cachedTokens ? ` (${count(usage.cachedTokens)} cached)` : '';
    parts.push(`${count(usage.promptTokens)} in${cached}`);
  }
  if (usage?.completionTokens !== undefined) {
    const reasoning = usage.reasoningTokens ? ` (${count(usage.reasoningTokens)} reasoning)` : '';
    parts.push(`${count(usage.completionTokens)} out${reasoning}`);
  }
  if (usage?.providerCostUSD !== undefined) parts.push(`$${usage.providerCostUSD.toFixed(6)} reported`);
  if (line.outcome !== undefined && line.outcome !== 'completed' && usage === undefined)
    parts.push('no usage seen');
  parts.push(`${Math.round(line.durationMs)}ms`);
  return parts.join(' ');
}
