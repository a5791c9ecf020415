import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../../src-main/importers/common/csv';
import { tastytradeImporter } from '../../../../../src-main/importers/tastytrade/index';
import type { ParseResult, ParsedRow } from '../../../../../src-main/importers/types';
import { brokerFixture, minorOf, rowAtLine, sumAmounts, expectDetectedClean, expectStableIds, expectRefusedAt } from '../file-totals';

const load = brokerFixture;
const parse = (text: string): ParseResult => tastytradeImporter.parse(text, {});


/** The raw rows of a file as header-name → cell maps. */
function rawRows(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text).records.filter((r) => r.cells.some((c) => c.trim() !== ''));
  return rows.map((row) => Object.fromEntries((header?.cells ?? []).map((name, i) => [name, row.cells[i] ?? ''])));
}

const at = rowAtLine;

function countTypes(rows: ParsedRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.transaction.type] = (counts[row.transaction.type] ?? 0) + 1;
  return counts;
}


describe('tastytrade importer: 21-column PFE file (Binnaculum)', () => {
  const text = load('tastytrade_v2_21col_PFE_binnaculum.csv');
  const result = parse(text);

  it('detects and parses every row without problems', () => {
    expectDetectedClean(tastytradeImporter, text, result);
    expect(result.warnings).toEqual([]);
    expect(result.rows, '4 data rows under the header').toBe(4);
    expect(result.transactions).toHaveLength(4);
  });

  it('pins line 2 (Sold 1 PFE 01/16/26 Call 20.00 @ 7.45) by hand', () => {
    const tx = at(result, 2);
    expect(tx.type).toBe('SELL_TO_CLOSE');
    expect(tx.symbol, 'OCC without padding').toBe('PFE260116C00020000');
    expect(tx.underlying).toBe('PFE');
    expect([tx.expiration, tx.strike, tx.right]).toEqual(['2026-01-16', 20, 'C']);
    expect(tx.quantity).toBe(1);
    expect(tx.priceMinor, '7.45 per share = 745.00 / (1 × 100)').toBe(74_500);
    expect(tx.multiplier).toBe(100);
    expect(tx.amountMinor, 'Total column 744.88').toBe(7_448_800);
    expect(tx.commissionMinor, 'Commissions 0.00').toBe(0);
    expect(tx.feesMinor, 'Fees -0.12 → unsigned 0.12').toBe(1_200);
    expect(tx.tradeDate, '20:55:09+0100 is 19:55:09 UTC').toBe('2025-10-03T19:55:09.000Z');
    expect(tx.orderId).toBe('411322652');
    expect(tx.currency).toBe('USD');
    expect(tx.source).toBe('tastytrade-csv');
    expect(tx.accountName, 'the file names no account').toBe('tastytrade');
  });

  it('keeps the roll legs on one order number and maps BTO/STO/BTC/STC from the action', () => {
    expect(at(result, 3).type).toBe('BUY_TO_CLOSE');
    expect(at(result, 3).orderId, 'roll: BTC shares the STC order').toBe(at(result, 2).orderId);
    expect(at(result, 4).type).toBe('SELL_TO_OPEN');
    expect(at(result, 4).commissionMinor, 'Commissions -1.00').toBe(10_000);
    expect(at(result, 5).type).toBe('BUY_TO_OPEN');
    expect(at(result, 5).amountMinor, 'Total -555.12').toBe(-5_551_200);
  });

  it('matches Binnaculum’s expected PFE totals (commissions 2.00, fees 0.48, realized 175.52)', () => {
    const commissions = result.transactions.reduce((s, r) => s + r.transaction.commissionMinor, 0);
    const fees = result.transactions.reduce((s, r) => s + r.transaction.feesMinor, 0);
    expect(commissions, 'PfizerImportExpectedSnapshots: commissions 2.00').toBe(20_000);
    expect(fees, 'PfizerImportExpectedSnapshots: fees 0.48').toBe(4_800);
    expect(sumAmounts(result), 'all four legs close flat: net cash = realized 175.52').toBe(1_755_200);
  });

  it('Σ amountMinor equals Σ of the Total column', () => {
    const expected = rawRows(text).reduce((s, row) => s + minorOf(row.Total ?? ''), 0);
    expect(sumAmounts(result)).toBe(expected);
  });

  it('gives the same brokerRowIds on re-parse and for the same rows exported without the Total column', () => {
    const again = parse(text);
    expect(again.transactions.map((r) => r.transaction.brokerRowId)).toEqual(result.transactions.map((r) => r.transaction.brokerRowId));
    const ids = result.transactions.map((r) => r.transaction.brokerRowId);
    expect(new Set(ids).size, 'row identities are unique').toBe(ids.length);
    const twentyColumns = text
      .split('\n')
      .map((line) => {
        const cells = line.split(',');
        cells.splice(19, 1);
        return cells.join(',');
      })
      .join('\n');
    const twenty = parse(twentyColumns);
    expect(twenty.errors).toEqual([]);
    expect(twenty.transactions.map((r) => r.transaction.brokerRowId), 'a 20-column re-export deduplicates').toEqual(ids);
  });

  it('reports a garbage cell as an error naming its line and column, and imports nothing', () => {
    const lines = text.split('\n');
    lines[2] = (lines[2] ?? '').replace(',-64.00,1,', ',abc,1,');
    const broken = parse(lines.join('\n'));
    expectRefusedAt(broken, 3, 'Value');
  });

  it('reports a bad date with its line', () => {
    const broken = parse(text.replace('2025-10-01T16:16:44+0100', '2025-13-01 16:16'));
    expect(broken.errors.map((e) => e.line)).toEqual([4]);
    expect(broken.errors[0]?.message).toContain('Date');
  });

  it('reports missing columns once, at the header line, naming them', () => {
    const broken = parse(text.replace('Order #', 'Order No'));
    expect(broken.errors).toEqual([{ line: 1, message: 'the header lacks the column Order #' }]);
  });

  it('reports a truncated file (unclosed quote) as an error', () => {
    const broken = parse(`${text}\n2025-10-04T10:00:00+0100,Money Movement,Deposit,,,,"Wire Funds`);
    expect(broken.errors).toHaveLength(1);
    expect(broken.errors[0]?.line).toBe(6);
  });
});

