import type { Clock } from '../src-main/clock';

/** A clock that stands still until a test moves it: its date and its monotonic time move together. */
export interface ManualClock extends Clock {
  set(iso: string): void;
  advance(ms: number): void;
}

export function manualClock(startIso: string): ManualClock {
  let nowMs = Date.parse(startIso);
  if (Number.isNaN(nowMs)) throw new Error(`manualClock: "${startIso}" is not an instant`);
  let monotonicMs = 0;
  return {
    nowMs: () => nowMs,
    monotonicMs: () => monotonicMs,
    set(iso) {
      const next = Date.parse(iso);
      monotonicMs += Math.max(0, next - nowMs);
      nowMs = next;
    },
    advance(ms) {
      nowMs += ms;
      monotonicMs += ms;
    },
  };
}
