/**
 * Option roots and the chain they belong to (DESIGN §5 "Underlying roots", docs/importers.md §Underlying roots): an
 * option's underlying is the symbol its chain is published under. Index options trade under several roots of one
 * chain (SPXW and SPXPM in the SPX chain, NDXP in NDX's, RUTW, VIXW); an OCC-adjusted contract carries a digit after
 * its underlying's root (AMD1 after a corporate action) and delivers something else than 100 shares of it. The chain
 * parsers, the importers, the manual rows and the journal's marks all map roots here, so they agree.
 */

/** Weekly and PM-settled roots of index options and the chain they are listed in. Other roots map to themselves. */
const ROOT_UNDERLYING: Readonly<Record<string, string>> = {
  SPXW: 'SPX',
  SPXPM: 'SPX',
  NDXP: 'NDX',
  NDXW: 'NDX',
  RUTW: 'RUT',
  VIXW: 'VIX',
  XSPW: 'XSP',
  DJXW: 'DJX',
  MRUT: 'MRUT',
};

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The root ends in a digit: an OCC-adjusted contract (non-standard deliverable), AMD1 of AMD. */
export function isAdjustedOptionRoot(root: string): boolean {
  return root.length > 1 && isDigit(root.charCodeAt(root.length - 1)) && !isDigit(root.charCodeAt(0));
}

/** The underlying (the chain's symbol) of an OCC root: SPXW → SPX, NDXP → NDX; an adjusted root loses its digits (AMD1 → AMD). */
export function underlyingOfRoot(root: string): string {
  const upper = root.toUpperCase();
  const mapped = ROOT_UNDERLYING[upper];
  if (mapped !== undefined) return mapped;
  let end = upper.length;
  while (end > 0 && isDigit(upper.charCodeAt(end - 1))) end -= 1;
  return end === 0 ? upper : upper.slice(0, end);
}

/** The root of an unpadded OCC symbol (`SPXW240119P04700000` → SPXW); null for anything else. */
export function occRootOf(symbol: string): string | null {
  const match = /^([A-Z][A-Z0-9.]{0,5})\d{6}[CP]\d{8}$/.exec(symbol);
  return match?.[1] ?? null;
}

/** An option whose OCC root is adjusted (AMD1): flagged `adjusted` on transactions and positions. */
export function isAdjustedOption(instrument: { isOption: boolean; symbol: string }): boolean {
  if (!instrument.isOption) return false;
  const root = occRootOf(instrument.symbol);
  return root !== null && isAdjustedOptionRoot(root);
}

/**
 * The underlying an option row keeps: the chain's symbol of what the broker gave (its underlying column, else the
 * root): SPXW → SPX, AMD1 → AMD. Rows that are not OCC options (shares, futures options such as `./ESZ4 EW4Z4 4600P`,
 * whose contract months end in digits) keep theirs.
 */
export function chainUnderlying(row: { isOption: boolean; symbol: string; underlying: string }): string {
  if (!row.isOption) return row.underlying;
  const root = occRootOf(row.symbol);
  if (root === null) return row.underlying;
  const given = row.underlying.trim();
  return underlyingOfRoot(given === '' ? root : given);
}
