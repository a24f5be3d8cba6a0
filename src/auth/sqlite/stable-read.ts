/**
 * A read of a database another program may be writing (Cursor its state.vscdb, a browser its cookies): done
 * again when what it read from changed underneath it, as `stamp` tells, a bounded number of times.
 */
import { corrupt } from './format-error.js';

/** A read that a running writer disturbs is tried this many times in all. */
const READ_ATTEMPTS = 3;

export function readConsistently<T>(stamp: () => string, read: () => T, what: string): T {
  for (let attempt = 1; ; attempt++) {
    const before = stamp();
    try {
      const value = read();
      if (stamp() === before) return value;
    } catch (error) {
      if (attempt >= READ_ATTEMPTS || stamp() === before) throw error;
    }
    if (attempt >= READ_ATTEMPTS) corrupt(`${what} kept changing while it was read`);
  }
}
