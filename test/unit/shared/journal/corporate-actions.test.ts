/**
 * Corporate actions (DESIGN §5, docs/journal.md §Corporate actions), each case computed by hand in its comments: the
 * quantities and basis of each lot after the action, the realized P&L of a later sale, an open option's adjusted
 * contract and deliverable, and one campaign through it. The trade walk applies the same actions to its own lots:
 * its trades and the P&L outside them add up to the ledger's realized to the minor unit.
 */
import { describe, expect, it } from 'vitest';
import { MANUAL_ACTION_SOURCE } from '../../../../src-shared/api/constants';
import { actionKeys, actionOf, adjustContract } from '../../../../src-shared/journal/corporate-actions';
import type { CorporateActionTerms, Transaction } from '../../../../src-shared/journal/model';
import { buildTrades } from '../../../../src-shared/journal/trades';
import { toMinor } from '../../../../src-shared/money';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';
import { buildLedger, resumeLedger, type Ledger, type OpenPosition } from '../../../../src-shared/journal/index';
import { firstWhere, rowsEndBy } from '../../../../src-shared/journal/checkpoints';
import { rowOrder } from '../../../../src-shared/journal/order';
import { asTicker } from '../../../../src-shared/ids';

type TermsInput = Partial<Omit<CorporateActionTerms, 'cashPerShareMinor'>> & Pick<CorporateActionTerms, 'type' | 'symbol'> & { cashPerShare?: number };

/** A corporate action on `at`: a file's SPLIT / SYMBOL_CHANGE row with its terms, or (`manual`) one entered by hand. */
function action(at: string, input: TermsInput, options: { manual?: boolean; account?: string } = {}): Transaction {
  const terms: CorporateActionTerms = {
    type: input.type,
    symbol: input.symbol,
    newSymbol: input.newSymbol ?? null,
    ratio: input.ratio ?? null,
    cashPerShareMinor: input.cashPerShare === undefined ? null : toMinor(input.cashPerShare),
    costFraction: input.costFraction ?? null,
    quantity: input.quantity ?? null,
  };
  const moves = input.type === 'symbol_change' || input.type === 'merger';
  const row = tx({
    type: moves ? 'SYMBOL_CHANGE' : 'SPLIT',
    ticker: moves && typeof input.newSymbol === 'string' ? input.newSymbol : input.symbol,
    at,
    ...(options.account === undefined ? {} : { account: options.account }),
    ...(options.manual ? { source: MANUAL_ACTION_SOURCE } : {}),
    ...(moves ? { previousSymbol: input.symbol } : {}),
  });
  return { ...row, corporateAction: terms };
}

const stockPL = (ledger: Ledger) => allTime(ledger).summary.stockPL;
const optionsPL = (ledger: Ledger) => allTime(ledger).summary.optionsPL;
const position = (ledger: Ledger, symbol: string) => ledger.positions.find((p) => p.symbol === symbol);

/** The trade walk agrees with the ledger: every realized minor unit is a trade's or outside every trade. */
function expectTradesAgree(rows: readonly Transaction[], ledger: Ledger): void {
  const book = buildTrades(rows);
  const inTrades = book.trades.reduce((sum, trade) => sum + (trade.pnlMinor ?? 0), 0);
  const outside = [...book.outsideByTx.values()].reduce((a, b) => a + b, 0);
  const realized = [...ledger.realizedByTx.values()].reduce((a, b) => a + b, 0);
  expect(inTrades + outside, 'trades + outside = the ledger’s realized').toBe(realized);
}

