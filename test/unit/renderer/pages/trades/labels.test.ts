/**
 * The trades page's words (src-renderer/pages/trades/labels.ts): the entry sentence of a trade (docs/journal.md §Trades
 * and strategies: one short leg by its place, several each by name), and a timeline leg closed by an assignment says so.
 */
import { describe, expect, it } from 'vitest';
import type { TradeJson } from '../../../../../src-shared/api/schemas';
import { entryPlaceText, roleWord } from '../../../../../src-renderer/pages/trades/labels';

type Levels = NonNullable<TradeJson['levelsAtEntry']>;
const LEVELS: Omit<Levels, 'shortStrikeVs' | 'shortStrikes'> = { gammaZone: 'negative', putWall: 445, callWall: 459, gammaFlip: 454.15, scope: 'own', expirations: ['2023-10-06'] };
const trade = (levels: Levels | null, side: 'short' | 'long' = 'short'): TradeJson =>
  ({ levelsAtEntry: levels, mainLeg: { symbol: 'SPY231006P00440000', expiration: '2023-10-06', strike: 440, right: 'P', side, contracts: 2 } }) as unknown as TradeJson;

describe('entryPlaceText', () => {
  it('a strangle names both short legs and their places', () => {
    const levels: Levels = {
      ...LEVELS,
      shortStrikeVs: 'below_put_wall',
      shortStrikes: [
        { expiration: '2023-10-06', strike: 440, right: 'P', place: 'below_put_wall' },
        { expiration: '2023-10-06', strike: 460, right: 'C', place: 'above_call_wall' },
      ],
    };
    expect(entryPlaceText(trade(levels))).toBe('Sold the 440 put below the put wall and the 460 call above the call wall');
  });

  it('an iron condor’s two short legs; one short leg, or a long one, by its place alone; none without levels', () => {
    const condor: Levels = {
      ...LEVELS,
      shortStrikeVs: 'put_wall_to_flip',
      shortStrikes: [
        { expiration: '2023-10-06', strike: 4450, right: 'P', place: 'put_wall_to_flip' },
        { expiration: '2023-10-06', strike: 4600, right: 'C', place: null },
      ],
    };
    expect(entryPlaceText(trade(condor))).toBe('Sold the 4,450 put between the put wall and the flip and the 4,600 call (its place unknown: no flip)');
    expect(entryPlaceText(trade({ ...LEVELS, shortStrikeVs: 'below_put_wall', shortStrikes: [{ expiration: '2023-10-06', strike: 440, right: 'P', place: 'below_put_wall' }] }))).toBe('Sold below the put wall');
    expect(entryPlaceText(trade({ ...LEVELS, shortStrikeVs: 'above_call_wall', shortStrikes: [] }, 'long'))).toBe('Bought above the call wall');
    expect(entryPlaceText(trade(null))).toBeNull();
  });
});

describe('roleWord', () => {
  it('an ASSIGNMENT row is "Assigned", never "Closed"; exercise and expiration likewise; fills keep Entry, Opened, Closed', () => {
    expect(roleWord('close', 'ASSIGNMENT')).toBe('Assigned');
    expect(roleWord('close', 'EXERCISE')).toBe('Exercised');
    expect(roleWord('close', 'EXPIRATION')).toBe('Expired');
    expect(roleWord('close', 'BUY_TO_CLOSE')).toBe('Closed');
    expect(roleWord('entry', 'SELL_TO_OPEN')).toBe('Entry');
    expect(roleWord('open', 'SELL_TO_OPEN')).toBe('Opened');
  });
});
