/**
 * Option fills read from a thinkorswim Cash Balance description (older TD Ameritrade statements): the legs of each
 * strategy as thinkorswim writes it — the first strike (or expiration) takes the order's side — written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { describedOrder } from '../../../../../src-main/importers/thinkorswim/described';

/** `SIDE qty root expiration strike right` of each leg. */
function legs(description: string): string[] | null {
  const order = describedOrder(description);
  return order === null ? null : order.legs.map((leg) => `${leg.side} ${leg.quantity} ${leg.root} ${leg.expiration} ${leg.strike} ${leg.right}`);
}

describe('describedOrder: the legs a thinkorswim description names', () => {
  it.each([
    ['SOLD -1 SPY 100 16 JAN 15 205 PUT @.95', ['SELL 1 SPY 2015-01-16 205 P']],
    ['BOT +1 SPY 100 (Weeklys) 9 JAN 15 200 CALL @1.05', ['BUY 1 SPY 2015-01-09 200 C']],
    ['tIP SOLD -2 VERTICAL PFE 100 16 FEB 24 28/27 PUT @.38', ['SELL 2 PFE 2024-02-16 28 P', 'BUY 2 PFE 2024-02-16 27 P']],
    ['SOLD -1 VERTICAL SPY 100 16 JAN 15 205/210 PUT @.95', ['SELL 1 SPY 2015-01-16 205 P', 'BUY 1 SPY 2015-01-16 210 P']],
    ['SOLD -1 STRANGLE SPY 100 30 JAN 15 212/195 CALL/PUT @1.20', ['SELL 1 SPY 2015-01-30 212 C', 'SELL 1 SPY 2015-01-30 195 P']],
    ['BOT +3 STRADDLE IWM 100 (Quarterlys) 31 MAR 15 120 CALL/PUT @6.10', ['BUY 3 IWM 2015-03-31 120 C', 'BUY 3 IWM 2015-03-31 120 P']],
    ['BOT +1 BUTTERFLY SPY 100 16 JAN 15 200/205/210 CALL @.50', ['BUY 1 SPY 2015-01-16 200 C', 'SELL 2 SPY 2015-01-16 205 C', 'BUY 1 SPY 2015-01-16 210 C']],
    [
      'SOLD -2 IRON CONDOR SPY 100 30 JAN 15 215/220/190/185 CALL/PUT @1.10',
      ['SELL 2 SPY 2015-01-30 215 C', 'BUY 2 SPY 2015-01-30 220 C', 'SELL 2 SPY 2015-01-30 190 P', 'BUY 2 SPY 2015-01-30 185 P'],
    ],
    ['BOT +1 CALENDAR SPY 100 20 FEB 15/16 JAN 15 200 CALL @1.40', ['BUY 1 SPY 2015-02-20 200 C', 'SELL 1 SPY 2015-01-16 200 C']],
    ['SOLD -1 DIAGONAL SPY 100 (Weeklys) 23 JAN 15/20 FEB 15 205/210 PUT @.60 CBOE', ['SELL 1 SPY 2015-01-23 205 P', 'BUY 1 SPY 2015-02-20 210 P']],
    ['KEY: F2 BOT +10 SPX 100 (Weeklys) 9 JAN 15 2050.5 PUT @3.20', ['BUY 10 SPX 2015-01-09 2050.5 P']],
  ])('%s', (description, expected) => {
    expect(legs(description)).toEqual(expected);
  });

  it('puts the net price on the first leg alone (the statement gives no leg prices)', () => {
    expect(describedOrder('SOLD -2 IRON CONDOR SPY 100 30 JAN 15 215/220/190/185 CALL/PUT @1.10')?.legs.map((leg) => leg.priceMinor)).toEqual([11_000, 0, 0, 0]);
  });

  it.each([
    ['a stock fill', 'SOLD -500 XYZ @20.00'],
    ['an assignment delivery', 'BOT +200 PFE UPON OPTION ASSIGNMENT'],
    ['a ratio spread', 'SOLD -1/2 BACKRATIO SPY 100 30 JAN 15 212/215 CALL @1.20'],
    ['a covered write', 'BOT +100 COVERED SPY 100 16 JAN 15 210 CALL/SPY @199.00'],
    ['a vertical roll', 'SOLD -1 VERT ROLL SPY 100 23 JAN 15/16 JAN 15 205/200/205/200 PUT @.30'],
    ['a futures option', 'tIP SOLD -2 /NQM22:XCME 1/20 APR 22 (Wednesday) (Wk5) /Q4CJ22:XCME 13010 PUT @113.75'],
    ['a vertical with one strike', 'SOLD -1 VERTICAL SPY 100 16 JAN 15 205 PUT @.95'],
    ['no price', 'SOLD -1 SPY 100 16 JAN 15 205 PUT'],
  ])('reads no legs from %s', (_what, description) => {
    expect(describedOrder(description)).toBeNull();
  });
});
