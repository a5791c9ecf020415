/**
 * The pure rules of reconciliation (src-shared/journal/reconciliation.ts, docs/journal.md §Reconciliation): what
 * agrees, which rows a statement adds up, which ratios are a corporate action, which file account is a journal
 * account, and the differences of a positions file with the book, each with its fix. Every figure written out here.
 */
import { describe, expect, it } from 'vitest';
import {
  agrees,
  cashTotalMinor,
  cleanRatio,
  commissionsMinor,
  comparePositions,
  inStatementScope,
  reconciliationRow,
  sameAccount,
  type BookPosition,
  type BrokerPosition,
  type ScopedRow,
} from '../../../../src-shared/journal/reconciliation';
import type { FileStatement } from '../../../../src-shared/journal/statements';

const statement = (fields: Partial<FileStatement>): FileStatement => ({
  what: 'cash_total',
  label: 'Total',
  line: 1,
  asOf: '2025-03-31T23:59:59.999Z',
  from: '2025-01-01T00:00:00.000Z',
  currency: 'USD',
  accountName: null,
  rows: 'all',
  valueMinor: 0,
  symbol: null,
  quantity: null,
  costMinor: null,
  ...fields,
});

const row = (fields: Partial<ScopedRow>): ScopedRow => ({ type: 'BUY', isOption: false, symbol: 'AAPL', currency: 'USD', tradeDate: '2025-02-01T16:00:00.000Z', amountMinor: -10_000, commissionMinor: 0, feesMinor: 0, ...fields });

describe('what agrees', () => {
  it('money within 0.01 of the currency (100 minor units), either side; quantities exactly', () => {
    expect([agrees('cash_total', 100), agrees('cash_total', -100), agrees('cash_total', 101), agrees('realized_pl', -101)]).toEqual([true, true, false, false]);
    expect([agrees('position', 0), agrees('position', 1e-12), agrees('position', 0.0001)]).toEqual([true, true, false]);
  });

  it('a row: difference = journal − broker; a position compares its quantity', () => {
    expect(reconciliationRow(statement({ valueMinor: 38_785_200 }), 38_786_200)).toMatchObject({ broker: 38_785_200, journal: 38_786_200, difference: 1_000, ok: false });
    expect(reconciliationRow(statement({ what: 'position', valueMinor: null, quantity: 44.640576, symbol: 'VTI' }), 44.640575999999996)).toMatchObject({ difference: 0, ok: true });
  });
});

describe('the rows a money statement adds up', () => {
  it('its currency, its period (both ends included), its instrument and its kind of rows', () => {
    const s = statement({ rows: 'options', symbol: null });
    expect(inStatementScope(row({ type: 'SELL_TO_OPEN', isOption: true }), s)).toBe(true);
    expect(inStatementScope(row({ type: 'EXPIRATION', isOption: true }), s), 'settlements are trade rows').toBe(true);
    expect(inStatementScope(row({ type: 'BUY' }), s), 'shares are not options').toBe(false);
    expect(inStatementScope(row({ type: 'DIVIDEND' }), statement({ rows: 'stocks' })), 'a dividend is no trade row').toBe(false);
    expect(inStatementScope(row({ type: 'DIVIDEND' }), statement({ rows: 'all' }))).toBe(true);
    expect(inStatementScope(row({ currency: 'EUR' }), statement({}))).toBe(false);
    expect(inStatementScope(row({ tradeDate: '2025-03-31T23:59:59.999Z' }), statement({}))).toBe(true);
    expect(inStatementScope(row({ tradeDate: '2025-04-01T00:00:00.000Z' }), statement({}))).toBe(false);
    expect(inStatementScope(row({ tradeDate: '2024-12-31T23:59:59.999Z' }), statement({}))).toBe(false);
    expect(inStatementScope(row({ tradeDate: '1990-01-01T00:00:00.000Z' }), statement({ from: null })), 'from null: the file’s first row on').toBe(true);
    expect(inStatementScope(row({ symbol: 'KO' }), statement({ symbol: 'AAPL' }))).toBe(false);
  });

  it('a cash total leaves out the rows an importer inferred (no row of the file); commissions add commission and fees as a cost', () => {
    const rows = [row({ amountMinor: -123_400, commissionMinor: 6_500, feesMinor: 200 }), row({ amountMinor: 124_000, inferred: true }), row({ amountMinor: 50_000, feesMinor: 100 })];
    // −12.34 + 5.00, the inferred 12.40 left out.
    expect(cashTotalMinor(rows, statement({}))).toBe(-73_400);
    // 0.65 + 0.02 + 0.01.
    expect(commissionsMinor(rows, statement({ what: 'commissions' }))).toBe(6_800);
  });
});

