/**
 * Fidelity's corporate-action rows (issue 28): a merger's new shares (`MERGER MER FROM <CUSIP>#REOR <id> ...`) and the
 * old ones surrendered under the same #REOR id become one SYMBOL_CHANGE with the quantities' ratio; a new-shares row
 * alone (the real 2025 all-accounts file's LSEGY) keeps its reading: shares at zero basis, with a warning. The old
 * row's wording (`MERGER MER PAYOUT`) is an assumption: no public file shows both rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFidelity } from '../../../../../src-main/importers/fidelity';
import { ledgerOf, stored } from '../../../../journal-helpers';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';

const HEADER = 'Run Date,Account,Account Number,Action,Symbol,Description,Type,Exchange Quantity,Exchange Currency,Currency,Price,Quantity,Exchange Rate,Commission,Fees,Accrued Interest,Amount,Settlement Date';

describe('Fidelity merger rows', () => {
  it('the new and the old shares of one #REOR id are one merger; the carried lot realizes on the sale', () => {
    const text = [
      HEADER,
      '12/01/2025,"Brokerage","333333333","YOU SOLD NEWCO INC (NEWCO) (Cash)",NEWCO,"NEWCO INC",Cash,0,,USD,30,50,0,,,,1500,12/02/2025',
      '11/17/2025,"Brokerage","333333333","MERGER MER FROM 12345X678#REOR M0051702100001 NEWCO INC (NEWCO) (Cash)",NEWCO,"NEWCO INC",Shares,0,,USD,,50,0,,,,1480,',
      '11/17/2025,"Brokerage","333333333","MERGER MER PAYOUT #REOR M0051702100001 OLDCO INC (OLDCO) (Cash)",OLDCO,"OLDCO INC",Shares,0,,USD,,-100,0,,,,0,',
      '06/02/2025,"Brokerage","333333333","YOU BOUGHT OLDCO INC (OLDCO) (Cash)",OLDCO,"OLDCO INC",Cash,0,,USD,12,100,0,,,,-1200,06/03/2025',
    ].join('\n');
    const result = parseFidelity(text, {});
    expect(result.errors).toEqual([]);
    const merger = result.transactions.find((r) => r.transaction.type === 'SYMBOL_CHANGE')?.transaction;
    expect(merger).toMatchObject({ symbol: 'NEWCO', previousSymbol: 'OLDCO', quantity: 50, amountMinor: 0, corporateAction: { type: 'merger', symbol: 'OLDCO', newSymbol: 'NEWCO', ratio: 0.5 } });
    expect(result.merged).toHaveLength(1);
    const ledger = ledgerOf(stored(result.transactions.map((r) => r.transaction)));
    // 100 OLDCO for 1,200.00 → 50 NEWCO keeping the 1,200.00; sold for 1,500.00.
    expect([...ledger.realizedByTx.values()].reduce((a, b) => a + b, 0) / 10_000, '1,500 − 1,200').toBe(300);
    expect(ledger.positions).toEqual([]);
  });

  it('the real file’s LSEGY merger row alone: 1,060 shares at zero basis, its Amount no cash, a warning', () => {
    const result = parseFidelity(readFileSync(join(BROKER_FIXTURES_SHARED, 'fidelity_all_accounts_2025_reds.csv'), 'utf8'), {});
    const row = result.transactions.find((r) => r.transaction.symbol === 'LSEGY')?.transaction;
    expect(row).toMatchObject({ type: 'BUY', quantity: 1060, priceMinor: 0, amountMinor: 0 });
    expect(result.warnings.some((w) => w.message.includes('LSEGY came in at zero cost basis'))).toBe(true);
  });
});
