/** Rejects with `what` when `promise` has not settled within `ms` — a bound on a wait, never a sleep. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Generous bound for "the daemon closed that connection" on two busy cores. */
export const CLOSE_BOUND_MS = 10_000;
