/**
 * The brands of names and ids (src-shared/ids.ts): a plain string is not a Ticker, a Ticker is not an AccountId, a
 * number is not a SnapshotId (the `@ts-expect-error` lines fail typecheck the day a brand stops being one); a ticker
 * is trimmed and upper-cased once, where it is made.
 */
import { describe, expect, it } from 'vitest';
import { asAccountId, asSnapshotId, asTicker, asTradeId, tickerList, type AccountId, type SnapshotId, type Ticker, type TradeId } from '../../../src-shared/ids';

function tickerOnly(ticker: Ticker): string {
  return ticker;
}
function accountOnly(account: AccountId): string {
  return account;
}
function tradeOnly(trade: TradeId): string {
  return trade;
}
function snapshotOnly(snapshot: SnapshotId): number {
  return snapshot;
}

describe('branded names and ids', () => {
  it('a ticker is made upper case and trimmed, a list of them each', () => {
    expect(asTicker(' spx ')).toBe('SPX');
    expect(asTicker('brk.b')).toBe('BRK.B');
    expect(tickerList('spx,SpY,QQQ')).toEqual(['SPX', 'SPY', 'QQQ']);
    // Made once: a Ticker made again is the same text.
    expect(asTicker(asTicker('spx'))).toBe('SPX');
  });

  it('a plain value is none of the brands, nor one brand another (types)', () => {
    // @ts-expect-error a plain string is not a Ticker: it has not been upper-cased at the edge
    tickerOnly('spx');
    // @ts-expect-error a Ticker is not an account id
    accountOnly(asTicker('SPX'));
    // @ts-expect-error an account id is not a trade id
    tradeOnly(asAccountId('acc_1'));
    // @ts-expect-error a plain number is not a snapshot id
    snapshotOnly(7);
    expect([tickerOnly(asTicker('spx')), accountOnly(asAccountId('acc_1')), tradeOnly(asTradeId('trd_1')), snapshotOnly(asSnapshotId(7))]).toEqual(['SPX', 'acc_1', 'trd_1', 7]);
  });
});
