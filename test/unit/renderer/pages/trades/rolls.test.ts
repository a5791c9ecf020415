/** The roll assistant's pure helpers (docs/ui.md §Rolls): the filters as the API's query, a leg's title, nets in words. */
import { describe, expect, it } from 'vitest';
import { expirationWords, legTitle, netNumber, netText, wantedQuery } from '../../../../../src-renderer/pages/trades/rolls';

const none = { credit: false, net: 'mid' as const, maxDelta: '', beyondWall: false };

describe('wantedQuery', () => {
  it('nothing asked: no parameter (the API’s defaults)', () => {
    expect(wantedQuery(none)).toEqual({});
  });
  it('net credit at mid or natural, |delta| at most, beyond the wall', () => {
    expect(wantedQuery({ ...none, credit: true })).toEqual({ minNet: 0 });
    expect(wantedQuery({ ...none, credit: true, net: 'natural' })).toEqual({ minNet: 0, net: 'natural' });
    expect(wantedQuery({ ...none, maxDelta: '0.2', beyondWall: true })).toEqual({ maxDelta: 0.2, beyondWall: 'true' });
  });
  it('a |delta| that is not a number from 0 to 1 is left out (the API would refuse it)', () => {
    for (const maxDelta of ['1.5', '-0.1', 'abc', ' ']) expect(wantedQuery({ ...none, maxDelta })).toEqual({});
    // The natural price only matters to the net credit filter.
    expect(wantedQuery({ ...none, net: 'natural' })).toEqual({});
  });
});

describe('words', () => {
  it('netText: a credit, a debit, and no quote', () => {
    expect(netText(2.2)).toBe('+2.20 cr');
    expect(netText(1.825)).toBe('+1.825 cr');
    expect(netText(-0.35)).toBe('−0.35 db');
    expect(netText(0)).toBe('+0.00 cr');
    expect(netText(null)).toBe('—');
    expect([netNumber(-0.885), netNumber(1.94), netNumber(null)]).toEqual(['−0.885', '+1.94', '—']);
  });
  it('legTitle and expirationWords', () => {
    const leg = { leg: { symbol: 'SPXW240112P04600000', expiration: '2024-01-12', strike: 4600, right: 'P' as const, contracts: 2, multiplier: 100, dte: 5 } } as Parameters<typeof legTitle>[0];
    expect(legTitle(leg)).toBe('Short 4,600 put · 12 Jan (5 DTE) × 2');
    expect(expirationWords({ expiration: '2024-01-16', dte: 9, putWall: 4700, callWall: 4750, gammaFlip: 4718.31, gammaZone: 'negative' })).toBe('16 Jan · 9 DTE · put wall 4,700 · flip 4,718 · call wall 4,750');
    expect(expirationWords({ expiration: '2024-02-02', dte: 26, putWall: null, callWall: null, gammaFlip: null, gammaZone: null })).toBe('2 Feb · 26 DTE · no levels');
  });
});
