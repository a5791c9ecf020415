/** A hand-written journal of AMD trades around the real AMD chain of 2023-08-18's close (integration/main/server/routes/trades.test.ts, e2e/trades.test.ts). */
/**
 * Account "Trades" (generic CSV, order ids keep the structures apart):
 * - O1 2023-08-21 sells 2 Sep 15 95 puts at 1.38 (276 − 1.30 − 0.02 = 274.68); O2 buys them back 2023-08-28 at 0.40
 *   (−80 − 1.30 − 0.02 = −81.32): pnl 193.36, a win.
 * - O3 2023-08-21 sells 1 Sep 15 115 call at 1.96 (196 − 0.66 = 195.34); O4 buys it back 2023-08-24 at 3.00
 *   (−300 − 0.66 = −300.66): pnl −105.32, a loss.
 * - O5 2023-08-10 sells 1 Aug 25 100 put at 1.50 (150 − 0.66 = 149.34), O6 buys it back 2023-08-15 at 0.20
 *   (−20 − 0.66 = −20.66): pnl 128.68. Ten days before the snapshot: no entry figures (zone unknown).
 * - O7 2023-08-21 sells 1 Sep 15 100 put at 2.70 (270 − 0.66 = 269.34), still open.
 */
const HEADER = 'date,account,type,symbol,quantity,price,commission,fees,amount,currency,orderId,description,expiration,strike,right,multiplier,id';
export const AMD_TRADES = [
  HEADER,
  '2023-08-10T14:00:00Z,Trades,SELL_TO_OPEN,AMD,1,1.50,0.65,0.01,149.34,USD,O5,Aug 100 put,2023-08-25,100,P,100,r5',
  '2023-08-15T15:00:00Z,Trades,BUY_TO_CLOSE,AMD,1,0.20,0.65,0.01,-20.66,USD,O6,close,2023-08-25,100,P,100,r6',
  '2023-08-21T14:00:00Z,Trades,SELL_TO_OPEN,AMD,2,1.38,1.30,0.02,274.68,USD,O1,Sep 95 puts,2023-09-15,95,P,100,r1',
  '2023-08-21T14:10:00Z,Trades,SELL_TO_OPEN,AMD,1,1.96,0.65,0.01,195.34,USD,O3,Sep 115 call,2023-09-15,115,C,100,r3',
  '2023-08-21T14:20:00Z,Trades,SELL_TO_OPEN,AMD,1,2.70,0.65,0.01,269.34,USD,O7,Sep 100 put,2023-09-15,100,P,100,r7',
  '2023-08-24T15:00:00Z,Trades,BUY_TO_CLOSE,AMD,1,3.00,0.65,0.01,-300.66,USD,O4,close,2023-09-15,115,C,100,r4',
  '2023-08-28T15:00:00Z,Trades,BUY_TO_CLOSE,AMD,2,0.40,1.30,0.02,-81.32,USD,O2,close,2023-09-15,95,P,100,r2',
].join('\n');
