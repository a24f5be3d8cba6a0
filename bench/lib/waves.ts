/**
 * Measures the critical path of a CLI run in round trips: every handler of a fake account is wrapped to
 * record when its request arrived and when its answer went out, after an artificial latency.
 */
import { createEventsHandler, isEventsScenario } from '../../test/fake-cursor/events.js';
import type { FakeAccount, HandlerFunction } from '../../test/fake-cursor/server.js';

export interface Exchange {
  /** Path plus `#page` for paged POSTs, e.g. `/api/dashboard/get-team-spend#2`. */
  label: string;
  arrivedAt: number;
  respondedAt: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

function labelOf(path: string, body: unknown): string {
  const page = typeof body === 'object' && body !== null ? (body as { page?: unknown }).page : undefined;
  return page === undefined ? path : `${path}#${String(page)}`;
}

/**
 * The same account, with each handler delayed by `latencyMs()` inside the handler and logged, so the log
 * holds the moment each answer was handed to the server (the server's own latency should be 0).
 */
export function timedAccount(account: FakeAccount, latencyMs: () => number, log: Exchange[]): FakeAccount {
  const timed: FakeAccount = { cookies: account.cookies };
  for (const [key, handler] of Object.entries(account) as Array<[keyof FakeAccount, unknown]>) {
    if (key === 'cookies' || handler === undefined) continue;
    const inner: HandlerFunction =
      typeof handler === 'function'
        ? (handler as HandlerFunction)
        : isEventsScenario(handler)
          ? createEventsHandler(handler)
          : () => handler as ReturnType<HandlerFunction>;
    const wrapped: HandlerFunction = async (req, attempt) => {
      const arrivedAt = performance.now();
      const response = await inner(req, attempt);
      await sleep(latencyMs());
      log.push({ label: labelOf(req.path, req.body), arrivedAt, respondedAt: performance.now() });
      return response;
    };
    timed[key] = wrapped as never;
  }
  return timed;
}

export interface WaveReport {
  /** Sequential round trips on the critical path. */
  waves: number;
  /** Request labels per wave, in arrival order. */
  members: string[][];
}

/**
 * A request that arrives after some answer was sent may have waited for it, so it belongs to a later wave
 * than that answer's request; requests that overlap every earlier one share its wave.
 */
export function countWaves(log: readonly Exchange[]): WaveReport {
  const sorted = [...log].sort((a, b) => a.arrivedAt - b.arrivedAt);
  const waveOf: number[] = [];
  const members: string[][] = [];
  for (const [i, exchange] of sorted.entries()) {
    let wave = 1;
    for (let j = 0; j < i; j++) {
      const earlier = sorted[j]!;
      if (earlier.respondedAt <= exchange.arrivedAt) wave = Math.max(wave, (waveOf[j] ?? 1) + 1);
    }
    waveOf.push(wave);
    const group = members[wave - 1] ?? [];
    group.push(exchange.label);
    members[wave - 1] = group;
  }
  return { waves: members.length, members };
}

/** `1: a, b | 2: c` with common path prefixes shortened. */
export function describeWaves(report: WaveReport): string {
  const short = (label: string) => label.replace('/api/dashboard/', '').replace('/api/', '');
  return report.members.map((labels, i) => `${i + 1}: ${labels.map(short).join(', ')}`).join(' | ');
}
