/**
 * A trade's entry (docs/journal.md §Trades and strategies): which snapshot describes it (at or before the open, the same
 * or the previous trading day), the main leg, where its strike stood against the dealer levels, and, on the real SPY
 * chain of 2023-09-14, the delta and levels the service's lookup gives against CBOE's own delta column.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../src-main/chains/index';
import { computeGex, prepareChain, settlementOf, type OptionContract } from '../../../../src-shared/exposure/index';
import type { DealerLevels, UnderlyingMarks } from '../../../../src-shared/journal/book';
import { dteAtEntry, entryFigures, entryLegOf, entryLookupFromMarks, isUsableEntry, levelsAtEntryIn, outcomeRatios, placeStrike, previousTradingDay, type EntryFacts, type EntryQuery } from '../../../../src-shared/journal/trade-metrics';
import type { StructureLeg } from '../../../../src-shared/journal/strategies';
import type { LevelsScope } from '../../../../src-shared/journal/constants';
import type { SnapshotQuote } from '../../../../src-shared/journal/book';
import { MAX_USABLE_IV } from '../../../../src-shared/exposure/prepare';
import { CHAIN_FIXTURES } from '../../../paths';
import { tx } from '../../../journal-helpers';
import { minor, onlyTrade, snapshotLookup } from '../../../trade-helpers';

const LEVELS: DealerLevels = { putWall: 90, gammaFlip: 100, callWall: 110, gammaZone: 'positive' };

describe('which snapshot describes an entry', () => {
  // Monday 2024-03-04 10:00 New York = 15:00Z.
  const openMs = Date.parse('2024-03-04T15:00:00Z');

  it('one quoted at or before the open, on its day or the trading day before (a Monday\'s is the Friday)', () => {
    expect(previousTradingDay('2024-03-04'), 'Monday → Friday').toBe('2024-03-01');
    expect(previousTradingDay('2024-03-05'), 'Tuesday → Monday').toBe('2024-03-04');
    expect(isUsableEntry('2024-03-04T14:45:00Z', openMs), 'Monday 09:45').toBe(true);
    expect(isUsableEntry('2024-03-01T21:30:00Z', openMs), 'Friday 16:30').toBe(true);
    expect(isUsableEntry('2024-03-01T14:31:00Z', openMs), 'Friday 09:31: still the trading day before').toBe(true);
    expect(isUsableEntry('2024-02-29T21:30:00Z', openMs), 'Thursday: too old').toBe(false);
    expect(isUsableEntry('2024-03-04T15:05:00Z', openMs), 'after the open').toBe(false);
  });

  it('a trade without a usable snapshot has no entry figures', () => {
    const rows = [tx({ type: 'SELL_TO_OPEN', option: { expiration: '2024-03-15', strike: 95, right: 'P' }, quantity: 1, price: 1, at: '2024-03-04T10:00', orderId: 'o1' })];
    const stale = onlyTrade(rows, snapshotLookup('2024-02-29T21:30:00Z', 100, LEVELS, () => -0.2));
    expect([stale.entrySnapshot, stale.deltaAtEntry, stale.levelsAtEntry], 'Thursday\'s snapshot for a Monday open').toEqual([null, null, null]);
    const fresh = onlyTrade(rows, snapshotLookup('2024-03-01T21:30:00Z', 100, LEVELS, () => -0.2));
    expect([fresh.deltaAtEntry, fresh.levelsAtEntry?.shortStrikeVs], 'Friday\'s close').toEqual([-0.2, 'put_wall_to_flip']);
  });
});

describe('where the strike stood', () => {
  it.each([
    [85, 'below_put_wall'],
    [90, 'put_wall_to_flip'],
    [99.5, 'put_wall_to_flip'],
    [100, 'flip_to_call_wall'],
    [110, 'flip_to_call_wall'],
    [110.5, 'above_call_wall'],
  ] as const)('strike %d against put wall 90, flip 100, call wall 110: %s', (strike, where) => {
    expect(placeStrike(strike, LEVELS)).toBe(where);
  });

  it('without a flip only the walls can place it', () => {
    const noFlip = { ...LEVELS, gammaFlip: null };
    expect([placeStrike(85, noFlip), placeStrike(95, noFlip), placeStrike(115, noFlip)]).toEqual(['below_put_wall', null, 'above_call_wall']);
  });

  it('the main leg of a strangle is its richer short leg; of a debit spread its short leg; of a long call the call', () => {
    const at = '2024-03-04T10:00';
    const leg = (type: 'SELL_TO_OPEN' | 'BUY_TO_OPEN', strike: number, right: 'C' | 'P', price: number) =>
      tx({ type, option: { expiration: '2024-03-15', strike, right }, quantity: 1, price, at, orderId: 'o1' });
    const lookup = snapshotLookup('2024-03-04T14:45:00Z', 100, LEVELS, ({ strike, right }) => (right === 'P' ? -strike / 1000 : strike / 1000));
    const strangle = onlyTrade([leg('SELL_TO_OPEN', 88, 'P', 1), leg('SELL_TO_OPEN', 112, 'C', 1.5)], lookup);
    expect([strangle.deltaAtEntry, strangle.levelsAtEntry?.shortStrikeVs], 'the 112 call (1.50 > 1.00)').toEqual([0.112, 'above_call_wall']);
    const spread = onlyTrade([leg('BUY_TO_OPEN', 100, 'C', 3), leg('SELL_TO_OPEN', 105, 'C', 1)], lookup);
    expect(spread.deltaAtEntry, 'the short 105 call').toBe(0.105);
    const longCall = onlyTrade([leg('BUY_TO_OPEN', 102, 'C', 2)], lookup);
    expect([longCall.deltaAtEntry, longCall.levelsAtEntry], 'no short leg: the long call').toEqual([0.102, { ...LEVELS, scope: 'own', expirations: ['2024-03-15'], shortStrikeVs: 'flip_to_call_wall', shortStrikes: [] }]);
  });
});

const SPY_FILE = join(CHAIN_FIXTURES, 'SPY_quotedata_2023-09-14_carlos.csv');

/** The service's marks of a snapshot (src-main/services/journal-book.ts marksOf), written out for the test. */
function marksOf(contracts: readonly OptionContract[], chain: ReturnType<typeof prepareChain>, spot: number, quoteTime: string): UnderlyingMarks {
  return {
    snapshotId: 1,
    quoteTime,
    spot,
    rate: 0.04,
    contracts: contracts.length,
    // /gex of the leg's expiration alone (own), or of the default three (nearest).
    levelsIn(scope, expiration) {
      const own = scope === 'own' && expiration !== null;
      const gex = computeGex(chain, { expirations: own ? [expiration] : [], formula: 'nominal' });
      return { callWall: gex.callWall?.strike ?? null, putWall: gex.putWall?.strike ?? null, gammaFlip: gex.gammaInflection, gammaZone: gex.gammaZone, scope: own ? 'own' : 'nearest', expirations: gex.meta.expirations };
    },
    contract(expiration, strike, right) {
      const found = contracts.find((c) => c.expiration === expiration && c.strike === strike && c.right === right && c.root === 'SPY');
      if (!found) return null;
      const groups = chain.byExpiration.get(expiration)?.groups ?? [];
      const group = groups.find((g) => g.settlement === settlementOf(found.root)) ?? groups[0];
      return { bid: found.bid, ask: found.ask, iv: found.iv, tYears: group?.tYears ?? null, forward: group?.forward ?? null };
    },
  };
}