describe('corporate-action ratios and accounts', () => {
  it('p/q with the smaller at most 4 and the larger at most 100', () => {
    expect([2, 3, 1.5, 0.1, 0.04, 10, 1 / 3, 1.25].map(cleanRatio)).toEqual([true, true, true, true, true, true, true, true]);
    expect([1, 1.1, 10 / 11, 0.99, 101, 7 / 5, 0].map(cleanRatio)).toEqual([false, false, false, false, false, false, false]);
  });

  it('a file account is a journal account by its name, or by the last digits of a masked number', () => {
    expect(sameAccount('Individual ...4821', 'individual ...4821')).toBe(true);
    expect(sameAccount('Individual ...4821', 'Individual Brokerage -4821')).toBe(true);
    expect(sameAccount('XXXX-1234', 'Individual ...234')).toBe(true);
    expect(sameAccount('Individual ...4821', 'Roth IRA ...7300')).toBe(false);
    expect(sameAccount('IRA', 'Brokerage')).toBe(false);
    expect(sameAccount('U12', 'U9912'), 'two digits say nothing').toBe(false);
  });
});

describe('a positions file against the book', () => {
  const instrument = { underlying: 'AAPL', isOption: false, expiration: null, strike: null, right: null, multiplier: 1, currency: 'USD' } as const;
  const broker = (symbol: string, quantity: number, costMinor: number | null = null, account: string | null = null): BrokerPosition => ({ ...instrument, symbol, underlying: symbol, quantity, costMinor, line: 2, account });
  const book = (symbol: string, quantity: number, costMinor: number, accountId = 'acc_a'): BookPosition => ({ ...instrument, symbol, underlying: symbol, quantity, costMinor, accountId, accountName: accountId === 'acc_a' ? 'Individual ...4821' : 'Other' });
  const accounts = [
    { id: 'acc_a', name: 'Individual ...4821' },
    { id: 'acc_b', name: 'Other' },
  ];
  const asOf = '2025-04-01T03:59:59.999Z';

  it('sums each instrument over the accounts in scope; a cost compares by its size (brokers sign a short’s either way)', () => {
    const result = comparePositions([broker('AAPL', 30, 540_000), broker('AAPL', 20, 360_000), broker('KO', -1, 19_895)], [book('AAPL', 50, 900_000), book('KO', -1, -19_895)], { asOf, accountId: null, accounts });
    expect(result).toEqual({ matched: 2, differences: [] });
  });

  it('an opening the book lacks goes before the first close the history lacks it for (a minute before), else at asOf', () => {
    const firstUnmatched = new Map([['acc_a|USD|MSFT', '2025-03-10T14:30:00.000Z']]);
    const result = comparePositions([broker('MSFT', 10, 40_000_000), broker('KO', 5)], [book('AAPL', 1, 10_000)], { asOf, accountId: 'acc_a', accounts, firstUnmatched });
    const msft = result.differences.find((d) => d.symbol === 'MSFT');
    // 4,000 for 10 shares: 400 a share.
    expect(msft?.fix).toMatchObject({ kind: 'add_opening', needsPrice: false, accountId: 'acc_a', transactions: [{ type: 'BUY', quantity: 10, price: 400, date: '2025-03-10T14:29:00.000Z', accountId: 'acc_a' }] });
    expect(result.differences.find((d) => d.symbol === 'KO')?.fix).toMatchObject({ kind: 'add_opening', needsPrice: true, transactions: [{ date: asOf }] });
  });

  it('the account of a fix: the one reconciled, else the one holding it, else the file’s if it names a journal account, else the only one; otherwise none', () => {
    const held = comparePositions([], [book('KO', 5, 30_000, 'acc_b')], { asOf, accountId: null, accounts });
    expect(held.differences[0]?.fix.accountId).toBe('acc_b');
    const named = comparePositions([broker('MSFT', 1, null, 'Individual Brokerage -4821')], [], { asOf, accountId: null, accounts });
    expect(named.differences[0]?.fix.accountId).toBe('acc_a');
    const unknown = comparePositions([broker('MSFT', 1)], [], { asOf, accountId: null, accounts });
    expect(unknown.differences[0]?.fix).toMatchObject({ accountId: null, transactions: [{ type: 'BUY' }] });
    expect(unknown.differences[0]?.fix.transactions[0]).not.toHaveProperty('accountId');
  });

  it('a short held on the other side is no opening or closing: review', () => {
    const result = comparePositions([broker('XYZ', 100)], [book('XYZ', -100, -500_000)], { asOf, accountId: 'acc_a', accounts });
    expect(result.differences[0]).toMatchObject({ kind: 'quantity', fix: { kind: 'review', transactions: [] } });
  });

  it('a reverse split 1-for-10 in the ratio of the shares; two renames that fit equally are left to the user', () => {
    const reverse = comparePositions([broker('USO', 10)], [book('USO', 100, 700_000)], { asOf, accountId: 'acc_a', accounts });
    expect(reverse.differences[0]?.fix).toMatchObject({ kind: 'corporate_action', label: 'Enter a reverse split (1-for-10)', corporateAction: { type: 'split', ratio: 0.1 }, transactions: [{ type: 'SPLIT', quantity: -90 }] });
    const two = comparePositions([broker('NEWA', 100), broker('NEWB', 100)], [book('OLD', 100, 500_000)], { asOf, accountId: 'acc_a', accounts });
    expect(two.differences.map((d) => d.fix.kind)).toEqual(['add_opening', 'add_opening', 'add_closing']);
  });
});
