/** The gamma flip in words, from /gex's flipStatus and flipRoots (pure: the unit tests run it without a DOM). */
import { fmtNumber, fmtPrice } from '../../format';

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** `one`, `two`, … `twelve`, then digits. */
export function countWord(n: number): string {
  return NUMBER_WORDS[n] ?? fmtPrice(n, 0);
}

/** `4,712 and 4,801`; `15,032.39, 15,199.78 and 15,317.07`. */
export function listOfLevels(levels: readonly number[]): string {
  const shown = levels.map((level) => fmtPrice(level));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1] ?? ''}`;
}

/**
 * How many times the gamma profile changes sign on [0.8S, 1.2S] and where: "no crossing within ±20% of spot",
 * "one crossing, 0.61% above spot", "three crossings: 15,032.39, 15,199.78 and 15,317.07". A trader should know
 * when the flip named is one of several (docs/exposure.md, "GEX levels").
 */
export function flipWords(status: 'ok' | 'multiple' | 'none', roots: readonly number[], spot: number): string {
  if (status === 'none' || roots.length === 0) return 'no crossing within ±20% of spot';
  const [only] = roots;
  if (roots.length === 1 && only !== undefined) {
    const pct = ((only - spot) / spot) * 100;
    const shown = fmtNumber(Math.abs(pct), 2);
    if (shown === '0.00') return 'one crossing, at spot';
    return `one crossing, ${shown}% ${pct > 0 ? 'above' : 'below'} spot`;
  }
  return `${countWord(roots.length)} crossings: ${listOfLevels(roots)}`;
}
