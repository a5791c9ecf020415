/**
 * import.linear_time.* (docs/importers.md §Linear time): each hostile input of test/linear-time.ts timed at n, 10n and
 * 100n, and the exponent k of time ∝ size^k fitted between 10n and 100n (1 linear, 2 quadratic). The tests hold the
 * structure (each input parsed whole at a size a square cannot finish; the lint rules on the patterns); the growth
 * itself is a measurement, so it is here. Times are compared with each other, so a loaded machine slows every size
 * alike and the exponent stays.
 */
import { LINEAR_CASES, ROBINHOOD_PAIRING } from '../test/linear-time';
import { growth } from './growth';
import { atMost, type BenchLine } from './lib';

/** Linear parsing gives k ≈ 1 (less where fixed costs still show); the room above it is for a garbage collection. */
const LIMIT = 1.4;

export function benchLinearTime(): BenchLine[] {
  return [...LINEAR_CASES, ROBINHOOD_PAIRING].map(({ name, n, run }) => {
    const { ms, exponent } = growth(run, n, LIMIT);
    const detail = `${name}; ms per call at ${n}, ${10 * n}, ${100 * n}: ${ms.map((t) => t.toPrecision(3)).join(', ')}`;
    return atMost(`import.linear_time.${slug(name)}`, exponent, 'exponent', LIMIT, detail);
  });
}

/** A short line name from the case's name: its words before the colon and after it, lower-cased, joined by `_`. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/\(.*?\)/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
}
