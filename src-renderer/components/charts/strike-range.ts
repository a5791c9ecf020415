/** Which strikes a per-strike chart opens on (pure: the unit tests run it without a DOM). */

/**
 * The strikes to open on: those within `focus` (e.g. spot ± 10%) that carry a visible value (at least 0.5% of the
 * largest); when that range is empty (all the weight away from spot, or a narrow chain) the strikes that carry a
 * visible value at all. Indices into `strikes`, or null (fit everything).
 */
export function strikesThatMatter(strikes: readonly number[], weight: ReadonlyMap<number, number>, focus?: { from: number; to: number }): { first: number; last: number } | null {
  let largest = 0;
  for (const value of weight.values()) largest = Math.max(largest, Math.abs(value));
  const visible = (k: number) => largest > 0 && Math.abs(weight.get(k) ?? 0) >= 0.005 * largest;
  const span = (keep: (k: number) => boolean) => {
    const first = strikes.findIndex(keep);
    if (first < 0) return null;
    let last = first;
    for (let i = strikes.length - 1; i >= first; i -= 1) {
      const k = strikes[i];
      if (k !== undefined && keep(k)) {
        last = i;
        break;
      }
    }
    return { first, last };
  };
  return (focus && span((k) => k >= focus.from && k <= focus.to && visible(k))) ?? span(visible);
}
