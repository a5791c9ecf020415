/**
 * Underlying roots in every importer (docs/importers.md §Underlying roots): each importer's own option rows, their
 * ticker rewritten to an SPX weekly root (SPXW) or an adjusted root (…1), come out with the chain's symbol as their
 * underlying (SPX; the stock), while the OCC symbol keeps the root that names the contract. The rows pass through
 * ResultCollector.add, the one place every importer hands its transactions over (withChainUnderlying).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withChainUnderlying } from '../../../../../src-main/importers/common/options';
import { ResultCollector, transaction } from '../../../../../src-main/importers/common/result';
import { parseImport } from '../../../../../src-main/importers/index';
import type { ImporterId } from '../../../../../src-main/importers/types';
import { REPO_ROOT } from '../../../../paths';
import { asTicker } from '../../../../../src-shared/ids';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'brokers');

/** A file of each importer whose options are on `ticker`. */
const SAMPLES: Array<{ importer: ImporterId; file: string; ticker: string }> = [
  { importer: 'tastytrade', file: 'tastytrade_v2_21col_PFE_binnaculum.csv', ticker: 'PFE' },
  { importer: 'tastytrade', file: 'tastytrade_legacy_tastyworks_selfwritten.csv', ticker: 'VGAC' },
  { importer: 'schwab', file: 'schwab_transactions_pfe_wheel_selfwritten.csv', ticker: 'PFE' },
  { importer: 'thinkorswim', file: 'thinkorswim_statement_pfe_wheel_selfwritten.csv', ticker: 'PFE' },
  { importer: 'ibkr', file: 'ibkr_flex_query_selfwritten.csv', ticker: 'AAPL' },
  { importer: 'ibkr', file: 'ibkr_activity_statement_selfwritten.csv', ticker: 'KWEB' },
  { importer: 'fidelity', file: 'fidelity_all_accounts_options_selfwritten.csv', ticker: 'AAPL' },
  { importer: 'robinhood', file: 'robinhood_newest_first_selfwritten.csv', ticker: 'OPEN' },
  { importer: 'etrade', file: 'etrade_transactions_selfwritten.csv', ticker: 'AAPL' },
  { importer: 'etrade', file: 'etrade_all_transactions_selfwritten.csv', ticker: 'IWM' },
  { importer: 'webull', file: 'webull_orders_selfwritten.csv', ticker: 'AAPL' },
  { importer: 'generic', file: 'generic_wheel_selfwritten.csv', ticker: 'PFE' },
];

/** The ticker as a word, or as the root of an OCC symbol (`AAPL240216C…`, `PFE   260116C…`), rewritten. */
function rename(text: string, ticker: string, root: string): string {
  return text.replace(new RegExp(`\\b${ticker}(?=\\b|\\s*\\d{6}[CP])`, 'g'), root);
}

describe('every importer: an option root is mapped to its chain’s symbol', () => {
  it.each(SAMPLES)('$importer ($file): $ticker options renamed SPXW are SPX’s, renamed with a digit are its own', ({ importer, file, ticker }) => {
    const text = readFileSync(join(FIXTURES, file), 'utf8');
    for (const [root, underlying] of [
      ['SPXW', 'SPX'],
      [`${ticker}1`, ticker],
    ] as const) {
      const parsed = parseImport(rename(text, ticker, root), importer, { asOf: new Date('2026-03-09T00:00:00Z') });
      if (!parsed.ok) throw new Error(`${file}: ${parsed.detail}`);
      const options = parsed.result.transactions.map((row) => row.transaction).filter((tx) => tx.isOption && tx.symbol.startsWith(root));
      expect(options.length, `${file}: options on ${root}`).toBeGreaterThan(0);
      for (const tx of options) expect([tx.symbol.slice(0, root.length), tx.underlying], tx.symbol).toEqual([root, underlying]);
    }
  });
});

describe('withChainUnderlying', () => {
  const row = (symbol: string, underlying: string, isOption = true) => ({ ...transaction({ accountName: 'A', brokerRowId: '1', type: 'SELL_TO_OPEN', tradeDate: '2024-01-02T15:00:00.000Z', source: 'x', symbol }), underlying: asTicker(underlying), isOption });

  it('maps the weekly and PM index roots and an adjusted root; keeps a broker’s own underlying; leaves shares and futures options alone', () => {
    const cases: Array<[string, string, boolean, string]> = [
      ['SPXW240119P04700000', 'SPXW', true, 'SPX'],
      ['SPXPM240119P04700000', 'SPXPM', true, 'SPX'],
      ['NDXP240119C17000000', 'NDXP', true, 'NDX'],
      ['RUTW240119P01900000', 'RUTW', true, 'RUT'],
      ['VIXW240117C00015000', 'VIXW', true, 'VIX'],
      ['AMD1240119P00075000', 'AMD1', true, 'AMD'],
      // The root is the only name the row has: the underlying comes from it.
      ['SPXW240119P04700000', '', true, 'SPX'],
      // A broker that says the underlying (IBKR's UnderlyingSymbol) is kept.
      ['AMD1240119P00075000', 'AMD', true, 'AMD'],
      ['SPX240119P04700000', 'SPX', true, 'SPX'],
      // Futures options keep their contract month's digits; shares are not options.
      ['./ESZ4 EW4Z4 241129P4600', '/ESZ4', true, '/ESZ4'],
      ['AMD1', 'AMD1', false, 'AMD1'],
    ];
    for (const [symbol, underlying, isOption, expected] of cases) expect(withChainUnderlying(row(symbol, underlying, isOption)).underlying, symbol).toBe(expected);
  });

  it('is applied by ResultCollector.add, the hand-over of every importer', () => {
    const out = new ResultCollector('generic', 'generic-csv', 'oldest-first');
    out.add(2, row('SPXW240119P04700000', 'SPXW'));
    expect(out.transactions.map((r) => [r.line, r.transaction.symbol, r.transaction.underlying])).toEqual([[2, 'SPXW240119P04700000', 'SPX']]);
  });
});
