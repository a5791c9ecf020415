/**
 * Futures contracts as the importers meet them (`/MESZ5`, `/ESM4`, `/MCLZ5`): the product and its multiplier, for
 * files that leave the multiplier out (tastytrade writes none on futures rows). The multipliers are the exchanges'
 * contract sizes (CME Group, Cboe Futures): dollars per point of the quoted price.
 */

/** Dollars per point of the futures products people trade most; others need the file's own multiplier. */
const MULTIPLIERS: Readonly<Record<string, number>> = {
  // Equity indexes
  ES: 50, MES: 5, NQ: 20, MNQ: 2, RTY: 50, M2K: 5, YM: 5, MYM: 0.5, EMD: 100,
  // Volatility
  VX: 1000, VXM: 100,
  // Energy
  CL: 1000, MCL: 100, QM: 500, NG: 10000, QG: 2500, RB: 42000, HO: 42000,
  // Metals
  GC: 100, MGC: 10, SI: 5000, SIL: 1000, HG: 25000, MHG: 2500, PL: 50, PA: 100,
  // Interest rates (quoted in points of 100: a point is 1% of face)
  ZB: 1000, UB: 1000, ZN: 1000, TN: 1000, ZF: 1000, ZT: 2000,
  // Currencies
  '6E': 125000, M6E: 12500, '6J': 12500000, '6B': 62500, '6A': 100000, '6C': 100000, '6S': 125000,
  // Grains and livestock (quoted in cents per bushel / pound: a point is $0.01 × size)
  ZC: 50, ZS: 50, ZW: 50, ZL: 600, ZM: 100, LE: 400, HE: 400,
  // Crypto
  BTC: 5, MBT: 0.1, ETH: 50, MET: 0.1,
};

const MONTH_CODES = new Set(['F', 'G', 'H', 'J', 'K', 'M', 'N', 'Q', 'U', 'V', 'X', 'Z']);

/** `/MESZ5` → `MES`, `/ESM24` → `ES`: the symbol without its slash, year digits and month code; null when not that shape. */
export function futuresProduct(symbol: string): string | null {
  let text = symbol.trim().toUpperCase();
  if (text.startsWith('/')) text = text.slice(1);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) >= 48 && text.charCodeAt(end - 1) <= 57) end -= 1;
  const digits = text.length - end;
  if (digits < 1 || digits > 2 || end < 2 || !MONTH_CODES.has(text.charAt(end - 1))) return null;
  return text.slice(0, end - 1);
}

/** Dollars per point of a futures contract by its symbol or product (`/MESZ5`, `/MES`, `MES`); null when unknown. */
export function futuresMultiplier(symbolOrProduct: string): number | null {
  const bare = symbolOrProduct.trim().toUpperCase().replace(/^\//, '');
  return MULTIPLIERS[bare] ?? MULTIPLIERS[futuresProduct(bare) ?? ''] ?? null;
}
