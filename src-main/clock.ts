/**
 * "Now", given to whatever needs it (the context holds one): services and server modules never ask the system for
 * the time themselves, so that tests set it instead of depending on the day they run.
 */
export interface Clock {
  /** Milliseconds since the epoch: `asOf`, `createdAt`, today's date in a zone, key stamps. */
  nowMs(): number;
  /** A monotonic count of milliseconds for durations (cache lifetimes, the rate limit); unrelated to the date. */
  monotonicMs(): number;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  monotonicMs: () => performance.now(),
};

/** The clock's now as an ISO 8601 UTC instant. */
export function nowIso(clock: Clock): string {
  return new Date(clock.nowMs()).toISOString();
}

/** The clock's now as a Date (for the date helpers of src-shared/zone.ts). */
export function nowDate(clock: Clock): Date {
  return new Date(clock.nowMs());
}