describe('tastytrade importer: 20-column six-year history (avion23)', () => {
  const text = load('tastytrade_v2_20col_history_2018-2024_avion23.csv');
  const result = parse(text);
  const raw = rawRows(text);
  const bySub = (sub: string): number => raw.filter((row) => row['Sub Type'] === sub).length;

  it('parses all 1,082 rows', () => {
    expect(result.errors).toEqual([]);
    expect(result.rows).toBe(1082);
    // Symbol Change (8 rows), Stock Merger (2) and Reverse Split (4) come in close/open pairs: one transaction each.
    const pairs = (bySub('Symbol Change') + bySub('Stock Merger') + bySub('Reverse Split')) / 2;
    expect(pairs, '7 corporate-action pairs in the file').toBe(7);
    expect(result.transactions).toHaveLength(1082 - pairs);
    // The report says which rows were merged (issue 18: 212 read, 210 imported, two rows unexplained).
    expect(result.mergedCount, 'one row merged away per pair').toBe(pairs);
    expect(result.merged).toHaveLength(pairs);
    expect(result.merged.find((m) => m.lines.includes(237))).toEqual({ lines: [237, 238], reason: 'Symbol Change: VIAC220401P00029000 and PARA220401P00029000 as one SYMBOL_CHANGE' });
  });

  it('counts per type follow the file’s sub types', () => {
    const counts = countTypes(result.transactions);
    expect(counts.ASSIGNMENT, 'one per "Assignment" row').toBe(bySub('Assignment'));
    expect(counts.EXPIRATION, 'one per "Expiration" row').toBe(bySub('Expiration'));
    expect(counts.SYMBOL_CHANGE, '(8 symbol-change + 2 merger rows) / 2').toBe(5);
    expect(counts.SPLIT, '4 reverse-split rows / 2').toBe(2);
    expect(counts.DIVIDEND, 'one per "Dividend" row, withholding included').toBe(bySub('Dividend'));
    expect(counts.SELL_TO_OPEN, 'every Trade/Sell to Open is an equity option here').toBe(252);
    expect(counts.OTHER, 'no row the importer could not classify').toBeUndefined();
  });

  it('maps a put assignment to ASSIGNMENT of the option plus a stock BUY at the strike (SCHG, lines 6-7)', () => {
    const option = at(result, 6);
    expect(option.type).toBe('ASSIGNMENT');
    expect(option.symbol).toBe('SCHG240816P00103000');
    expect(option.quantity).toBe(1);
    expect(option.priceMinor, 'the option leaves at 0').toBe(0);
    expect(option.amountMinor).toBe(0);
    const stock = at(result, 7);
    expect(stock.type).toBe('BUY');
    expect(stock.symbol).toBe('SCHG');
    expect(stock.isOption).toBe(false);
    expect(stock.quantity).toBe(100);
    expect(stock.priceMinor, 'the strike, 103.00').toBe(1_030_000);
    expect(stock.amountMinor, '-10,300.00 − 5.00 fee').toBe(-103_050_000);
    expect(stock.feesMinor).toBe(50_000);
    expect(stock.tradeDate, '23:00+0200 is 21:00 UTC').toBe('2024-08-05T21:00:00.000Z');
  });

  it('maps call assignments to a stock SELL at the strike, a short sale when no shares are held (SPYG line 204, KODK short stock line 788)', () => {
    expect(at(result, 203).type).toBe('ASSIGNMENT');
    const spyg = at(result, 204);
    expect([spyg.type, spyg.quantity, spyg.priceMinor]).toEqual(['SELL', 100, 600_000]);
    expect(spyg.amountMinor, '6,000.00 − 5.05').toBe(59_949_500);
    const kodk = at(result, 788);
    // The file says "Sell to Open": shares delivered short (a plain SELL never opens a short, docs/journal.md).
    expect([kodk.type, kodk.quantity, kodk.priceMinor], 'Sell to Open 300 KODK @ 2.50').toEqual(['SELL_SHORT', 300, 25_000]);
    expect([at(result, 785).type, at(result, 785).quantity], 'Bought 300 KODK "Buy to Close": the cover').toEqual(['BUY_TO_COVER', 300]);
  });

  it('pairs a symbol change into one SYMBOL_CHANGE with previousSymbol (VIAC → PARA puts, lines 237-238)', () => {
    const tx = at(result, 237);
    expect(tx.type).toBe('SYMBOL_CHANGE');
    expect(tx.symbol).toBe('PARA220401P00029000');
    expect(tx.previousSymbol).toBe('VIAC220401P00029000');
    expect(tx.quantity).toBe(2);
    expect(tx.amountMinor, '+520.00 and -520.00 cancel').toBe(0);
    expect(result.transactions.some((r) => r.line === 238), 'the close leg is folded in').toBe(false);
    const stock = at(result, 448);
    expect([stock.type, stock.symbol, stock.previousSymbol, stock.quantity]).toEqual(['SYMBOL_CHANGE', 'ME', 'VGAC', 100]);
  });

  it('pairs a stock merger (SPRT → GREE1 puts) and the USO reverse split', () => {
    const merger = at(result, 350);
    expect([merger.type, merger.symbol, merger.previousSymbol]).toEqual(['SYMBOL_CHANGE', 'GREE1210917P00022000', 'SPRT210917P00022000']);
    const split = at(result, 916);
    expect(split.type).toBe('SPLIT');
    expect(split.symbol).toBe('USO1200717P00002000');
    expect(split.previousSymbol).toBe('USO200717P00002000');
    expect(split.underlying).toBe('USO');
    expect(split.quantity, 'signed change: 6 new − 6 old contracts').toBe(0);
  });

  it('keeps dividend withholding as a negative DIVIDEND with its description (PULS, line 12)', () => {
    const tx = at(result, 12);
    expect([tx.type, tx.symbol, tx.amountMinor, tx.description]).toEqual(['DIVIDEND', 'PULS', -57_200, 'PGIM ETF TRUST']);
  });

  it('classifies cash rows: interest, fees, deposits by sign', () => {
    expect(at(result, 5).type, 'Fully Paid Stock Lending Income').toBe('INTEREST');
    expect(at(result, 8).type, 'Balance Adjustment').toBe('FEE');
    expect(at(result, 8).amountMinor, 'Regulatory fee adjustment -0.01').toBe(-100);
    expect(at(result, 89).type, 'Withdrawal -6,000.00').toBe('WITHDRAWAL');
    expect(at(result, 593).type, '"Wire Funds Received" +4,770.40 filed under Withdrawal is cash in').toBe('DEPOSIT');
    expect(at(result, 927).type, '"INTEREST ON CREDIT BALANCE" filed under Deposit').toBe('INTEREST');
  });

  it('Σ amountMinor equals Σ (Value − |Commissions| − |Fees|) of the raw file (no Total column)', () => {
    const expected = raw.reduce((s, row) => s + minorOf(row.Value ?? '') - Math.abs(minorOf(row.Commissions ?? '')) - Math.abs(minorOf(row.Fees ?? '')), 0);
    expect(sumAmounts(result)).toBe(expected);
  });

  it('re-parsing gives identical, unique brokerRowIds', () => {
    expectStableIds(result, parse(text));
  });
});

