/**
 * What both servers (`serve` and `proxy`) do before a request head is complete (docs/invariants.md, "Every
 * read is bounded"): a socket costs nothing until its head is in, so there is no connection gate that idle
 * clients could fill. Sockets still waiting for their head are tracked: each is closed at the head deadline
 * or after a silent read interval, and when too many are waiting the oldest is closed to make room.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const HEAD_DEADLINE_MS = 10_000;
const READ_IDLE_MS = 5_000;
const MAX_PENDING_HEADS = 1000;

export interface HeadGateOptions {
  /** From accept to a complete head. */
  headDeadlineMs?: number;
  /** Longest silence between two reads of the head. */
  readIdleMs?: number;
  maxPendingHeads?: number;
}

export interface HeadGate {
  /** The head is in: the socket is no longer held to the head deadline. False when it was not waiting. */
  release(socket: Socket): boolean;
  /** Sockets accepted whose head has not arrived yet. */
  pending(): number;
  /** Closes every socket still waiting for its head (at shutdown). */
  dropAll(): void;
}

/** Node's own head timeout stays as a backstop, a little after ours. */
export function headBackstopMs(options: HeadGateOptions): number {
  return (options.headDeadlineMs ?? HEAD_DEADLINE_MS) + 1000;
}

/**
 * `event` is the one that hands over the socket requests arrive on: `connection` for plain HTTP,
 * `secureConnection` for TLS (whose handshake its server bounds with `handshakeTimeout`).
 */
export function gateHeads(
  server: Server,
  options: HeadGateOptions,
  event: 'connection' | 'secureConnection' = 'connection',
): HeadGate {
  const headDeadlineMs = options.headDeadlineMs ?? HEAD_DEADLINE_MS;
  const readIdleMs = Math.min(options.readIdleMs ?? READ_IDLE_MS, headDeadlineMs);
  const maxPending = options.maxPendingHeads ?? MAX_PENDING_HEADS;
  const pending = new Map<Socket, NodeJS.Timeout>();

  const release = (socket: Socket): boolean => {
    const timer = pending.get(socket);
    if (timer === undefined) return false;
    clearTimeout(timer);
    pending.delete(socket);
    socket.setTimeout(0);
    return true;
  };
  const drop = (socket: Socket): void => {
    release(socket);
    socket.destroy();
  };

  server.on(event, (socket: Socket) => {
    if (pending.size >= maxPending) {
      const oldest = pending.keys().next().value;
      if (oldest) drop(oldest);
    }
    pending.set(
      socket,
      setTimeout(() => drop(socket), headDeadlineMs),
    );
    socket.setTimeout(readIdleMs, () => {
      if (pending.has(socket)) drop(socket);
    });
    socket.once('close', () => release(socket));
  });

  return {
    release,
    pending: () => pending.size,
    dropAll() {
      for (const socket of [...pending.keys()]) drop(socket);
    },
  };
}