describe('a forward split (2-for-1) with a short put open', () => {
  const rows = [
    tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 50, commission: 1, at: '2024-03-01T10:00' }),
    tx({ type: 'BUY', ticker: 'ABC', quantity: 50, price: 60, at: '2024-04-01T10:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: { expiration: '2024-06-21', strike: 45, right: 'P' }, quantity: 1, price: 2, at: '2024-04-15T10:00' }),
    action('2024-05-01T16:00', { type: 'split', symbol: 'ABC', ratio: 2 }),
  ];

  it('doubles each lot, keeps its basis and opening day; the put becomes 2 contracts at 22.50', () => {
    const ledger = ledgerOf(rows);
    const shares = position(ledger, 'ABC');
    expect(shares?.quantity, '150 × 2').toBe(300);
    // 100 × 50 + 1 commission + 50 × 60 = 8,001.00 for all 300 shares.
    expect((shares?.entryGrossMinor ?? 0) + (shares?.entryCostsMinor ?? 0), '5,001 + 3,000').toBe(toMinor(8001));
    expect(shares?.openedDay, 'the first lot’s day').toBe('2024-03-01');
    const put = position(ledger, 'ABC240621P00022500');
    expect(put?.quantity, '−1 contract × 2').toBe(-2);
    expect(put?.strike, '45 ÷ 2').toBe(22.5);
    expect(put?.entryGrossMinor, 'the 200.00 credit stays').toBe(toMinor(200));
    expect(put?.deliverable, 'standard again: 100 shares a contract').toBeUndefined();
    expect(ledger.actionOutcomes.get(rows[3]?.id ?? ''), 'applied').toBe('applied');
  });

  it('a sale after it matches the split lots FIFO; the adjusted put closes against its credit; one campaign', () => {
    const all = [
      ...rows,
      tx({ type: 'SELL', ticker: 'ABC', quantity: 250, price: 30, at: '2024-05-10T10:00' }),
      tx({ type: 'BUY_TO_CLOSE', ticker: 'ABC', option: { expiration: '2024-06-21', strike: 22.5, right: 'P' }, quantity: 2, price: 0.1, at: '2024-05-20T10:00' }),
    ];
    const ledger = ledgerOf(all);
    // Lot 1: 200 shares × 30 − 5,001 = 999.00; lot 2: 50 of its 100 shares, 1,500 − 1,500 = 0.
    expect(stockPL(ledger), '6,000 − 5,001 + 1,500 − 1,500').toBe(999);
    // 200 credit − 2 × 0.10 × 100 = 180.
    expect(optionsPL(ledger), '200 − 20').toBe(180);
    const left = position(ledger, 'ABC');
    expect(left?.quantity, '300 − 250').toBe(50);
    expect(left?.entryGrossMinor, 'half of lot 2: 1,500').toBe(toMinor(1500));
    expect(left?.openedDay, 'lot 2 kept its day').toBe('2024-04-01');
    expect(ledger.warnings.unmatchedCloses).toBe(0);
    expect(ledger.campaigns.filter((c) => c.underlying === 'ABC'), 'one campaign through the split').toHaveLength(1);
    expectTradesAgree(all, ledger);
  });
});

