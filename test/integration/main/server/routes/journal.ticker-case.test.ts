/**
 * A ticker is normalised once at each edge (src-shared/ids.ts, docs/conventions.md §Names and ids): a file that writes
 * `pfe` and a query that asks `symbol=pfe` reach the same stored and answered `PFE` as the upper-case spellings do,
 * whichever importer read the file (the generic reader upper-cased its symbols itself; Schwab's kept a share's as
 * written, so `pfe` shares and a `PFE` put were two underlyings).
 */
import { describe, expect, it } from 'vitest';
import type { PositionsResponseT, TradesResponseT, TransactionsResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';

// A generic CSV written by hand in lower case: a put sold on pfe and 100 shares of pfe bought.
const LOWER_CASE_FILE = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id',
  '2024-01-03T14:35:12Z,IRA,SELL_TO_OPEN,pfe,1,0.55,0.65,0.01,54.34,USD,A100,Sell 1 pfe put,2024-01-19,28,P,100,t-1',
  '2024-01-04T15:00:00Z,IRA,BUY,pfe,100,28.10,0,0,-2810.00,USD,A101,Buy 100 pfe,,,,,t-2',
].join('\n');

// The same two rows as a Schwab transactions export would hold them, its symbols written in lower case.
const LOWER_CASE_SCHWAB = [
  '"Transactions  for account XXXX-1234 as of 01/08/2024 08:12 PM ET"',
  '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
  '"01/04/2024","Buy","pfe","PFIZER INC","100","$28.10","","-$2,810.00"',
  '"01/03/2024","Sell to Open","pfe 01/19/2024 28.00 P","PUT PFIZER INC $28 EXP 01/19/24","1","$0.55","$0.66","$54.34"',
].join('\n');

type Answers = { transactions: string[][]; trades: string[]; positions: string[][] };

/** What the three journal reads answer for one spelling of the ticker: underlyings and symbols only. */
async function answersFor(t: ReturnType<typeof useTestApp>, asked: string): Promise<Answers> {
  const transactions = (await t.get<TransactionsResponseT>(`/v1/journal/transactions?symbol=${asked}`)).body.transactions;
  const trades = (await t.get<TradesResponseT>(`/v1/journal/trades?symbol=${asked}`)).body.trades;
  const positions = (await t.get<PositionsResponseT>(`/v1/journal/positions?symbol=${asked}`)).body.positions;
  return {
    transactions: transactions.map((row) => [row.underlying, row.symbol]).sort(),
    trades: trades.map((trade) => trade.underlying).sort(),
    positions: positions.map((p) => [p.underlying, p.symbol]).sort(),
  };
}

for (const [broker, file] of [
  ['generic', LOWER_CASE_FILE],
  ['schwab', LOWER_CASE_SCHWAB],
] as const) {
  describe(`a lower-case ticker in a ${broker} file and in a query`, () => {
    const t = useTestApp({ clock: manualClock('2024-01-08T15:00:00Z') });

    it('is stored as PFE and answered alike for symbol=pfe, PFE and Pfe', async () => {
      const imported = await t.request({ method: 'POST', url: `/v1/imports?broker=${broker}`, headers: { 'content-type': 'text/csv' }, payload: file });
      expect(imported.statusCode, imported.body).toBe(201);
      const answers = [await answersFor(t, 'pfe'), await answersFor(t, 'PFE'), await answersFor(t, 'Pfe')];
      // Stored upper case, once, as the file was read: the option by its OCC symbol, the shares by the ticker; the
      // put and the shares one underlying, so one book (one position each) whichever spelling is asked.
      const positions = [
        ['PFE', 'PFE'],
        ['PFE', 'PFE240119P00028000'],
      ];
      expect(answers[0]?.transactions).toEqual(positions);
      expect(answers[0]?.positions).toEqual(positions);
      expect(answers[0]?.trades.every((underlying) => underlying === 'PFE')).toBe(true);
      expect(answers[0]?.trades.length).toBeGreaterThan(0);
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      // Another ticker is still another ticker.
      expect((await t.get<TransactionsResponseT>('/v1/journal/transactions?symbol=pf')).body.transactions).toEqual([]);
    });
  });
}
