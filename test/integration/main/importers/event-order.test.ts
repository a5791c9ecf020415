/**
 * The event order rule per broker (docs/importers.md, "Event order"): each importer numbers its rows in the file's
 * chronological order (`sequence`), reading a file listed newest first bottom-up. Two rows of one instant (one day,
 * in files without times) are written in both orders; the sequence follows the file's listing each time. With
 * only one date in the file, the broker's declared listing decides; a file whose first and last rows have
 * different dates shows its own listing.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../src-main/importers/index';
import type { ParseResult } from '../../../../src-main/importers/types';

type Listing = 'oldest-first' | 'newest-first';

interface Case {
  broker: string;
  listing: Listing;
  /** The file with two data rows of one instant, `first` on the upper line. */
  file(first: string, second: string): string;
  rows: [string, string];
}

const CASES: Case[] = [
  {
    broker: 'tastytrade',
    listing: 'newest-first',
    file: (a, b) => `Date,Type,Sub Type,Action,Symbol,Instrument Type,Description,Value,Quantity,Average Price,Commissions,Fees,Multiplier,Root Symbol,Underlying Symbol,Expiration Date,Strike Price,Call or Put,Order #,Total,Currency\n${a}\n${b}\n`,
    rows: [
      '2025-10-20T15:00:00+0000,Trade,Buy to Open,BUY_TO_OPEN,OPEN  251121C00009000,Equity Option,Bought 1 OPEN 11/21/25 Call 9.00 @ 2.00,-200.00,1,-200.00,-1.00,-0.12,100,OPEN,OPEN,11/21/25,9,CALL,1,-201.12,USD',
      '2025-10-20T15:00:00+0000,Trade,Sell to Close,SELL_TO_CLOSE,OPEN  251121C00009000,Equity Option,Sold 1 OPEN 11/21/25 Call 9.00 @ 3.00,300.00,1,300.00,0.00,-0.12,100,OPEN,OPEN,11/21/25,9,CALL,2,299.88,USD',
    ],
  },
  {
    broker: 'schwab',
    listing: 'newest-first',
    file: (a, b) => `"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"\n${a}\n${b}\n`,
    rows: [
      '"10/20/2025","Buy to Open","OPEN 11/21/2025 9.00 C","CALL OPENDOOR","1","$2.00","$0.66","-$200.66"',
      '"10/20/2025","Sell to Close","OPEN 11/21/2025 9.00 C","CALL OPENDOOR","1","$3.00","$0.66","$299.34"',
    ],
  },
  {
    broker: 'robinhood',
    listing: 'newest-first',
    file: (a, b) => `"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"\n${a}\n${b}\n`,
    rows: [
      '"10/20/2025","10/20/2025","10/21/2025","OPEN","OPEN 11/21/2025 Call $9.00","BTO","1","$2.00","($200.04)"',
      '"10/20/2025","10/20/2025","10/21/2025","OPEN","OPEN 11/21/2025 Call $9.00","STC","1","$3.00","$299.95"',
    ],
  },
  {
    broker: 'etrade',
    listing: 'newest-first',
    file: (a, b) => `TransactionDate,TransactionType,SecurityType,Symbol,Quantity,Amount,Price,Commission,Description\n${a}\n${b}\n`,
    rows: ['10/20/25,Bought To Open,OPTN,OPEN,1,-200.50,2,0.50,CALL OPEN 11/21/25 9.000', '10/20/25,Sold To Close,OPTN,OPEN,-1,299.50,3,0.50,CALL OPEN 11/21/25 9.000'],
  },
  {
    broker: 'fidelity',
    listing: 'newest-first',
    file: (a, b) => `Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Settlement Date\n${a}\n${b}\n`,
    rows: [
      '10/20/2025,"YOU BOUGHT OPENING TRANSACTION CALL (OPEN) OPENDOOR NOV 21 25 $9 (100 SHS) (Margin)", -OPEN251121C9,CALL (OPEN) OPENDOOR NOV 21 25 $9 (100 SHS),Margin,1,2.00,0.65,0.02,,-200.67,10/21/2025',
      '10/20/2025,"YOU SOLD CLOSING TRANSACTION CALL (OPEN) OPENDOOR NOV 21 25 $9 (100 SHS) (Margin)", -OPEN251121C9,CALL (OPEN) OPENDOOR NOV 21 25 $9 (100 SHS),Margin,-1,3.00,0.65,0.02,,299.33,10/21/2025',
    ],
  },
  {
    broker: 'webull',
    listing: 'newest-first',
    file: (a, b) => `Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time\n${a}\n${b}\n`,
    rows: [
      'OPEN 251121 Call 9.00,OPEN251121C00009000,Buy,Filled,1,1,@2.00,2.00,DAY,10/20/2025 10:00:00 EDT,10/20/2025 10:00:00 EDT',
      'OPEN 251121 Call 9.00,OPEN251121C00009000,Sell,Filled,1,1,@3.00,3.00,DAY,10/20/2025 10:00:00 EDT,10/20/2025 10:00:00 EDT',
    ],
  },
  {
    broker: 'ibkr (Activity Statement)',
    listing: 'oldest-first',
    file: (a, b) =>
      [
        'Statement,Header,Field Name,Field Value',
        'Statement,Data,Period,"October 1, 2025 - October 31, 2025"',
        'Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,Proceeds,Comm/Fee,Code',
        a,
        b,
        '',
      ].join('\n'),
    rows: ['Trades,Data,Order,Equity and Index Options,USD,OPEN 21NOV25 9 C,"2025-10-20, 10:00:00",1,2,-200,-1,O', 'Trades,Data,Order,Equity and Index Options,USD,OPEN 21NOV25 9 C,"2025-10-20, 10:00:00",-1,3,300,-1,C'],
  },
  {
    broker: 'ibkr (Flex Query)',
    listing: 'oldest-first',
    file: (a, b) => `"ClientAccountID","CurrencyPrimary","AssetClass","Symbol","DateTime","Quantity","TradePrice","Proceeds","IBCommission","NetCash","Buy/Sell","Open/CloseIndicator","Multiplier"\n${a}\n${b}\n`,
    rows: ['"U1","USD","OPT","OPEN  251121C00009000","20251020;100000","1","2","-200","-1","-201","BUY","O","100"', '"U1","USD","OPT","OPEN  251121C00009000","20251020;100000","-1","3","300","-1","299","SELL","C","100"'],
  },
  {
    broker: 'thinkorswim (Cash Balance order)',
    listing: 'oldest-first',
    file: (a, b) =>
      [
        'Account Statement for 12345678SCHW (margin) since 10/1/25 through 10/31/25',
        '',
        'Cash Balance',
        'DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE',
        '10/1/25,01:00:00,BAL,,Cash balance at the start of business day 01.10 EST,,,,"10,000.00"',
        a,
        b,
        '',
      ].join('\n'),
    rows: ['10/17/25,16:00:00,RAD,,REMOVAL OF OPTION DUE TO EXPIRATION 1 OPEN 100 17 OCT 25 9 CALL,,,0.00,"10,000.00"', '10/17/25,16:00:00,RAD,,REMOVAL OF OPTION DUE TO ASSIGNMENT 1 OPEN 100 17 OCT 25 8 PUT,,,0.00,"10,000.00"'],
  },
  {
    broker: 'generic',
    listing: 'oldest-first',
    file: (a, b) => `date,type,symbol,quantity,price,amount\n${a}\n${b}\n`,
    rows: ['2025-10-20,BUY_TO_OPEN,OPEN251121C00009000,1,2.00,-200.00', '2025-10-20,SELL_TO_CLOSE,OPEN251121C00009000,1,3.00,300.00'],
  },
];