describe('a reverse split (1-for-10) with a fraction paid in cash, and a short call adjusted to a deliverable of 10 shares', () => {
  const rows = [
    tx({ type: 'BUY', ticker: 'XYZ', quantity: 105, price: 2, at: '2024-02-01T10:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'XYZ', option: { expiration: '2024-09-20', strike: 3, right: 'C' }, quantity: 1, price: 0.5, at: '2024-02-02T10:00' }),
    action('2024-03-04T16:00', { type: 'split', symbol: 'XYZ', ratio: 0.1, cashPerShare: 4 }),
    tx({ type: 'SELL', ticker: 'XYZ', quantity: 10, price: 25, at: '2024-03-05T10:00' }),
    tx({ type: 'BUY_TO_CLOSE', ticker: 'XYZ1', option: { expiration: '2024-09-20', strike: 3, right: 'C' }, quantity: 1, price: 0.1, at: '2024-03-06T10:00' }),
  ];

  it('105 shares become 10.5; the half share is sold at 4.00 a share against its basis; 10 shares keep 200.00', () => {
    const ledger = ledgerOf(rows.slice(0, 3));
    const shares = position(ledger, 'XYZ');
    expect(shares?.quantity, '10.5 − 0.5 sold').toBeCloseTo(10, 12);
    // Basis 210.00 over 10.5 new shares: the half share carries 10.00 of it, sold for 0.5 × 4.00 = 2.00.
    expect(shares?.entryGrossMinor, '210 − 10').toBe(toMinor(200));
    expect(stockPL(ledger), '2.00 − 10.00').toBe(-8);
    const call = position(ledger, 'XYZ1240920C00003000');
    expect(call?.quantity, 'one contract, strike unchanged').toBe(-1);
    expect(call?.strike).toBe(3);
    expect(call?.deliverable, 'ratio × 100 = 10 shares, under the adjusted root XYZ1').toEqual({ root: 'XYZ1', shares: [{ symbol: 'XYZ', quantity: 10 }], cashMinor: 0 });
  });

  it('the sale of the 10 shares and the close of the adjusted call realize against the carried basis and credit', () => {
    const ledger = ledgerOf(rows);
    // −8.00 (the fraction) + 10 × 25 − 200 = 42.00.
    expect(stockPL(ledger), '−8 + 250 − 200').toBe(42);
    // 0.50 × 100 − 0.10 × 100.
    expect(optionsPL(ledger), '50 − 10').toBe(40);
    expect(ledger.positions, 'flat').toEqual([]);
    expect(ledger.warnings.unmatchedCloses).toBe(0);
    expect(ledger.campaigns.filter((c) => c.underlying === 'XYZ')).toHaveLength(1);
    expectTradesAgree(rows, ledger);
  });
});

describe('a merger for shares and cash', () => {
  const buys = [
    tx({ type: 'BUY', ticker: 'OLD', quantity: 100, price: 40, at: '2024-01-10T10:00' }),
    tx({ type: 'BUY', ticker: 'OLD', quantity: 100, price: 20, at: '2024-02-12T10:00' }),
  ];

  it('with costFraction 0.8: the cash part (10.00 a share) is a sale against 20% of each lot’s basis', () => {
    const rows = [
      ...buys,
      action('2024-06-03T16:00', { type: 'merger', symbol: 'OLD', newSymbol: 'NEW', ratio: 0.5, cashPerShare: 10, costFraction: 0.8 }),
      tx({ type: 'SELL', ticker: 'NEW', quantity: 100, price: 50, at: '2024-06-10T10:00' }),
    ];
    const ledger = ledgerOf(rows.slice(0, 3));
    // Lot 1: cash 1,000, basis 4,000: 800 goes with the cash → realized 200, 50 NEW keep 3,200.
    // Lot 2: cash 1,000, basis 2,000: 400 → realized 600, 50 NEW keep 1,600.
    expect(stockPL(ledger), '200 + 600').toBe(800);
    const shares = position(ledger, 'NEW');
    expect(shares?.quantity, '200 × 0.5').toBe(100);
    expect(shares?.entryGrossMinor, '3,200 + 1,600').toBe(toMinor(4800));
    expect(shares?.openedDay, 'the first lot’s day').toBe('2024-01-10');
    expect(position(ledger, 'OLD'), 'no old shares left').toBeUndefined();
    const after = ledgerOf(rows);
    // 100 × 50 − 4,800 = 200; with the merger's 800: 1,000 = cash 2,000 + 5,000 − cost 6,000.
    expect(stockPL(after), '800 + 200 = 2,000 + 5,000 − 6,000').toBe(1000);
    expectTradesAgree(rows, after);
  });

  it('without costFraction the cash takes as much basis as it returns: a lot cheaper than the cash realizes the rest', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'OLD', quantity: 100, price: 5, at: '2024-01-10T10:00' }),
      tx({ type: 'BUY', ticker: 'OLD', quantity: 100, price: 20, at: '2024-02-12T10:00' }),
      action('2024-06-03T16:00', { type: 'merger', symbol: 'OLD', newSymbol: 'NEW', ratio: 0.5, cashPerShare: 10 }),
    ];
    const ledger = ledgerOf(rows);
    // Lot 1: cash 1,000 beyond its basis of 500 → realized 500, basis 0. Lot 2: basis 2,000 − 1,000 = 1,000, realized 0.
    expect(stockPL(ledger), '1,000 − 500').toBe(500);
    expect(position(ledger, 'NEW')?.entryGrossMinor, '0 + 1,000').toBe(toMinor(1000));
  });

  it('a merger for cash alone sells the shares at the cash', () => {
    const rows = [...buys, action('2024-06-03T16:00', { type: 'merger', symbol: 'OLD', cashPerShare: 35 })];
    const ledger = ledgerOf(rows);
    expect(stockPL(ledger), '200 × 35 − 6,000').toBe(1000);
    expect(ledger.positions).toEqual([]);
  });

  it('an open put on the old ticker delivers 50 NEW and 1,000.00 cash under the adjusted root NEW1', () => {
    const rows = [
      ...buys,
      tx({ type: 'SELL_TO_OPEN', ticker: 'OLD', option: { expiration: '2024-07-19', strike: 30, right: 'P' }, quantity: 1, price: 1.2, at: '2024-05-01T10:00' }),
      action('2024-06-03T16:00', { type: 'merger', symbol: 'OLD', newSymbol: 'NEW', ratio: 0.5, cashPerShare: 10 }),
    ];
    const ledger = ledgerOf(rows);
    const put = position(ledger, 'NEW1240719P00030000');
    expect(put?.quantity).toBe(-1);
    expect(put?.underlying).toBe('NEW');
    expect(put?.deliverable, '0.5 × 100 shares and 10.00 × 100 cash').toEqual({ root: 'NEW1', shares: [{ symbol: 'NEW', quantity: 50 }], cashMinor: toMinor(1000) });
    expect(ledger.campaigns.filter((c) => c.underlying === 'NEW'), 'the campaign goes on under the new name').toHaveLength(1);
    expect(ledger.campaigns.filter((c) => c.underlying === 'OLD')).toHaveLength(0);
  });
});

