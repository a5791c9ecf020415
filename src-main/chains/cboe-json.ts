/**
 * CBOE delayed-quotes JSON (`https://cdn.cboe.com/api/global/delayed_quotes/options/<SYMBOL>.json`):
 * `{timestamp?, data: {symbol?, current_price, last_trade_time?, options: [{option, iv, open_interest, bid, ask, ...}]}}`.
 * `option` is an OCC symbol without padding; `iv` a decimal. `timestamp` is UTC; `last_trade_time` New York time.
 */
import type { OptionContract } from '../../src-shared/exposure/model';
import {
  ErrorList,
  finishSnapshot,
  normaliseSymbol,
  parseOccSymbol,
  parseQuoteTime,
  type ChainParseOptions,
  type ChainParseResult,
  MAX_CHAIN_CONTRACTS,
} from './common';
import { finiteNumber, isRecord, readContractArray, readJsonChain, type JsonChainDocument } from './json';

export function looksLikeCboeJson(value: unknown): boolean {
  return isRecord(value) && isRecord(value.data) && Array.isArray(value.data.options);
}

function numberField(record: Record<string, unknown>, key: string): number | null {
  return finiteNumber(record[key]);
}

export function parseCboeJson(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const read = readJsonChain(text, MAX_CHAIN_CONTRACTS);
  return read.ok ? parseCboeJsonDocument(read.document, options) : read;
}

/**
 * The CBOE JSON document once read (parseChainFile reads a JSON file once, to detect its format and read it): its
 * options parsed one at a time from the text (json.ts, readJsonChain), never all at once.
 */
export function parseCboeJsonDocument(document: JsonChainDocument, options: ChainParseOptions = {}): ChainParseResult {
  const { root } = document;
  if (!isRecord(root) || !isRecord(root.data) || !Array.isArray(root.data.options)) {
    return { ok: false, errors: [{ line: null, message: 'missing data.options: not a CBOE delayed-quotes JSON document' }] };
  }
  const data = root.data;
  const errors = new ErrorList();
  const read = readContractArray(document, ['data', 'options'], errors, (item, where) => {
    const symbol = typeof item.option === 'string' ? item.option : '';
    const occ = parseOccSymbol(symbol);
    if (occ === null) return { problem: `${where}: option "${symbol}" is not an OCC option symbol` };
    const values: Record<string, number | null> = {
      iv: numberField(item, 'iv'),
      open_interest: numberField(item, 'open_interest'),
      bid: numberField(item, 'bid'),
      ask: numberField(item, 'ask'),
    };
    const missing = Object.entries(values).filter(([, v]) => v === null).map(([k]) => k);
    if (missing.length > 0) return { problem: `${where} (${symbol}): missing or non-numeric ${missing.join(', ')}` };
    const iv = values.iv ?? 0;
    const openInterest = values.open_interest ?? 0;
    if (iv < 0 || openInterest < 0) return { problem: `${where} (${symbol}): negative ${iv < 0 ? 'iv' : 'open_interest'}` };
    const contract: OptionContract = {
      root: occ.root,
      expiration: occ.expiration,
      strike: occ.strike,
      right: occ.right,
      openInterest,
      iv,
      bid: values.bid ?? 0,
      ask: values.ask ?? 0,
      multiplier: 100,
    };
    const volume = numberField(item, 'volume');
    if (volume !== null && volume >= 0) contract.volume = volume;
    return contract;
  });
  if (!read.ok) return read;
  const { located } = read;

  const spot = numberField(data, 'current_price') ?? numberField(data, 'close');
  // The top-level `timestamp` ("2024-01-05 21:15:04") is UTC: the options' `last_trade_time` values, New York
  // wall-clock time, end minutes before it, not hours after. `data.last_trade_time` (New York) is the fallback.
  let quoteTime: string | null = null;
  if (typeof root.timestamp === 'string') quoteTime = parseQuoteTime(root.timestamp, 'utc');
  if (quoteTime === null && typeof data.last_trade_time === 'string') quoteTime = parseQuoteTime(data.last_trade_time);
  const symbol = typeof data.symbol === 'string' && data.symbol.trim() !== '' ? normaliseSymbol(data.symbol) : null;
  const warnings: string[] = [];
  if (quoteTime === null && options.quoteTime === undefined && typeof root.timestamp === 'string') {
    errors.add(null, `bad date: timestamp "${root.timestamp}" is not an ISO date-time (UTC)`);
  }
  return finishSnapshot({ located, errors, warnings, symbol, spot, quoteTime, source: 'cboe-json', options, ivMayBePercent: false, quoteTimeUnreadable: typeof root.timestamp === 'string' });
}