describe('tastytrade importer: wheel files (Binnaculum TSLL, MPW), spreads, futures options, USO slice', () => {
  it('TSLL: special-dividend strike adjustments become SYMBOL_CHANGE; amount is Total even where it differs by a cent', () => {
    const text = load('tastytrade_v2_21col_TSLL_wheel_binnaculum.csv');
    const result = parse(text);
    expect(result.errors).toEqual([]);
    const adjusted = at(result, 126);
    expect([adjusted.type, adjusted.symbol, adjusted.previousSymbol]).toEqual(['SYMBOL_CHANGE', 'TSLL260116C00010430', 'TSLL260116C00010730']);
    const sold = at(result, 146);
    // Value 864.00, Commissions -9.00, Fees -1.19 would give 853.81; tastytrade's Total says 853.80.
    expect(sold.amountMinor, 'the broker’s Total wins').toBe(8_538_000);
    expect([sold.commissionMinor, sold.feesMinor]).toEqual([90_000, 11_900]);
    const expected = rawRows(text).reduce((s, row) => s + minorOf(row.Total ?? ''), 0);
    expect(sumAmounts(result), 'Σ Total').toBe(expected);
    const withholding = result.transactions.filter((r) => r.transaction.type === 'DIVIDEND' && r.transaction.amountMinor < 0);
    expect(withholding, 'three negative Dividend rows').toHaveLength(3);
  });

  it('MPW: the ACAT transfer in opens the 1,000 shares at zero cost, with a warning on its line', () => {
    const text = load('tastytrade_v2_21col_MPW_wheel_binnaculum.csv');
    const result = parse(text);
    expect(result.errors).toEqual([]);
    // Without it the 2024-10-10 sale of these shares would open a phantom short of 1,000 MPW.
    expect(at(result, 157).type).toBe('BUY');
    expect(at(result, 157).quantity).toBe(1000);
    expect([at(result, 157).priceMinor, at(result, 157).amountMinor], 'no cost basis in the file').toEqual([0, 0]);
    expect(result.warnings.map((w) => w.line)).toEqual([157]);
    expect(countTypes(result.transactions).EXPIRATION, 'five Expiration rows').toBe(5);
    expect(sumAmounts(result)).toBe(rawRows(text).reduce((s, row) => s + minorOf(row.Total ?? ''), 0));
  });

  it('20-column spreads file: net amount, regulatory fee adjustment, deposits', () => {
    const result = parse(load('tastytrade_v2_20col_spreads_rolls_binnaculum.csv'));
    expect(result.errors).toEqual([]);
    expect(at(result, 2).amountMinor, '16.00 − 1.00 − 0.14').toBe(148_600);
    expect([at(result, 9).type, at(result, 9).amountMinor]).toEqual(['FEE', -200]);
    expect(countTypes(result.transactions).DEPOSIT).toBe(3);
  });

  it('futures options stay options with the file’s multiplier (1) and price per contract', () => {
    const result = parse(load('tastytrade_v2_21col_future_options_binnaculum.csv'));
    expect(result.errors).toEqual([]);
    const tx = at(result, 5);
    expect(tx.type).toBe('SELL_TO_CLOSE');
    expect(tx.isOption).toBe(true);
    expect(tx.underlying).toBe('/MESZ5');
    expect([tx.expiration, tx.strike, tx.right]).toEqual(['2025-11-28', 6300, 'P']);
    expect(tx.multiplier, 'Multiplier column').toBe(1);
    expect(tx.priceMinor, 'Value 210.00 / 2 contracts').toBe(1_050_000);
    expect(tx.amountMinor, 'Total 207.58').toBe(2_075_800);
    expect(at(result, 2).type).toBe('EXPIRATION');
    expect(at(result, 2).symbol, 'expiration and trades name the contract alike').toBe(at(result, 18).symbol);
  });

  it('USO slice: positive fees are still costs; a same-symbol reverse split has no previousSymbol', () => {
    const result = parse(load('tastytrade_v2_20col_uso_reverse_split_avion23.csv'));
    expect(result.errors).toEqual([]);
    expect(at(result, 2).feesMinor, 'Fees 0.852').toBe(8_520);
    expect(at(result, 2).amountMinor, '30 − 1.00 − 0.852').toBe(281_480);
    const split = at(result, 4);
    expect([split.type, split.symbol, split.quantity, split.previousSymbol]).toEqual(['SPLIT', 'USO200717P00002000', 0, undefined]);
  });

  it('an unknown Money Movement sub type becomes OTHER with a warning naming the line', () => {
    const text = load('tastytrade_v2_20col_spreads_rolls_binnaculum.csv').replace('Balance Adjustment', 'Mystery Credit');
    const result = parse(text);
    expect(at(result, 9).type).toBe('OTHER');
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.line).toBe(9);
  });
});