describe('a stock dividend and free shares: shares at zero cost', () => {
  it('a 5% stock dividend on 110 shares: 5 shares at zero cost, the half share paid at 12.00', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'DIV', quantity: 110, price: 10, at: '2024-01-10T10:00' }),
      action('2024-04-01T16:00', { type: 'stock_dividend', symbol: 'DIV', ratio: 0.05, cashPerShare: 12 }),
    ];
    const ledger = ledgerOf(rows);
    const shares = position(ledger, 'DIV');
    expect(shares?.quantity, '110 + 5').toBe(115);
    expect(shares?.entryGrossMinor, 'the 1,100 of the bought shares; the 5 new ones cost nothing').toBe(toMinor(1100));
    expect(stockPL(ledger), 'the half share’s cash, against no basis: 0.5 × 12').toBe(6);
    const sold = ledgerOf([...rows, tx({ type: 'SELL', ticker: 'DIV', quantity: 115, price: 12, at: '2024-04-10T10:00' })]);
    expect(stockPL(sold), '6 + 115 × 12 − 1,100').toBe(286);
  });

  it('free shares (a file states the quantity) open a lot at zero cost on their day', () => {
    const rows = [
      action('2024-05-06T16:00', { type: 'free_shares', symbol: 'HLX', quantity: 1 }),
      tx({ type: 'SELL', ticker: 'HLX', quantity: 1, price: 3.5, at: '2024-06-03T10:00' }),
    ];
    const ledger = ledgerOf(rows.slice(0, 1));
    expect(position(ledger, 'HLX')).toMatchObject({ quantity: 1, entryGrossMinor: 0, openedDay: '2024-05-06' });
    const sold = ledgerOf(rows);
    expect(stockPL(sold), 'the whole proceeds').toBe(3.5);
    expect(sold.warnings.unmatchedCloses).toBe(0);
  });
});

