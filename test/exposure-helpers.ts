import type { ChainSnapshot, OptionContract } from '../src-shared/exposure/model';

/** 2026-02-02 16:00 New York (EST, UTC−5). */
export const QUOTE_TIME = '2026-02-02T21:00:00Z';
/** One week later: a PM expiry exactly 7 × 24 h after QUOTE_TIME, so T = 7/365 and dte = 7. */
export const EXPIRATION = '2026-02-09';
export const T_WEEK = 7 / 365;

export function contract(partial: Partial<OptionContract> & Pick<OptionContract, 'strike' | 'right'>): OptionContract {
  return { root: 'XYZ', expiration: EXPIRATION, openInterest: 1000, iv: 0.2, bid: 0, ask: 0, multiplier: 100, ...partial };
}

export function snapshot(contracts: OptionContract[], spot = 100, quoteTime = QUOTE_TIME, symbol = 'XYZ'): ChainSnapshot {
  return { symbol, spot, quoteTime, source: 'generic', contracts };
}
