/**
 * Schwab Trader API (and the TD Ameritrade API before it) option chain JSON, `GET /marketdata/v1/chains`:
 * `{symbol, underlyingPrice, callExpDateMap: {"2024-01-19:14": {"4700.0": [{putCall, symbol, bid, ask, totalVolume,
 * volatility, openInterest, strikePrice, multiplier, optionRoot, quoteTimeInLong, ...}]}}, putExpDateMap: {...}}`.
 * `volatility` is in percent (−999 or "NaN" when the API has none); `quoteTimeInLong` is epoch milliseconds (UTC).
 * Layout and decisions in docs/exposure.md, "Schwab / TD Ameritrade API JSON".
 */
import { isIsoDate, isoInstant } from '../../src-shared/calendar';
import type { OptionContract } from '../../src-shared/exposure/model';
import { ErrorList, finishSnapshot, MAX_CHAIN_CONTRACTS, normaliseSymbol, parseOccSymbol, type ChainParseOptions, type ChainParseResult, type LocatedContract } from './common';
import { eachPiece, finiteNumber, isRecord, readJsonChain, type JsonChainDocument } from './json';
import { asTicker } from '../../src-shared/ids';

const MAPS = [
  { name: 'callExpDateMap', right: 'C' as const, label: 'CALL' },
  { name: 'putExpDateMap', right: 'P' as const, label: 'PUT' },
];
/** The API's value for "no volatility". */
const NO_VOLATILITY = -999;

export function looksLikeSchwabJson(value: unknown): boolean {
  return isRecord(value) && (isRecord(value.callExpDateMap) || isRecord(value.putExpDateMap));
}

/** `$SPX` (Schwab) and `$SPX.X` (TD Ameritrade) name the index SPX. */
function chainSymbol(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  return normaliseSymbol(value.trim().replace(/\.X$/i, ''));
}

/** The OCC root of a contract: `optionRoot`, else the root of its symbol (OCC `SPXW  240119C04700000` or TDA `SPXW_011924C4700`). */
function rootOf(item: Record<string, unknown>, fallback: string): string {
  if (typeof item.optionRoot === 'string' && item.optionRoot.trim() !== '') return asTicker(item.optionRoot);
  if (typeof item.symbol === 'string') {
    const occ = parseOccSymbol(item.symbol);
    if (occ !== null) return occ.root;
    const underscore = item.symbol.indexOf('_');
    if (underscore > 0) return asTicker(item.symbol.slice(0, underscore));
  }
  return fallback;
}

/** IV as a decimal from the API's percent; 0 (no exposure, the contract still counts in OI) when it has none. */
function volatilityOf(value: unknown): number | 'negative' | 'missing' {
  if (value === 'NaN' || value === NO_VOLATILITY) return 0;
  const percent = finiteNumber(value);
  if (percent === null) return 'missing';
  if (percent < 0) return 'negative';
  return percent / 100;
}

export function parseSchwabJson(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const read = readJsonChain(text, MAX_CHAIN_CONTRACTS);
  return read.ok ? parseSchwabJsonDocument(read.document, options) : read;
}

/**
 * The Schwab / TD Ameritrade document once read (parseChainFile reads a JSON file once, to detect its format and read
 * it): each map's expirations parsed one at a time from the text (json.ts, readJsonChain), never the whole chain at once.
 */