describe('a spin-off with costFraction', () => {
  const rows = [
    tx({ type: 'BUY', ticker: 'PAR', quantity: 100, price: 50, at: '2023-06-01T10:00' }),
    tx({ type: 'SELL_TO_OPEN', ticker: 'PAR', option: { expiration: '2024-12-20', strike: 55, right: 'C' }, quantity: 1, price: 1, at: '2024-01-02T10:00' }),
    action('2024-03-01T16:00', { type: 'spinoff', symbol: 'PAR', newSymbol: 'SPN', ratio: 0.25, costFraction: 0.2 }),
  ];

  it('20% of the basis goes to 25 SPN opened on the parent lot’s day; the call delivers 100 PAR + 25 SPN under PAR1', () => {
    const ledger = ledgerOf(rows);
    expect(position(ledger, 'PAR'), '100 shares, 5,000 − 1,000').toMatchObject({ quantity: 100, entryGrossMinor: toMinor(4000) });
    expect(position(ledger, 'SPN'), '100 × 0.25 shares with 20% of 5,000').toMatchObject({ quantity: 25, entryGrossMinor: toMinor(1000), openedDay: '2023-06-01' });
    const call = position(ledger, 'PAR1241220C00055000');
    expect(call?.deliverable).toEqual({ root: 'PAR1', shares: [{ symbol: 'PAR', quantity: 100 }, { symbol: 'SPN', quantity: 25 }], cashMinor: 0 });
    expect(stockPL(ledger), 'nothing realized by the spin-off').toBe(0);
  });

  it('later sales realize against the split basis', () => {
    const all = [...rows, tx({ type: 'SELL', ticker: 'SPN', quantity: 25, price: 45, at: '2024-03-05T10:00' }), tx({ type: 'SELL', ticker: 'PAR', quantity: 100, price: 41, at: '2024-03-06T10:00' })];
    const ledger = ledgerOf(all);
    // SPN: 25 × 45 − 1,000 = 125; PAR: 100 × 41 − 4,000 = 100.
    expect(stockPL(ledger), '125 + 100').toBe(225);
    expectTradesAgree(all, ledger);
  });
});

describe('one action, read from a file and entered by hand', () => {
  const buy = tx({ type: 'BUY', ticker: 'DUP', quantity: 100, price: 10, at: '2024-01-10T10:00' });

  it('applies once: the one entered by hand, whatever the ids; the file’s is the duplicate', () => {
    const file = action('2024-05-01T16:00', { type: 'split', symbol: 'DUP', ratio: 2 });
    const manual = action('2024-05-01T16:00', { type: 'split', symbol: 'DUP', ratio: 2 }, { manual: true });
    for (const rows of [[buy, file, manual], [manual, file, buy]]) {
      const ledger = ledgerOf(rows);
      expect(position(ledger, 'DUP')?.quantity, '100 × 2, not × 4').toBe(200);
      expect(ledger.actionOutcomes.get(manual.id)).toBe('applied');
      expect(ledger.actionOutcomes.get(file.id)).toBe('duplicate');
      expect(ledger.warnings.corporateActionsWithoutLots).toBe(0);
    }
  });

  it('a symbol change and a merger of the same ticker on the same day are one action', () => {
    const terms = actionOf(action('2024-05-01T16:00', { type: 'merger', symbol: 'OLD', newSymbol: 'NEW', ratio: 1 }));
    const other = actionOf(action('2024-05-01T16:00', { type: 'symbol_change', symbol: 'OLD', newSymbol: 'NEW' }));
    if (terms === null || other === null) throw new Error('no terms');
    expect(actionKeys('a', '2024-05-01', terms)).toEqual(actionKeys('a', '2024-05-01', other));
  });
});