function parsed(text: string): ParseResult {
  const outcome = parseImport(text, 'auto', { asOf: new Date('2025-10-21T00:00:00Z') });
  if (!outcome.ok) throw new Error(`${outcome.detail} ${JSON.stringify(outcome.errors)}`);
  expect(outcome.result.errors).toEqual([]);
  return outcome.result;
}

/** The sequence of the transaction made from each data line, in file order. */
function sequencesByLine(result: ParseResult): Array<number | undefined> {
  return [...result.transactions].sort((a, b) => a.line - b.line).map((row) => row.transaction.sequence);
}

describe('event order: two rows of one instant, in both orders, per broker', () => {
  for (const c of CASES) {
    it(`${c.broker}: listed ${c.listing}, so the ${c.listing === 'newest-first' ? 'lower' : 'upper'} row happened first`, () => {
      for (const [upper, lower] of [c.rows, [c.rows[1], c.rows[0]] as const]) {
        const result = parsed(c.file(upper, lower));
        const [top, bottom] = sequencesByLine(result);
        expect(result.transactions, 'two transactions').toHaveLength(2);
        expect(top !== undefined && bottom !== undefined, 'both rows numbered').toBe(true);
        if (c.listing === 'newest-first') expect(bottom, 'read bottom-up').toBeLessThan(top ?? -1);
        else expect(top, 'read top-down').toBeLessThan(bottom ?? -1);
      }
    });
  }

  it('a file whose dates say the other listing is read by its dates (generic, newest first by hand)', () => {
    const text = 'date,type,symbol,quantity,price,amount\n2025-10-21,SELL_TO_CLOSE,OPEN251121C00009000,1,3.00,300.00\n2025-10-20,BUY_TO_OPEN,OPEN251121C00009000,1,2.00,-200.00\n';
    expect(sequencesByLine(parsed(text)), 'the upper row is the later one').toEqual([1, 0]);
  });
});
