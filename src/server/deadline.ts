/**
 * The one timer race behind every deadline of the servers: `serve`'s request deadline, a waiter's fetch
 * budget, a stalled config read, and both servers' shutdown grace.
 */

/** What `promise` settles to, or `late()` once `ms` have passed first; the timer never outlives the race. */
export async function orAfter<T, U>(promise: Promise<T>, ms: number, late: () => U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<U>((resolve) => {
    timer = setTimeout(() => resolve(late()), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
