/**
 * A Robinhood history through a SPAC merger (issue 28): the IPOE shares and a short IPOE put become SOFI's at the
 * merger (SXCH and OCA rows), later SOFI sales match the carried lots, free shares (REC) and a 1-for-10 reverse split
 * with its fraction paid in cash (SPR + CIL). Self-written in Robinhood's real columns
 * (test/fixtures/brokers/robinhood_spac_merger_selfwritten.csv); every figure computed by hand below.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRobinhood } from '../../../../../src-main/importers/robinhood';
import { buildTrades } from '../../../../../src-shared/journal/trades';
import { performance } from '../../../../../src-shared/journal/index';
import { presentPeriod } from '../../../../../src-main/server/presenters/journal';
import { ledgerOf, stored } from '../../../../journal-helpers';
import { REPO_ROOT } from '../../../../helper';
import { robinhoodExchanges } from '../../../../linear-time';

const text = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/robinhood_spac_merger_selfwritten.csv'), 'utf8');
const result = parseRobinhood(text, {});
const rows = stored(result.transactions.map((row) => row.transaction));

function year(ledger: ReturnType<typeof ledgerOf>, y: number) {
  const period = performance(ledger, { period: 'monthly', date: `${y}-06-01`, from: `${y}-01-01`, to: `${y}-12-31` }).custom;
  if (!period) throw new Error('no custom range');
  return presentPeriod(period).summary;
}

describe('Robinhood corporate-action rows', () => {
  it('reads the file without errors; each pair is one transaction with its terms', () => {
    expect(result.errors).toEqual([]);
    const exchange = result.transactions.find((r) => r.transaction.type === 'SYMBOL_CHANGE' && !r.transaction.isOption)?.transaction;
    expect(exchange, 'SXCH 300S IPOE + 300 SOFI').toMatchObject({ symbol: 'SOFI', previousSymbol: 'IPOE', quantity: 300, corporateAction: { type: 'symbol_change', symbol: 'IPOE', newSymbol: 'SOFI', ratio: 1 } });
    const put = result.transactions.find((r) => r.transaction.type === 'SYMBOL_CHANGE' && r.transaction.isOption)?.transaction;
    expect(put, 'OCA 1S IPOE put + 1 SOFI put').toMatchObject({ symbol: 'SOFI210618P00020000', previousSymbol: 'IPOE210618P00020000', underlying: 'SOFI', quantity: 1 });
    const split = result.transactions.find((r) => r.transaction.type === 'SPLIT' && r.transaction.symbol === 'NAKD')?.transaction;
    // 105S → 10 received, and 0.5 paid in cash (the CIL two days later): (10 + 0.5) ÷ 105 = 0.1.
    expect(split?.corporateAction).toMatchObject({ type: 'split', symbol: 'NAKD', newSymbol: null });
    expect(split?.corporateAction?.ratio, '(10 + 0.5) / 105').toBeCloseTo(0.1, 12);
    const cil = result.transactions.find((r) => r.transaction.type === 'SELL' && r.transaction.symbol === 'NAKD' && r.transaction.quantity < 1)?.transaction;
    expect(cil, 'CIL on 0.5 @ $8.00: a sale of half a share for $4.00').toMatchObject({ quantity: 0.5, priceMinor: 80_000, amountMinor: 40_000 });
    const free = result.transactions.find((r) => r.transaction.symbol === 'HLX' && r.transaction.type === 'SPLIT')?.transaction;
    expect(free?.corporateAction).toMatchObject({ type: 'free_shares', symbol: 'HLX', quantity: 1 });
    expect(result.merged.map((m) => m.lines.length), 'SXCH, OCA and SPR pairs: two lines each').toEqual([2, 2, 2]);
    expect(result.warnings).toEqual([]);
  });

  it('no phantom IPOE shares, no unmatched SOFI sales: the lots and the put carry through the merger', () => {
    const ledger = ledgerOf(rows);
    expect(ledger.warnings, 'every close found its lot, every action something to change').toEqual({ unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 });
    expect(ledger.positions, 'flat at the end: 300 SOFI sold as 250 + 50, the put bought back, NAKD and HLX sold').toEqual([]);
  });

  it('2021 and 2022 realized P&L, by hand', () => {
    const ledger = ledgerOf(rows);
    const y2021 = year(ledger, 2021);
    // SOFI 250 @ 21.00 against the IPOE lots: 200 × (21 − 20) + 50 × (21 − 22.50) = 200 − 75 = 125.00;
    // HLX, free: 3.50. The put: 150 − 0.04 fees sold, 30 + 0.02 fees bought back = 119.94.
    expect(y2021.stockPL, '125 + 3.50').toBe(128.5);
    expect(y2021.optionsPL, '150 − 0.04 − 30 − 0.02').toBe(119.94);
    expect(y2021.realizedPL).toBe(248.44);
    const y2022 = year(ledger, 2022);
    // SOFI 50 @ 15 against the rest of the 22.50 lot: −375.00. NAKD: 105 shares for 105.00 → 10.5 shares; the half
    // share carries 105 × 0.5 / 10.5 = 5.00 and is paid 4.00 (−1.00); 10 @ 9.00 against 100.00 (−10.00).
    expect(y2022.stockPL, '−375 − 1 − 10').toBe(-386);
    expect(y2022.optionsPL).toBe(0);
  });

  it('one campaign from the first IPOE purchase to the last SOFI sale; the put is one trade', () => {
    const ledger = ledgerOf(rows);
    const spac = ledger.campaigns.filter((c) => c.underlying === 'SOFI' || c.underlying === 'IPOE');
    expect(spac.map((c) => [c.underlying, c.openDay, c.closeDay])).toEqual([['SOFI', '2021-03-01', '2022-01-10']]);
    // 125 − 375 on the shares, 119.94 on the put.
    expect(spac[0]?.realizedMinor, '125 − 375 + 119.94 = −130.06').toBe(-1_300_600);
    const trades = buildTrades(rows).trades.filter((t) => t.structure.some((leg) => leg.isOption));
    expect(trades.map((t) => [t.underlying, t.status, t.pnlMinor])).toEqual([['IPOE', 'closed', 1_199_400]]);
  });
});

describe('Robinhood corporate-action rows without their counterpart', () => {
  const header = '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"';
  it('a lone surrender stays OTHER with a warning; a stock dividend is shares at zero cost', () => {
    const lone = parseRobinhood(`${header}\n"6/1/2021","6/1/2021","6/1/2021","IPOE","Social Capital","SXCH","300S","",""\n"8/2/2021","8/2/2021","8/2/2021","AMC","AMC Entertainment","SDIV","4","",""\n`, {});
    expect(lone.errors).toEqual([]);
    expect(lone.transactions.map((r) => r.transaction.type)).toEqual(['OTHER', 'SPLIT']);
    expect(lone.warnings[0]?.message).toContain('surrendered without the received shares');
    expect(lone.transactions[1]?.transaction.corporateAction).toMatchObject({ type: 'stock_dividend', symbol: 'AMC', quantity: 4 });
  });

  it('a merger with its cash (MRGS + MRGC): the cash per old share is the cash over the shares surrendered', () => {
    const merger = parseRobinhood(
      `${header}\n"2/14/2022","2/14/2022","2/14/2022","AMD","Advanced Micro Devices","MRGS","172","",""\n"2/14/2022","2/14/2022","2/14/2022","XLNX","Xilinx","MRGS","100S","",""\n"2/14/2022","2/14/2022","2/14/2022","XLNX","Xilinx cash","MRGC","","","$12.34"\n`,
      {},
    );
    expect(merger.errors).toEqual([]);
    const [tx] = merger.transactions.map((r) => r.transaction);
    expect(tx).toMatchObject({ type: 'SYMBOL_CHANGE', symbol: 'AMD', previousSymbol: 'XLNX', amountMinor: 123_400, corporateAction: { type: 'merger', newSymbol: 'AMD', ratio: 1.72 } });
    expect(tx?.corporateAction?.cashPerShareMinor, '12.34 / 100 shares').toBeCloseTo(1_234, 9);
  });
});

describe('Robinhood corporate-action rows in bulk', () => {
  it('pairs 6,000 rows of one day, each pair in its lines (its time against the pairs: the bench)', () => {
    // The growth of the pairing's time with the pairs (1 linear, 2 for a search per row) is the bench's line
    // import.linear_time.robinhood_sxch_pairs... (bench/linear-time.ts); here, what it pairs.
    const parsed = parseRobinhood(robinhoodExchanges(2_000), {});
    expect(parsed.errors).toEqual([]);
    expect(parsed.transactions.filter((r) => r.transaction.type === 'SYMBOL_CHANGE')).toHaveLength(2_000);
    expect(parsed.transactions.find((r) => r.transaction.symbol === 'N7' && r.transaction.type === 'SYMBOL_CHANGE')?.transaction.previousSymbol, 'each pair in its lines').toBe('O7');
    expect(parsed.transactions.find((r) => r.transaction.symbol === 'N7' && r.transaction.type === 'SYMBOL_CHANGE')?.transaction.corporateAction?.ratio, '(10 + the 0.5 paid the next day) / 10').toBe(1.05);
  });
});