describe('tastytrade importer: legacy tastyworks layout (self-written fixture)', () => {
  const text = load('tastytrade_legacy_tastyworks_selfwritten.csv');
  const result = parse(text);

  it('detects and parses it', () => {
    expectDetectedClean(tastytradeImporter, text, result);
    expect(result.rows).toBe(15);
    expect(result.transactions, 'the symbol-change pair is one transaction').toHaveLength(14);
  });

  it('pins the UVXY put (line 13): Fees include commissions, Amount is gross, time read as New York', () => {
    const tx = at(result, 13);
    expect(tx.type).toBe('SELL_TO_OPEN');
    expect(tx.symbol).toBe('UVXY210129P00014500');
    expect(tx.priceMinor, 'Price column 0.56').toBe(5_600);
    expect(tx.feesMinor, 'Fees 1.152').toBe(11_520);
    expect(tx.commissionMinor).toBe(0);
    expect(tx.amountMinor, '56 − 1.152').toBe(548_480);
    expect(tx.tradeDate, '7:31 PM EST = 00:31 UTC next day').toBe('2021-01-30T00:31:00.000Z');
    expect(tx.accountName, 'Account Reference column').toBe('Individual...39');
    expect(tx.orderId).toBeNull();
  });

  it('assignment + stock BUY at the strike, expiration, symbol change, dividend withholding', () => {
    expect([at(result, 10).type, at(result, 10).symbol]).toEqual(['ASSIGNMENT', 'VGAC210319P00017500']);
    expect([at(result, 9).type, at(result, 9).quantity, at(result, 9).priceMinor]).toEqual(['BUY', 100, 175_000]);
    expect(at(result, 12).type).toBe('EXPIRATION');
    expect([at(result, 2).type, at(result, 2).symbol, at(result, 2).previousSymbol]).toEqual(['SYMBOL_CHANGE', 'ME', 'VGAC']);
    expect([at(result, 5).type, at(result, 5).amountMinor]).toEqual(['DIVIDEND', -30_000]);
  });

  it('Σ amountMinor equals Σ (Amount − Fees)', () => {
    const expected = rawRows(text).reduce((s, row) => s + minorOf(row.Amount ?? '') - minorOf(row.Fees ?? ''), 0);
    expect(sumAmounts(result)).toBe(expected);
  });
});
