/**
 * The real avion23 tastytrade history (2018–2024) through its corporate actions (issue 28): the USO reverse split of
 * 2020 (only the options' rows: USO → USO1), the SPRT → GREE1 stock merger of a short put, the VIAC → PARA symbol
 * change of a short put. Before, the USO1 closes found no lots (2 unmatched closes, 2 actions without lots) and the
 * renamed puts opened a second campaign; now every close matches and each story is one campaign. Figures by hand
 * from the file's rows.
 */
import { describe, expect, it } from 'vitest';
import { buildTrades } from '../../../../../src-shared/journal/trades';
import { ledgerOf, loadRealBrokerFile } from '../../../../journal-helpers';

const rows = loadRealBrokerFile('tastytrade_v2_20col_history_2018-2024_avion23.csv');
const ledger = ledgerOf(rows);
const realizedOf = (symbols: readonly string[]) => rows.filter((tx) => symbols.includes(tx.symbol)).reduce((sum, tx) => sum + (ledger.realizedByTx.get(tx.id) ?? 0), 0) / 10_000;

describe('avion23’s history through its corporate actions', () => {
  it('every close finds its lot; every action something to change', () => {
    expect(ledger.warnings).toEqual({ unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 });
    expect([...ledger.actionOutcomes.values()].every((outcome) => outcome === 'applied')).toBe(true);
  });

  it('USO → USO1 (reverse split, options only): the USO1 closes realize against the USO lots', () => {
    // 3.50 put: 648.00 sold − 6.86 costs, 378.00 + 0.83 bought back = 262.31; 2.00 put: 30.00 − 0.85 sold, 174.00 +
    // 6.83 bought = −151.68. Together 110.63 (the USO slice's own file: 108.63 with its different fees).
    expect(realizedOf(['USO200717P00003500', 'USO1200717P00003500', 'USO200717P00002000', 'USO1200717P00002000']), '262.31 − 151.68').toBe(110.63);
    expect(ledger.deliverables.get('USO1200717P00003500'), 'the broker named the adjusted root; the file states no terms').toEqual({ root: 'USO1', shares: null, cashMinor: 0 });
  });

  it('VIAC → PARA: the put sold as VIAC and bought back as PARA is one campaign and one trade', () => {
    const para = ledger.campaigns.filter((c) => c.underlying === 'PARA');
    expect(para.map((c) => [c.openDay, c.closeDay])).toEqual([['2022-02-16', '2022-02-18']]);
    // 2 × 2.60 × 100 − 2.27 costs, 2 × 2.20 × 100 + 0.26 bought back.
    expect(para[0]?.realizedMinor, '520 − 2.27 − 440 − 0.26').toBe(774_700);
    const trades = buildTrades(rows).trades.filter((t) => t.legs.some((leg) => leg.symbol === 'PARA220401P00029000'));
    expect(trades.map((t) => [t.status, t.pnlMinor])).toEqual([['closed', 774_700]]);
  });

  it('SPRT → GREE1 (stock merger): the put sold on SPRT is assigned as GREE1 in the campaign that opened it', () => {
    const gree = ledger.campaigns.filter((c) => c.underlying === 'GREE' && c.openDay === '2021-09-09');
    expect(gree, 'opened by the SPRT put, renamed GREE').toHaveLength(1);
    // 6 × 5.60 × 100 − 6.82 costs; the assignment closes it at 0.
    expect(realizedOf(['SPRT210917P00022000', 'GREE1210917P00022000']), '3,360 − 6.82').toBe(3353.18);
  });
});
