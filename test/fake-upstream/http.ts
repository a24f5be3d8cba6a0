/** The plumbing of the fake upstream: reading a request, writing JSON and frames, one-shot signals. */
import type http from 'node:http';

export interface Signal {
  promise: Promise<void>;
  resolve(): void;
}

export function signal(): Signal {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The whole body, kept up to `max` bytes (the rest is read and dropped so the answer can be sent). */
export async function readBody(
  req: http.IncomingMessage,
  max: number,
): Promise<{ body: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const piece = chunk as Buffer;
    if (size + piece.length <= max) chunks.push(piece);
    size += piece.length;
  }
  return { body: Buffer.concat(chunks), tooLarge: size > max };
}

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) {
  if (res.destroyed) return;
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Waits until the response can take more, or is gone. */
export function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes and resolves once the bytes are handed to the socket (or the response is gone). */
export function flushed(res: http.ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(text, () => resolve());
    res.once('close', resolve);
  });
}
