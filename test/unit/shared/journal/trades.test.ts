/**
 * What a trade's legs keep for its timeline (docs/journal.md §Trades and strategies, GET /journal/trades/{id}): the
 * cash the walk booked on the trade's units and the structure each belongs to. Over every real broker file
 * (../shared/fixtures/brokers, skipped when absent) a closed trade's cash adds up to its P&L to the minor unit, the
 * running realized P&L ends at it, and a row's cash split between trades adds up to what the row was booked at.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTrades, tradeTimeline } from '../../../../src-shared/journal/trades';
import { BROKER_FIXTURES_SHARED } from '../../../paths';
import { loadRealBrokerFile, tx } from '../../../journal-helpers';

const load = loadRealBrokerFile;

describe('the timeline figures of the trades of every real file', () => {
  const files = readdirSync(BROKER_FIXTURES_SHARED).filter((file) => file.endsWith('.csv') && !file.includes('EXPECTED'));
  const books = files.map((file) => {
    const rows = load(file);
    return { file, rows, book: buildTrades(rows) };
  });

  it('reads the files', () => {
    expect(books.length).toBeGreaterThan(10);
    expect(books.reduce((n, { book }) => n + book.trades.filter((t) => t.status === 'closed' && !t.openedBeforeHistory).length, 0)).toBeGreaterThan(500);
  });

  it('a closed trade’s cash adds up to its pnl to the minor unit, and its running realized P&L ends at it', () => {
    const failures: string[] = [];
    for (const { file, rows, book } of books) {
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const trade of book.trades) {
        if (trade.status !== 'closed' || trade.pnlMinor === null) continue;
        const cash = trade.legs.reduce((sum, leg) => sum + leg.cashMinor, 0);
        const running = tradeTimeline(trade, byId).at(-1)?.runningRealizedMinor;
        if (cash !== trade.pnlMinor || running !== trade.pnlMinor) failures.push(`${file} ${trade.id}: pnl ${trade.pnlMinor}, cash ${cash}, running ${String(running)}`);
      }
    }
    expect(failures, failures.slice(0, 5).join('\n')).toEqual([]);
  });

  it('a fill wholly in trades: its cash over the trades is the row’s own cash and costs when the broker’s amount reconciles', () => {
    // The ledger books a fill at its cash when the cash agrees with price × quantity (lots.ts tradeValueMinor): then
    // the legs of the row, over every trade, add up to the row's amount (net of costs) exactly.
    let checked = 0;
    const failures: string[] = [];
    for (const { file, rows, book } of books) {
      const cashByTx = new Map<string, number>();
      const unitsByTx = new Map<string, number>();
      for (const trade of book.trades) {
        for (const leg of trade.legs) {
          cashByTx.set(leg.txId, (cashByTx.get(leg.txId) ?? 0) + leg.cashMinor);
          unitsByTx.set(leg.txId, (unitsByTx.get(leg.txId) ?? 0) + leg.quantity);
        }
      }
      for (const row of rows) {
        const cash = cashByTx.get(row.id);
        if (cash === undefined || !row.isOption || !['BUY_TO_OPEN', 'SELL_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_CLOSE'].includes(row.type)) continue;
        if (Math.abs((unitsByTx.get(row.id) ?? 0) - Math.abs(row.quantity)) > 1e-9) continue;
        const value = Math.round(row.priceMinor * Math.abs(row.quantity) * row.multiplier);
        const costs = Math.abs(row.commissionMinor) + Math.abs(row.feesMinor);
        const booked = row.type.startsWith('SELL') ? row.amountMinor + costs : -row.amountMinor - costs;
        if (booked <= 0 || Math.abs(booked - value) > Math.ceil(0.5 * Math.abs(row.quantity) * row.multiplier) + 100) continue;
        checked += 1;
        if (cash !== row.amountMinor) failures.push(`${file} ${row.id}: amount ${row.amountMinor}, legs ${cash}`);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(failures, failures.slice(0, 5).join('\n')).toEqual([]);
  });

  it('legs of a trade without later structures are all of its first; a later option opening is of a later one', () => {
    for (const { book } of books) {
      for (const trade of book.trades) {
        const rolls = trade.legs.map((leg) => leg.roll);
        if (trade.legs.every((leg) => leg.role !== 'open')) expect(new Set(rolls), trade.id).toEqual(new Set([0]));
        // Shares an assignment delivered are of the structure whose option was assigned (the first, often).
        for (const leg of trade.legs) if (leg.role === 'open' && leg.isOption) expect(leg.roll, trade.id).toBeGreaterThan(0);
      }
    }
  });
});

describe('a short sale covered in a trade: the walk reads the fill types as the ledger does (order.ts BUYS, CLOSING)', () => {
  it('SELL_SHORT with a put in one order, BUY_TO_COVER and the put bought back: one closed trade, its cash its pnl', () => {
    // Order A: short 100 ABC at 30 (3,000 − 1 = 2,999) and sell 1 ABC Jun 28 put at 1.50 (150 − 0.65 = 149.35).
    // Order B: cover the 100 at 28 (−2,800 − 1 = −2,801), buy the put back at 0.50 (−50 − 0.65 = −50.65).
    // pnl: shares 2,999 − 2,801 = 198, put 149.35 − 50.65 = 98.70: 296.70.
    const put = { expiration: '2024-06-28', strike: 25, right: 'P' as const };
    const rows = [
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 100, price: 30, commission: 1, orderId: 'A', at: '2024-05-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: put, quantity: 1, price: 1.5, commission: 0.65, orderId: 'A', at: '2024-05-01T10:00' }),
      tx({ type: 'BUY_TO_COVER', ticker: 'ABC', quantity: 100, price: 28, commission: 1, orderId: 'B', at: '2024-05-10T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'ABC', option: put, quantity: 1, price: 0.5, commission: 0.65, orderId: 'B', at: '2024-05-10T10:00' }),
    ];
    const { trades } = buildTrades(rows);
    expect(trades.map((trade) => [trade.status, trade.pnlMinor, trade.legs.length])).toEqual([['closed', 2_967_000, 4]]);
    expect(trades[0]?.legs.map((leg) => leg.cashMinor)).toEqual([29_990_000, 1_493_500, -28_010_000, -506_500]);
  });
});