describe('on the real SPY chain of 2023-09-14 16:31 (CBOE quotedata)', () => {
  it('a short strangle opened the next morning: the put\'s delta near CBOE\'s, the levels of /gex, Reg T at its spot', () => {
    const parsed = parseChainFile(readFileSync(SPY_FILE, 'utf8'));
    if (!parsed.ok) throw new Error('the SPY chain does not parse');
    const snapshot = parsed.snapshot;
    const chain = prepareChain(snapshot, { rate: 0.04 });
    const marks = marksOf(snapshot.contracts, chain, snapshot.spot, snapshot.quoteTime);
    const lookup = entryLookupFromMarks((underlying, atMs) => (underlying === 'SPY' && atMs >= Date.parse(snapshot.quoteTime) ? marks : null));
    const leg = (strike: number, right: 'C' | 'P', price: number) =>
      tx({ type: 'SELL_TO_OPEN', ticker: 'SPY', option: { expiration: '2023-09-29', strike, right }, quantity: 1, price, at: '2023-09-15T10:00', orderId: 'o1' });
    // Sold at the file's bids: the 440 put at 1.05, the 460 call at 0.49.
    const trade = onlyTrade([leg(440, 'P', 1.05), leg(460, 'C', 0.49)], lookup);
    expect(trade.strategy).toBe('short_strangle');
    expect(trade.entrySnapshot, 'Thursday\'s close for a Friday open').toEqual({ quoteTime: snapshot.quoteTime, spot: 450.81 });
    // CBOE's Delta column for SPY230929P00440000 is −0.1779 (its own model and clock); ours is Black–Scholes on the
    // parity forward at IV 0.122, 15 days out.
    expect(Math.abs((trade.deltaAtEntry ?? 0) - -0.1779), `delta ${trade.deltaAtEntry} vs CBOE −0.1779`).toBeLessThan(0.01);
    expect(trade.dteAtEntry, '09-15 to 09-29').toBe(14);
    // The levels of the strangle's own expiration (/gex?expirations=2023-09-29), both short legs placed against them.
    const own = computeGex(chain, { expirations: ['2023-09-29'], formula: 'nominal' });
    const levels = { callWall: own.callWall?.strike ?? null, putWall: own.putWall?.strike ?? null, gammaFlip: own.gammaInflection, gammaZone: own.gammaZone };
    expect(trade.levelsAtEntry).toEqual({
      ...levels,
      scope: 'own',
      expirations: ['2023-09-29'],
      shortStrikeVs: placeStrike(440, levels),
      shortStrikes: [
        { expiration: '2023-09-29', strike: 440, right: 'P', place: placeStrike(440, levels) },
        { expiration: '2023-09-29', strike: 460, right: 'C', place: placeStrike(460, levels) },
      ],
    });
    // Reg T at 450.81: put 10.81 OTM, 90.162 − 10.81 = 79.352 × 100 + 105 = 8,040.20; call 9.19 OTM, 90.162 − 9.19 =
    // 80.972 × 100 + 49 = 8,146.20, the larger: + the put's 105.
    expect(trade.collateralMinor, '8,146.20 + 105 = 8,251.20').toBe(minor(8_251.2));
  });
});

