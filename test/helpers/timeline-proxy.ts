import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback pass-through in front of the fake cursor.com that writes down, in one ordered list, when each
 * request arrived and when its answer was handed back to the CLI. Ordering (never elapsed time) then shows
 * which requests the CLI could only send once another one had been answered.
 */

export interface TimelineEvent {
  kind: 'arrived' | 'answered';
  /** Arrival number, shared by a request's two events. */
  id: number;
  path: string;
  /** `page` of a JSON body, for get-team-spend. */
  page?: number;
}

export interface TimelineProxy {
  url: string;
  events: TimelineEvent[];
  close(): Promise<void>;
}

export async function startTimelineProxy(targetUrl: string): Promise<TimelineProxy> {
  const target = new URL(targetUrl);
  const events: TimelineEvent[] = [];
  let nextId = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', target);
      const event = { id: nextId++, path: url.pathname, page: pageOf(body) };
      events.push({ kind: 'arrived', ...event });
      const upstream = http.request(
        url,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('finish', () => events.push({ kind: 'answered', ...event }));
      upstream.end(body);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function pageOf(body: Buffer): number | undefined {
  try {
    const page = (JSON.parse(body.toString('utf8')) as { page?: unknown }).page;
    return typeof page === 'number' ? page : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How many sequential round trips each request needed: 1 for a request that arrived before any answer had
 * gone out, otherwise 1 + the deepest request already answered when it arrived. Keyed by arrival number.
 */
export function roundTripDepths(events: readonly TimelineEvent[]): Map<number, number> {
  const depths = new Map<number, number>();
  let deepestAnswered = 0;
  for (const event of events) {
    if (event.kind === 'arrived') depths.set(event.id, deepestAnswered + 1);
    else deepestAnswered = Math.max(deepestAnswered, depths.get(event.id) ?? 0);
  }
  return depths;
}