describe('the start of the day', () => {
  it('an action applies before the day’s first row, whatever its own time: a morning sale of the new ticker matches', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'SPAC', quantity: 100, price: 10, at: '2024-01-10T10:00' }),
      tx({ type: 'SELL', ticker: 'NEWCO', quantity: 100, price: 12, at: '2024-03-01T09:45' }),
      action('2024-03-01T16:00', { type: 'symbol_change', symbol: 'SPAC', newSymbol: 'NEWCO' }),
    ];
    const ledger = ledgerOf(rows);
    expect(ledger.warnings.unmatchedCloses, 'the sale found the carried lot').toBe(0);
    expect(stockPL(ledger), '100 × (12 − 10)').toBe(200);
  });
});

describe('a row without terms reads as it always did', () => {
  it('a SPLIT row is the signed change of the account’s shares; a SYMBOL_CHANGE moves them as they are', () => {
    const split = tx({ type: 'SPLIT', ticker: 'ABC', quantity: 100, at: '2024-05-10T08:00' });
    expect(actionOf(split)).toMatchObject({ type: 'split', symbol: 'ABC', newSymbol: null, ratio: null, quantity: 100 });
    const change = tx({ type: 'SYMBOL_CHANGE', ticker: 'META', previousSymbol: 'FB', quantity: 10, at: '2022-06-09T08:00' });
    expect(actionOf(change)).toMatchObject({ type: 'symbol_change', symbol: 'FB', newSymbol: 'META', ratio: null });
  });

  it('an option’s row naming the adjusted contract moves the lots there and marks the root adjusted (tastytrade USO → USO1)', () => {
    const put = { expiration: '2020-07-17', strike: 3.5, right: 'P' as const };
    const old = 'USO200717P00003500';
    const rows = [
      tx({ type: 'SELL_TO_OPEN', ticker: 'USO', option: put, quantity: 6, price: 1.08, at: '2020-04-23T15:30' }),
      { ...tx({ type: 'SPLIT', ticker: 'USO', option: put, quantity: 0, at: '2020-04-29T08:34' }), symbol: 'USO1200717P00003500', previousSymbol: old },
      { ...tx({ type: 'BUY_TO_CLOSE', ticker: 'USO', option: put, quantity: 6, price: 0.63, at: '2020-05-19T11:30' }), symbol: 'USO1200717P00003500' },
    ];
    const open = ledgerOf(rows.slice(0, 2));
    expect(open.positions.map((p) => [p.symbol, p.quantity, p.deliverable?.root])).toEqual([['USO1200717P00003500', -6, 'USO1']]);
    const ledger = ledgerOf(rows);
    expect(optionsPL(ledger), '6 × 100 × (1.08 − 0.63)').toBe(270);
    expect(ledger.warnings.unmatchedCloses).toBe(0);
  });
});

describe('adjustContract (the OCC’s rules)', () => {
  const put = { symbol: 'AMD220121P00100000', underlying: asTicker('AMD'), isOption: true, expiration: '2022-01-21', strike: 100, right: 'P' as const, multiplier: 100 };
  const terms = (input: Partial<CorporateActionTerms> & Pick<CorporateActionTerms, 'type'>): CorporateActionTerms => ({ symbol: 'AMD', newSymbol: null, ratio: null, cashPerShareMinor: null, costFraction: null, quantity: null, ...input });
  const root = () => 'X1';

  it('a 3-for-2 split is no whole ratio: same contracts and strike, 150 shares delivered', () => {
    expect(adjustContract(put, null, terms({ type: 'split', ratio: 1.5 }), () => 'AMD1')).toMatchObject({ contractsFactor: 1, instrument: { strike: 100, symbol: 'AMD1220121P00100000' }, deliverable: { root: 'AMD1', shares: [{ symbol: 'AMD', quantity: 150 }] } });
  });

  it('a 4-for-1 split: 4 × the contracts at a quarter of the strike, standard', () => {
    expect(adjustContract(put, null, terms({ type: 'split', ratio: 4 }), root)).toMatchObject({ contractsFactor: 4, instrument: { strike: 25, symbol: 'AMD220121P00025000' }, deliverable: null });
  });

  it('a symbol change renames the root; free shares and a split without a ratio adjust nothing', () => {
    expect(adjustContract(put, null, terms({ type: 'symbol_change', newSymbol: 'AMDX' }), root)).toMatchObject({ instrument: { symbol: 'AMDX220121P00100000', underlying: 'AMDX' }, deliverable: null });
    expect(adjustContract(put, null, terms({ type: 'free_shares', quantity: 1 }), root)).toBeNull();
    expect(adjustContract(put, null, terms({ type: 'split', quantity: 100 }), root)).toBeNull();
  });
});

