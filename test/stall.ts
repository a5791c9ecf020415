/**
 * The longest pause of this thread's event loop while `work` runs: a 1 ms timer notes the gaps between its ticks,
 * and one more tick after the work records a stall that ended just before its answer.
 */
export async function longestStallMs<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let stallMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  try {
    const value = await work();
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { value, stallMs };
  } finally {
    clearInterval(timer);
  }
}
