/**
 * The hostile inputs of docs/importers.md §Linear time (issue 16, finding 1), one per rewritten pattern: each is the
 * parse of a file whose hostile part (a run of tabs, digits, spaces, parentheses...) has the size given. Shared by the
 * structural test (test/unit/main/importers/linear-time.test.ts: each parsed whole at a size a square could not finish)
 * and the bench's growth exponents (bench/linear-time.ts: times at n, 10n and 100n).
 */
import { parseChainFile } from '../src-main/chains/index';
import type { ChainFormat } from '../src-main/chains/common';
import { parseWithFormat, type SavedFormat } from '../src-main/importers/custom/index';
import { parseImport } from '../src-main/importers/index';
import { parseRobinhood } from '../src-main/importers/robinhood/index';
import type { BrokerId } from '../src-shared/api/constants';

/** One hostile input: its name, its base size n for the growth, and the parse of a file whose hostile part has a size. */
export interface LinearCase {
  name: string;
  n: number;
  /**
   * The size past which the input is not read (detection reads the first 4,000 characters), if any: the structural test
   * parses at most that much.
   */
  readsAtMost?: number;
  run: (size: number) => () => unknown;
}

const OPTIONS = { accountName: 'Mine', asOf: new Date('2026-01-01T00:00:00Z') };

const CBOE_HEADER =
  'Expiration Date,Calls,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest,Strike,Puts,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest';
const CBOE_ROW = 'Fri Jan 19 2024,SPXW240119C04650000,60.1,0.5,59.8,60.4,12,0.1375,0.62,0.0041,1520,4650.00,SPXW240119P04650000,12.3,-0.4,12.1,12.5,40,0.1402,-0.38,0.0041,812';
const cboe = (lines: { name?: string; date?: string; header?: string; row?: string }) =>
  [lines.name ?? 'S&P 500 INDEX,Last: 4697.2402,Change:  8.5602', lines.date ?? '"Date: January 7, 2024 at 10:52 AM EST",Bid: 4645.23', lines.header ?? CBOE_HEADER, lines.row ?? CBOE_ROW].join('\n');
const genericChain = (meta: string, row: string) => `${meta}\n# quoteTime: 2024-01-05T16:00\nexpiration,strike,right,openInterest,iv\n${row}\n`;
const GENERIC_HEADER = 'date,type,symbol,quantity,price,amount';

const chain = (text: string, format: ChainFormat = 'auto') => () => parseChainFile(text, { format });
const broker = (text: string, id: BrokerId | 'auto' = 'auto') => () => parseImport(text, id, OPTIONS);

const TIME_FORMAT: SavedFormat = {
  id: 'lt',
  name: 'Times',
  header: ['When', 'Time', 'Kind', 'Ticker', 'Qty', 'Cash'],
  mapping: {
    date: { column: 'When', layout: 'YYYY-MM-DD', time: 'Time', zone: 'utc' },
    type: { column: 'Kind', words: [] },
    symbol: 'Ticker',
    quantity: 'Qty',
    amount: { column: 'Cash', sign: 'as-written' },
  },
};

const TOS_TRADES = (exp: string) =>
  ['Account Trade History', ',Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Order Type', `,3/14/24 11:20:09,SINGLE,BUY,+2,TO CLOSE,PFE,${exp},29,CALL,.05,.05,LMT`].join('\n');
const TOS_CASH = (description: string, type = 'TRD') =>
  ['Cash Balance', 'DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE', `1/3/24,09:35:12,${type},="5102334871",${description},-0.01,-0.65,55.00,"10,054.34"`].join('\n');