export function parseSchwabJsonDocument(document: JsonChainDocument, options: ChainParseOptions = {}): ChainParseResult {
  const { root } = document;
  if (!looksLikeSchwabJson(root) || !isRecord(root)) {
    return { ok: false, errors: [{ line: null, message: 'missing callExpDateMap / putExpDateMap: not a Schwab or TD Ameritrade option chain' }] };
  }
  const errors = new ErrorList();
  const warnings: string[] = [];
  const located: LocatedContract[] = [];
  const symbol = chainSymbol(root.symbol);
  const fallbackRoot = normaliseSymbol(options.symbol ?? symbol ?? '');
  let newestQuoteMs = 0;
  const sides = { C: 0, P: 0 };
  for (const map of MAPS) {
    const byExpiration = root[map.name];
    if (byExpiration === undefined) continue;
    if (!isRecord(byExpiration)) {
      errors.add(null, `${map.name} is not an object`);
      continue;
    }
    const read = eachPiece(document, [map.name], (byStrike, _index, expirationKey) => {
      const expiration = expirationKey.split(':')[0] ?? '';
      if (!isIsoDate(expiration)) {
        errors.add(null, `${map.name}["${expirationKey}"]: bad date: the key does not start with YYYY-MM-DD`);
        return;
      }
      if (!isRecord(byStrike)) {
        errors.add(null, `${map.name}["${expirationKey}"] is not an object of strikes`);
        return;
      }
      for (const [strikeKey, list] of Object.entries(byStrike)) {
        if (!Array.isArray(list)) {
          errors.add(null, `${map.name}["${expirationKey}"]["${strikeKey}"] is not a list of contracts`);
          continue;
        }
        list.forEach((item: unknown, index) => {
          const where = `${map.name}["${expirationKey}"]["${strikeKey}"][${index}]`;
          if (!isRecord(item)) {
            errors.add(null, `${where}: not an object`);
            return;
          }
          if (item.putCall !== undefined && item.putCall !== map.label) {
            errors.add(null, `${where}: putCall "${String(item.putCall)}" in ${map.name}`);
            return;
          }
          const strike = finiteNumber(item.strikePrice) ?? finiteNumber(strikeKey);
          const bid = finiteNumber(item.bid);
          const ask = finiteNumber(item.ask);
          const openInterest = finiteNumber(item.openInterest);
          const iv = volatilityOf(item.volatility);
          const missing = Object.entries({ strikePrice: strike, bid, ask, openInterest }).filter(([, v]) => v === null).map(([k]) => k);
          if (iv === 'missing') missing.push('volatility');
          if (missing.length > 0) {
            errors.add(null, `${where}: missing or non-numeric ${missing.join(', ')}`);
            return;
          }
          if (iv === 'negative' || (openInterest ?? 0) < 0 || !((strike ?? 0) > 0)) {
            errors.add(null, `${where}: ${iv === 'negative' ? 'negative volatility' : (openInterest ?? 0) < 0 ? 'negative openInterest' : 'strike must be > 0'}`);
            return;
          }
          const multiplier = finiteNumber(item.multiplier);
          const contract: OptionContract = {
            root: rootOf(item, fallbackRoot),
            expiration,
            strike: strike ?? 0,
            right: map.right,
            openInterest: openInterest ?? 0,
            iv: typeof iv === 'number' ? iv : 0,
            bid: bid ?? 0,
            ask: ask ?? 0,
            multiplier: multiplier !== null && multiplier > 0 ? multiplier : 100,
          };
          const volume = finiteNumber(item.totalVolume);
          if (volume !== null && volume >= 0) contract.volume = volume;
          const quoteMs = finiteNumber(item.quoteTimeInLong);
          if (quoteMs !== null && quoteMs > newestQuoteMs) newestQuoteMs = quoteMs;
          sides[map.right] += 1;
          located.push({ contract, line: null });
        });
      }
    });
    if (!read.ok) return read;
  }
  if (root.status === 'FAILED' && located.length === 0) errors.add(null, 'the chain request failed (status FAILED): the document holds no contracts');
  if (located.length > 0 && (sides.C === 0 || sides.P === 0)) {
    warnings.push(`only ${sides.C === 0 ? 'puts' : 'calls'} in the chain: exposure, the parity forward and the ATM figures see one side`);
  }
  const spot =
    finiteNumber(root.underlyingPrice) ?? (isRecord(root.underlying) ? (finiteNumber(root.underlying.last) ?? finiteNumber(root.underlying.mark)) : null);
  // The newest quote of the chain: the API sends no time for the document itself.
  const quoteTime = newestQuoteMs > 0 ? isoInstant(newestQuoteMs, { compact: true }) : null;
  return finishSnapshot({ located, errors, warnings, symbol, spot: spot !== null && spot > 0 ? spot : null, quoteTime, source: 'schwab-json', options, ivMayBePercent: false });
}