describe('cases the mutation run found untested (issue 31 item 5), each with its reason', () => {
  const levels = (putWall: number | null, callWall: number | null, gammaFlip: number | null): DealerLevels => ({ putWall, callWall, gammaFlip, gammaZone: 'positive' });

  it('previousTradingDay: a Tuesday’s is the Monday, a Sunday’s the Friday, a Monday’s the Friday', () => {
    expect(previousTradingDay('2024-01-09')).toBe('2024-01-08');
    expect(previousTradingDay('2024-01-07')).toBe('2024-01-05');
    expect(previousTradingDay('2024-01-08')).toBe('2024-01-05');
  });

  it('isUsableEntry: a snapshot quoted at the very instant of the open describes it; a millisecond later it does not', () => {
    const openMs = Date.parse('2024-01-09T15:00:00.000Z');
    expect(isUsableEntry('2024-01-09T15:00:00.000Z', openMs)).toBe(true);
    expect(isUsableEntry('2024-01-09T15:00:00.001Z', openMs)).toBe(false);
  });

  it('placeStrike: a strike at a wall is inside the band, not beyond it (only strictly under the put wall or over the call wall is out)', () => {
    const spx = levels(4700, 4800, 4750);
    expect(placeStrike(4700, spx), 'at the put wall').toBe('put_wall_to_flip');
    expect(placeStrike(4699, spx)).toBe('below_put_wall');
    expect(placeStrike(4800, spx), 'at the call wall').toBe('flip_to_call_wall');
    expect(placeStrike(4801, spx)).toBe('above_call_wall');
    expect(placeStrike(4750, spx), 'at the flip: the band above it').toBe('flip_to_call_wall');
    expect(placeStrike(4749, spx)).toBe('put_wall_to_flip');
  });

  it('placeStrike: a missing wall places nothing beyond it; a missing flip leaves the band unknown', () => {
    expect(placeStrike(1, levels(null, 4800, 4750)), 'no put wall: far below is still under the flip').toBe('put_wall_to_flip');
    expect(placeStrike(9999, levels(4700, null, 4750)), 'no call wall: far above is still over the flip').toBe('flip_to_call_wall');
    expect(placeStrike(4760, levels(4700, 4800, null))).toBeNull();
  });

  it('outcomeRatios: pnl over collateral and over max profit, written out; unknown where a figure is missing or not positive', () => {
    // A put credit spread: collateral 1,000.00, max profit 157.32, closed for +77.24 (in minor units, 1/10,000).
    expect(outcomeRatios(772_400, 10_000_000, 1_573_200)).toEqual({ returnOnCollateral: 772_400 / 10_000_000, pctOfMaxProfit: 772_400 / 1_573_200 });
    expect(outcomeRatios(772_400, 10_000_000, 1_573_200).returnOnCollateral).toBeCloseTo(0.07724, 10);
    expect(outcomeRatios(-500_000, 0, -1)).toEqual({ returnOnCollateral: null, pctOfMaxProfit: null });
    expect(outcomeRatios(100, null, null)).toEqual({ returnOnCollateral: null, pctOfMaxProfit: null });
    expect(outcomeRatios(100, 0, 0), 'zero collateral or max profit: no ratio (not Infinity)').toEqual({ returnOnCollateral: null, pctOfMaxProfit: null });
    expect(outcomeRatios(null, 10_000_000, 1_573_200)).toEqual({ returnOnCollateral: null, pctOfMaxProfit: null });
  });
});