describe('the book at a past instant through corporate actions (docs/journal.md §Checkpoints)', () => {
  it('a replay from a checkpoint gives what a build of the rows up to the instant gives: positions, deliverables, campaigns', () => {
    const rows = [
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 50, at: '2024-03-01T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: { expiration: '2024-09-20', strike: 45, right: 'P' }, quantity: 1, price: 2, at: '2024-03-04T10:00' }),
      tx({ type: 'BUY', ticker: 'OLD', quantity: 100, price: 40, at: '2024-03-05T10:00' }),
      tx({ type: 'SELL_TO_OPEN', ticker: 'OLD', option: { expiration: '2024-09-20', strike: 30, right: 'P' }, quantity: 1, price: 1.2, at: '2024-03-06T10:00' }),
      action('2024-04-01T16:00', { type: 'split', symbol: 'ABC', ratio: 0.1, cashPerShare: 400 }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 1, price: 450, at: '2024-04-02T10:00' }),
      action('2024-05-01T16:00', { type: 'merger', symbol: 'OLD', newSymbol: 'NEW', ratio: 0.5, cashPerShare: 10 }, { manual: true }),
      tx({ type: 'SELL', ticker: 'NEW', quantity: 20, price: 45, at: '2024-05-02T10:00' }),
      action('2024-06-03T16:00', { type: 'spinoff', symbol: 'NEW', newSymbol: 'SPN', ratio: 0.5, costFraction: 0.25 }),
      tx({ type: 'SELL', ticker: 'SPN', quantity: 5, price: 10, at: '2024-06-04T10:00' }),
    ];
    const complete = buildLedger(rows, { reportingCurrency: 'USD', checkpointEvery: 2 });
    const cps = complete.checkpoints;
    if (cps === undefined) throw new Error('no checkpoints');
    expect(cps.checkpoints.length, 'checkpoints between the actions').toBeGreaterThan(2);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const { effectiveMs } = rowOrder(rows);
    const sorted = (positions: readonly OpenPosition[]) => [...positions].sort((a, b) => a.symbol.localeCompare(b.symbol));
    for (const day of ['2024-03-31', '2024-04-01', '2024-04-30', '2024-05-01', '2024-05-31', '2024-06-03', '2024-06-30']) {
      const asOfMs = Date.parse(`${day}T23:00:00Z`);
      const list = cps.checkpoints;
      const checkpoint = list[firstWhere(list.length, (i) => (list[i]?.lastInstantMs ?? 0) > asOfMs) - 1] ?? null;
      const replayRows = cps.ids.slice(checkpoint?.position ?? 0, rowsEndBy(cps, asOfMs)).map((id) => byId.get(id)).filter((row): row is Transaction => row !== undefined);
      const replayed = resumeLedger(complete, checkpoint, replayRows, asOfMs);
      const expected = buildLedger(rows.filter((_, i) => (effectiveMs[i] ?? 0) <= asOfMs), { reportingCurrency: 'USD' });
      expect(sorted(replayed.positions), day).toEqual(sorted(expected.positions));
      expect(replayed.campaigns.map(({ steps: _steps, ...c }) => c), day).toEqual(expected.campaigns.map(({ steps: _steps, ...c }) => c));
    }
  });
});
