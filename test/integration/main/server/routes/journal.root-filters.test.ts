/**
 * A filter by an option root finds its chain's underlying (issue 27 item 5; docs/importers.md §Underlying roots): rows
 * are stored under SPX whether they were sold as SPXW or SPX, so `symbol=SPXW` on transactions, trades and positions
 * answers what `symbol=SPX` does, and never an empty list.
 */
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT, TradesResponseT, TransactionsResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';

const sell = (symbol: string, expiration: string, strike: number, orderId: string) => ({ account: 'Margin', date: '2024-01-05T20:00:00Z', type: 'SELL_TO_OPEN', symbol, expiration, strike, right: 'P', quantity: 1, price: 2, orderId });

describe('symbol= by an option root', () => {
  const t = useTestApp({ clock: manualClock('2024-01-08T15:00:00Z') });

  it('SPXW and spxw answer as SPX on transactions, trades and positions', async () => {
    const added = await t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions: [sell('SPXW', '2024-01-12', 4600, 'A'), sell('SPX', '2024-01-19', 4500, 'B')] }) });
    expect(added.statusCode, added.body).toBe(201);
    for (const asked of ['SPXW', 'spxw', 'SPX']) {
      const transactions = (await t.get<TransactionsResponseT>(`/v1/journal/transactions?symbol=${asked}`)).body.transactions;
      expect(transactions.map((row) => row.strike).sort(), `transactions?symbol=${asked}: both puts, stored under SPX`).toEqual([4500, 4600]);
      expect(transactions.every((row) => row.underlying === 'SPX')).toBe(true);
      const trades = (await t.get<TradesResponseT>(`/v1/journal/trades?symbol=${asked}`)).body.trades;
      expect(trades.map((trade) => trade.mainLeg?.strike).sort(), `trades?symbol=${asked}`).toEqual([4500, 4600]);
      const positions = (await t.get<PositionsResponseT>(`/v1/journal/positions?symbol=${asked}`)).body.positions;
      expect(positions.map((p) => p.strike).sort(), `positions?symbol=${asked}`).toEqual([4500, 4600]);
    }
    // Another ticker is still another ticker.
    expect((await t.get<TransactionsResponseT>('/v1/journal/transactions?symbol=SPY')).body.transactions).toEqual([]);
  });
});