describe('entry figures, lookup and ratios: more cases the mutation run found untested (issue 31 item 5)', () => {
  const QUOTE = '2024-03-04T14:45:00Z';
  const OPEN_MS = Date.parse('2024-03-04T15:00:00Z');
  const LEVELS_ = { putWall: 90, gammaFlip: 100, callWall: 110, gammaZone: 'positive' as const };

  /** Marks with one quoted contract; records what the lookup asked. */
  function marks(quote: SnapshotQuote | null, asked: unknown[] = []): UnderlyingMarks {
    return {
      snapshotId: 1,
      quoteTime: QUOTE,
      spot: 100,
      rate: 0,
      contracts: 1,
      contract: (expiration, strike, right, root) => {
        asked.push(['contract', expiration, strike, right, root]);
        return quote;
      },
      levelsIn: (scope, expiration) => {
        asked.push(['levels', scope, expiration]);
        return { ...LEVELS_, scope, expirations: expiration === null ? [] : [expiration] };
      },
    };
  }
  const quote = (iv: number, over: Partial<SnapshotQuote> = {}): SnapshotQuote => ({ bid: 1, ask: 1.1, iv, tYears: 30 / 365, forward: 100, ...over });
  const callLeg = (strike: number) => ({ expiration: '2024-04-03', strike, right: 'C' as const });
  const deltaOf = (q: SnapshotQuote | null, leg: EntryQuery['leg'] = callLeg(100)) => entryLookupFromMarks(() => marks(q))({ underlying: 'SPY', atMs: OPEN_MS, leg })?.delta;

  it('the lookup prices a delta only from a usable IV (above 0, at most the engine\'s ceiling) with a time and a forward', () => {
    // A call at the money has a delta near one half, deep in the money near 1, far out of it near 0.
    expect(deltaOf(quote(0.2), callLeg(100)), 'at the money').toBeCloseTo(0.5, 1);
    expect(deltaOf(quote(0.2), callLeg(50)), 'deep in the money').toBeGreaterThan(0.99);
    expect(deltaOf(quote(0.2), callLeg(200)), 'far out of the money').toBeLessThan(0.01);
    expect(deltaOf(quote(0.2), { ...callLeg(100), right: 'P' }), 'a put\'s is negative').toBeCloseTo(-0.5, 1);
    expect(deltaOf(quote(MAX_USABLE_IV)), 'at the ceiling: still priced').not.toBeNull();
    expect(deltaOf(quote(MAX_USABLE_IV + 0.01)), 'above it: none').toBeNull();
    expect(deltaOf(quote(0)), 'no IV: none').toBeNull();
    expect(deltaOf(quote(0.2, { tYears: null })), 'no time to expiry: none').toBeNull();
    expect(deltaOf(quote(0.2, { forward: null })), 'no forward: none').toBeNull();
    expect(deltaOf(null), 'no quote: none').toBeNull();
    expect(deltaOf(quote(0.2), null), 'no leg (shares): none').toBeNull();
    expect(entryLookupFromMarks(() => null)({ underlying: 'SPY', atMs: OPEN_MS, leg: null }), 'no snapshot: no facts').toBeNull();
  });

  it('the lookup asks the contract of the leg\'s root, and the levels of the scope asked (own when not said) of the leg\'s expiration', () => {
    const asked: unknown[] = [];
    const lookup = entryLookupFromMarks(() => marks(quote(0.2), asked));
    const facts = lookup({ underlying: 'SPX', atMs: OPEN_MS, leg: { ...callLeg(100), root: 'SPXW' } });
    expect(asked, 'the SPXW contract; own levels of its expiration').toEqual([['contract', '2024-04-03', 100, 'C', 'SPXW'], ['levels', 'own', '2024-04-03']]);
    expect([facts?.quoteTime, facts?.spot], 'the snapshot\'s quote time and spot').toEqual([QUOTE, 100]);
    asked.length = 0;
    lookup({ underlying: 'SPX', atMs: OPEN_MS, leg: callLeg(100), scope: 'nearest' });
    expect(asked, 'no root: null; the scope asked').toEqual([['contract', '2024-04-03', 100, 'C', null], ['levels', 'nearest', '2024-04-03']]);
    asked.length = 0;
    lookup({ underlying: 'SPX', atMs: OPEN_MS, leg: null });
    expect(asked, 'shares: no contract, levels of no expiration').toEqual([['levels', 'own', null]]);
  });

  const leg = (side: number, strike: number, right: 'C' | 'P', price: number, expiration = '2024-04-19', quantity = 1): StructureLeg => ({
    symbol: `SPY   240419${right}${String(strike * 1000).padStart(8, '0')}`,
    isOption: true,
    expiration,
    strike,
    right,
    multiplier: 100,
    side,
    quantity,
    grossMinor: price * 1_000_000,
    costsMinor: 0,
  });
  const factsOf = (levels: EntryFacts['levels'], quoteTime = QUOTE) => (query: EntryQuery): EntryFacts => ({ quoteTime, spot: 100, delta: query.leg === null ? null : query.leg.strike / 1000, levels });

  it('entryFigures: without a lookup or a usable snapshot nothing; else the snapshot, the delta and each short strike placed, by strike, puts first', () => {
    const none = { snapshot: null, deltaAtEntry: null, levelsAtEntry: null };
    expect(entryFigures(undefined, 'SPY', OPEN_MS, callLeg(100)), 'no lookup').toEqual(none);
    expect(entryFigures(() => null, 'SPY', OPEN_MS, callLeg(100)), 'no snapshot').toEqual(none);
    expect(entryFigures(factsOf(LEVELS_, '2024-03-04T15:00:00.001Z'), 'SPY', OPEN_MS, callLeg(100)), 'quoted after the open').toEqual(none);
    // An iron condor with a short put and a short call at the same strike (a straddle's body, the call listed first), at 2024-04-19.
    const structure = [leg(1, 85, 'P', 1), leg(-1, 112, 'C', 2), leg(-1, 95, 'C', 3), leg(-1, 95, 'P', 3), leg(1, 120, 'C', 0.5)];
    const figures = entryFigures(factsOf(LEVELS_), 'SPY', OPEN_MS, null, structure, 'nearest');
    expect(figures.snapshot, 'the snapshot\'s time and spot').toEqual({ quoteTime: QUOTE, spot: 100 });
    // The main leg (strategies.ts mainLeg): the short legs, equal quantity and expiration, the richest per contract: 95,
    // and between the 95 put and the 95 call at the same price, the put.
    expect(figures.deltaAtEntry, 'the delta of the main leg, the 95 put').toBe(0.095);
    expect(figures.levelsAtEntry?.shortStrikeVs, '95 between the put wall 90 and the flip 100').toBe('put_wall_to_flip');
    expect(figures.levelsAtEntry?.shortStrikes.map((s) => [s.strike, s.right, s.place]), 'the short legs only, by strike, the put before the call').toEqual([
      [95, 'P', 'put_wall_to_flip'],
      [95, 'C', 'put_wall_to_flip'],
      [112, 'C', 'above_call_wall'],
    ]);
    expect([figures.levelsAtEntry?.scope, figures.levelsAtEntry?.expirations], 'the scope asked; a lookup that does not say its expirations: none for nearest').toEqual(['nearest', []]);
    const own = entryFigures(factsOf(LEVELS_), 'SPY', OPEN_MS, null, structure, 'own');
    expect([own.levelsAtEntry?.scope, own.levelsAtEntry?.expirations], 'own: the main leg\'s expiration').toEqual(['own', ['2024-04-19']]);
    const said = entryFigures(factsOf({ ...LEVELS_, scope: 'book', expirations: ['2024-04-19', '2024-05-17'] }), 'SPY', OPEN_MS, null, structure, 'own');
    expect([said.levelsAtEntry?.scope, said.levelsAtEntry?.expirations], 'what the lookup says of its levels wins').toEqual(['book', ['2024-04-19', '2024-05-17']]);
    const shares = entryFigures(factsOf(LEVELS_), 'SPY', OPEN_MS, null, [], 'own');
    expect([shares.deltaAtEntry, shares.levelsAtEntry?.shortStrikeVs, shares.levelsAtEntry?.expirations], 'no option leg: no delta, no place, no expiration').toEqual([null, null, []]);
    expect(entryFigures(factsOf(null), 'SPY', OPEN_MS, callLeg(100)).levelsAtEntry, 'a snapshot without levels').toBeNull();
    expect(entryFigures(factsOf(LEVELS_), 'SPY', OPEN_MS, callLeg(100)).deltaAtEntry, 'no structure: the leg given').toBe(0.1);
  });

  it('entryLegOf: the main leg with the root of its OCC symbol; none for a structure without an option', () => {
    expect(entryLegOf([leg(-1, 95, 'P', 3)]), 'the SPY root').toEqual({ expiration: '2024-04-19', strike: 95, right: 'P', root: 'SPY' });
    expect(entryLegOf([{ ...leg(-1, 95, 'P', 3), symbol: 'not an OCC symbol' }])?.root, 'no root to read').toBeNull();
    expect(entryLegOf([{ ...leg(1, 0, 'C', 0), isOption: false, expiration: null, strike: null, right: null, symbol: 'SPY' }]), 'shares').toBeNull();
  });

  it('levelsAtEntryIn: the levels of another scope from the very snapshot of the entry; none without one', () => {
    const seen: Array<[number, LevelsScope | undefined]> = [];
    const lookup = (query: EntryQuery): EntryFacts => {
      seen.push([query.atMs, query.scope]);
      return factsOf({ ...LEVELS_, scope: query.scope ?? 'own', expirations: [] })(query);
    };
    const trade = { underlying: 'SPY', entrySnapshot: { quoteTime: QUOTE }, structure: [leg(-1, 112, 'C', 2)] };
    expect(levelsAtEntryIn(lookup, trade, 'book')?.shortStrikeVs, 'the 112 call above the call wall').toBe('above_call_wall');
    expect(seen, 'asked at the snapshot\'s own quote time, in the scope asked').toEqual([[Date.parse(QUOTE), 'book']]);
    expect(levelsAtEntryIn(lookup, { ...trade, entrySnapshot: null }, 'book'), 'no entry snapshot').toBeNull();
    expect(levelsAtEntryIn(lookup, { ...trade, entrySnapshot: { quoteTime: 'not a time' } }, 'book'), 'an unreadable quote time').toBeNull();
    expect(levelsAtEntryIn(() => null, trade, 'book'), 'the snapshot is gone').toBeNull();
    expect(seen, 'neither of the first two asked the lookup').toHaveLength(1);
  });

  it('dteAtEntry: calendar days from the open to the nearest expiration, whatever their order; none without one', () => {
    expect(dteAtEntry('2024-03-04', ['2024-04-19', '2024-03-15', '2024-03-22']), '03-04 → 03-15').toBe(11);
    expect(dteAtEntry('2024-03-15', ['2024-03-15']), 'a 0DTE').toBe(0);
    expect(dteAtEntry('2024-03-04', []), 'shares').toBeNull();
  });
});

