/**
 * Generic JSON chain: the ChainSnapshot shape (docs/exposure.md):
 * `{symbol, spot, quoteTime, contracts: [{root?, expiration, strike, right, openInterest, iv, bid?, ask?, multiplier?}]}`.
 * `right` is C/P (or call/put); `quoteTime` ISO 8601, New York time when it has no offset.
 */
import { isIsoDate } from '../../src-shared/calendar';
import type { OptionContract } from '../../src-shared/exposure/model';
import {
  ErrorList,
  finishSnapshot,
  normaliseSymbol,
  parseQuoteTime,
  type ChainParseOptions,
  type ChainParseResult,
  MAX_CHAIN_CONTRACTS,
} from './common';
import { finiteNumber, isRecord, readContractArray, readJsonChain, type JsonChainDocument } from './json';
import { asTicker } from '../../src-shared/ids';

export function parseRight(value: unknown): 'C' | 'P' | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toUpperCase();
  if (v === 'C' || v === 'CALL' || v === 'CALLS') return 'C';
  if (v === 'P' || v === 'PUT' || v === 'PUTS') return 'P';
  return null;
}

export function parseGenericJson(text: string, options: ChainParseOptions = {}): ChainParseResult {
  const read = readJsonChain(text, MAX_CHAIN_CONTRACTS);
  return read.ok ? parseGenericJsonDocument(read.document, options) : read;
}

/** The generic JSON document once read, its contracts parsed one at a time (see parseCboeJsonDocument). */
export function parseGenericJsonDocument(document: JsonChainDocument, options: ChainParseOptions = {}): ChainParseResult {
  const { root } = document;
  if (!isRecord(root) || !Array.isArray(root.contracts)) {
    return { ok: false, errors: [{ line: null, message: 'missing "contracts" array: expected {symbol, spot, quoteTime, contracts: [...]}' }] };
  }
  const errors = new ErrorList();
  const fallbackRoot = options.symbol ?? (typeof root.symbol === 'string' ? root.symbol : '');
  const read = readContractArray(document, ['contracts'], errors, (item, where) => {
    const expiration = typeof item.expiration === 'string' ? item.expiration.trim() : '';
    if (!isIsoDate(expiration)) return { problem: `${where}: bad date: expiration "${String(item.expiration)}" is not YYYY-MM-DD` };
    const right = parseRight(item.right);
    if (right === null) return { problem: `${where}: right "${String(item.right)}" is not C or P` };
    const strike = finiteNumber(item.strike);
    const openInterest = finiteNumber(item.openInterest);
    const iv = finiteNumber(item.iv);
    const bid = item.bid === undefined ? 0 : finiteNumber(item.bid);
    const ask = item.ask === undefined ? 0 : finiteNumber(item.ask);
    const multiplier = item.multiplier === undefined ? 100 : finiteNumber(item.multiplier);
    const bad = Object.entries({ strike, openInterest, iv, bid, ask, multiplier }).filter(([, v]) => v === null).map(([k]) => k);
    if (bad.length > 0) return { problem: `${where}: missing or non-numeric ${bad.join(', ')}` };
    if (!((strike ?? 0) > 0) || (openInterest ?? 0) < 0 || (iv ?? 0) < 0 || !((multiplier ?? 0) > 0)) {
      return { problem: `${where}: strike and multiplier must be > 0, openInterest and iv ≥ 0` };
    }
    const contractRoot = typeof item.root === 'string' && item.root.trim() !== '' ? asTicker(item.root) : normaliseSymbol(fallbackRoot);
    const contract: OptionContract = {
      root: contractRoot,
      expiration,
      strike: strike ?? 0,
      right,
      openInterest: openInterest ?? 0,
      iv: iv ?? 0,
      bid: bid ?? 0,
      ask: ask ?? 0,
      multiplier: multiplier ?? 100,
    };
    if (item.volume !== undefined && item.volume !== null) {
      const volume = finiteNumber(item.volume);
      if (volume === null || volume < 0) return { problem: `${where}: volume ${JSON.stringify(item.volume)} is not a number ≥ 0` };
      contract.volume = volume;
    }
    return contract;
  });
  if (!read.ok) return read;
  const { located } = read;
  const spot = finiteNumber(root.spot);
  let quoteTime: string | null = null;
  if (typeof root.quoteTime === 'string') {
    quoteTime = parseQuoteTime(root.quoteTime);
    if (quoteTime === null && options.quoteTime === undefined) errors.add(null, `bad date: quoteTime "${root.quoteTime}" is not an ISO 8601 date-time`);
  }
  const symbol = typeof root.symbol === 'string' && root.symbol.trim() !== '' ? root.symbol : null;
  return finishSnapshot({ located, errors, warnings: [], symbol, spot, quoteTime, source: 'generic', options, ivMayBePercent: true, quoteTimeUnreadable: typeof root.quoteTime === 'string' });
}