export const LINEAR_CASES: LinearCase[] = [
  // The three findings.
  { name: 'CBOE quotedata: a Date: line ending in tabs (the date pattern)', n: 10, run: (k) => chain(cboe({ date: `Date: January 7, 2024 at 10:52 AM EST${'\t'.repeat(k)}x` })) },
  { name: 'broker import: a number cell of digits and a letter (cells.ts)', n: 100, run: (k) => broker(`${GENERIC_HEADER}\n2024-01-02,BUY,PFE,${'1'.repeat(k)}x,1,-1\n`, 'generic') },
  { name: 'broker import: a money cell of digits and a letter (cells.ts, money)', n: 100, run: (k) => broker(`${GENERIC_HEADER}\n2024-01-02,BUY,PFE,1,1,-${'1'.repeat(k)}x\n`, 'generic') },
  { name: 'chain file: a number cell of digits and a letter (chains/common.ts)', n: 100, run: (k) => chain(genericChain('# spot: 100', `2024-01-19,${'1'.repeat(k)}x,C,1,0.2`)) },
  { name: 'CBOE quotedata: a Bid cell of digits and a letter', n: 100, run: (k) => chain(cboe({ row: CBOE_ROW.replace(',59.8,', `,${'5'.repeat(k)}x,`) })) },
  {
    name: 'custom format: a time followed by spaces and a letter',
    n: 150,
    run: (k) => () => parseWithFormat(TIME_FORMAT, `When,Time,Kind,Ticker,Qty,Cash\n2024-01-02,"10:30${' '.repeat(k)}x",BUY,PFE,1,-1\n`, OPTIONS),
  },
  // Every other pattern that was rewritten.
  // Detection reads the first 4,000 characters: 40, 400 and 4,000 tabs.
  { name: 'CBOE quotedata detection: a header of tabs after "Expiration Date"', n: 40, readsAtMost: 4_000, run: (k) => chain(cboe({ header: `Expiration Date${'\t'.repeat(k)}x` })) },
  { name: 'CBOE quotedata: a line of tabs before the header (the Date: finder)', n: 150, run: (k) => chain(cboe({ name: `S&P 500 INDEX,Last: 4697.24,${'\t'.repeat(k)}x` }), 'cboe-csv') },
  { name: 'chain file: a metadata line of spaces (# spot: ...)', n: 150, run: (k) => chain(genericChain(`# spot: 1${' '.repeat(k)}x`, '2024-01-19,100,C,1,0.2')) },
  { name: 'broker import: "@", spaces and a line break in a number cell', n: 1, run: (k) => broker(`${GENERIC_HEADER}\n2024-01-02,BUY,PFE,"@${' '.repeat(k)}-${' '.repeat(k)}x\ny",1,-1\n`, 'generic') },
  {
    name: 'E*TRADE: a symbol of dashes (the OCC tail)',
    n: 150,
    run: (k) => broker(`For Account:,#####4821\n\nTransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description\n02/20/24,Bought,OPTN,${'-'.repeat(k)}x,1,-10,0.1,0,x\n`, 'etrade'),
  },
  {
    name: 'E*TRADE: an account line of spaces',
    n: 150,
    run: (k) => broker(`All Transactions Activity Types\n\nAccount Activity for A${' '.repeat(k)}x\n\nActivity/Trade Date,Transaction Date,Settlement Date,Activity Type,Description,Symbol,Cusip,Quantity #,Price $,Amount $,Commission,Category,Note\n03/25/26,03/25/26,03/25/26,Qualified Dividend,DIV,IWM,--,,,35.12,0.0,--,--\n`, 'etrade'),
  },
  {
    name: 'IBKR Flex: a date followed by separators and a spaced time',
    n: 150,
    run: (k) => broker(`"ClientAccountID","Symbol","DateTime","Buy/Sell","Quantity","TradePrice","AssetClass","Currency"\n"U1","PFE","01/02/2024${','.repeat(k)}a b","BUY","1","1","STK","USD"\n`, 'ibkr'),
  },
  {
    name: 'Robinhood: a description of spaces',
    n: 100,
    run: (k) => broker(`"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"\n"10/20/2025","10/20/2025","10/21/2025","PFE","A${' '.repeat(k)}x","Buy","1","$1.50","($1.50)"\n`, 'robinhood'),
  },
  {
    name: 'tastytrade legacy: a Date/Time of spaces with a line break',
    n: 150,
    run: (k) => broker(`Date/Time,Transaction Code,Transaction Subcode,Symbol,Buy/Sell,Open/Close,Quantity,Expiration Date,Strike,Call/Put,Price,Fees,Amount,Description,Account Reference\n"06/18/2021${' '.repeat(k)}12:48\nPM",Trade,Buy,ME,Buy,Open,100,,,,17.5,0.00,-1750,x,Individual\n`, 'tastytrade'),
  },
  { name: 'thinkorswim: an expiration of open parentheses', n: 150, run: (k) => broker(TOS_TRADES(`${'('.repeat(k)}x`), 'thinkorswim') },
  { name: 'thinkorswim: a trade line whose quantity is digits and a letter', n: 150, run: (k) => broker(TOS_CASH(`SOLD -${'1'.repeat(k)}x PFE`), 'thinkorswim') },
  { name: 'thinkorswim: a trade line whose price is digits and a letter', n: 150, run: (k) => broker(TOS_CASH(`SOLD -1 PFE 100 19 JAN 24 28 PUT @${'1'.repeat(k)}x`), 'thinkorswim') },
  { name: 'thinkorswim: a removal line whose quantity is digits and a letter', n: 150, run: (k) => broker(TOS_CASH(`REMOVAL OF OPTION DUE TO EXPIRATION ${'1'.repeat(k)}x`, 'RAD'), 'thinkorswim') },
  { name: 'thinkorswim: an option described with a tag of open parentheses (described.ts)', n: 150, run: (k) => broker(TOS_CASH(`SOLD -1 VERTICAL SPY 100 ${'('.repeat(k)} 16 JAN 15 205/210 PUT @.95`), 'thinkorswim') },
  { name: 'thinkorswim: an option described with strikes of slashes (described.ts)', n: 150, run: (k) => broker(TOS_CASH(`SOLD -1 IRON CONDOR SPY 100 16 JAN 15 ${'1/'.repeat(k)}x CALL/PUT @.95`), 'thinkorswim') },
  { name: 'TD transactions.csv: a description of many words before an @', n: 150, run: (k) => broker(`DATE,TRANSACTION ID,DESCRIPTION,QUANTITY,SYMBOL,PRICE,COMMISSION,AMOUNT,REG FEE\n01/05/2021,1,Sold 1 ${'SPY '.repeat(k)}@ 2,1,,2,0,200,\n`, 'thinkorswim') },
];

/** A Robinhood file of one day's exchanges: each SXCH pair (new, old) in its lines and the next day's cash in lieu. */
export function robinhoodExchanges(pairs: number): string {
  const lines = ['"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"'];
  for (let i = 0; i < pairs; i += 1) {
    lines.push(`"6/1/2021","6/1/2021","6/1/2021","N${i}","New ${i}","SXCH","10","",""`);
    lines.push(`"6/1/2021","6/1/2021","6/1/2021","O${i}","Old ${i}","SXCH","10S","",""`);
    lines.push(`"6/2/2021","6/2/2021","6/2/2021","N${i}","CIL on 0.5 @ $1.00 - N${i}","CIL","","","$0.50"`);
  }
  return lines.join('\n');
}

/** The pairing of Robinhood's corporate actions (one pass over the day's rows, not a search per row): bench only. */
export const ROBINHOOD_PAIRING: LinearCase = {
  name: 'Robinhood: SXCH pairs of one day and their cash in lieu (pairs, not characters)',
  n: 20,
  run: (pairs) => {
    const text = robinhoodExchanges(pairs);
    return () => parseRobinhood(text, {});
  },
};
