/**
 * The Corporate Actions section of an IBKR Activity Statement (issue 28), self-written in IBKR's columns
 * (test/fixtures/brokers/ibkr_activity_corporate_actions_selfwritten.csv): AAPL's 4-for-1 split with a short put open,
 * FTV's Vontier spin-off, CCIV's merger into LCID. The statement's own Realized P/L column states the figure of each
 * closing trade; the journal's agrees with it (and with the hand computations in the comments).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIbkrActivity } from '../../../../../src-main/importers/ibkr/activity';
import { ledgerOf, stored } from '../../../../journal-helpers';
import { REPO_ROOT } from '../../../../helper';

const text = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/ibkr_activity_corporate_actions_selfwritten.csv'), 'utf8');
const result = parseIbkrActivity(text, {});
const rows = stored(result.transactions.map((row) => row.transaction));

describe('IBKR Corporate Actions', () => {
  it('reads each action with the terms its description states', () => {
    expect(result.errors).toEqual([]);
    const actions = result.transactions.map((r) => r.transaction).filter((tx) => tx.corporateAction !== undefined);
    expect(actions.map((tx) => [tx.type, tx.corporateAction?.type, tx.corporateAction?.symbol, tx.corporateAction?.newSymbol, tx.corporateAction?.ratio, tx.tradeDate.slice(0, 10)])).toEqual([
      ['SPLIT', 'split', 'AAPL', null, 4, '2020-08-31'],
      ['SPLIT', 'spinoff', 'FTV', 'VNT', 0.2, '2020-10-09'],
      ['SYMBOL_CHANGE', 'merger', 'CCIV', 'LCID', 1, '2021-07-26'],
    ]);
    expect(result.merged.map((m) => m.lines), 'the merger’s two rows as one').toEqual([[25, 26]]);
    expect(result.warnings.map((w) => w.message).join('\n')).toContain('spin-off of VNT from FTV');
  });

  it('every closing trade realizes what the statement states in its Realized P/L column', () => {
    const ledger = ledgerOf(rows);
    const realized = (symbol: string) => rows.filter((tx) => tx.symbol === symbol).reduce((sum, tx) => sum + (ledger.realizedByTx.get(tx.id) ?? 0), 0) / 10_000;
    // AAPL: 100 @ 400 + 1 = 40,001 → 400 shares; 200 sold @ 125 − 1: 25,000 − 20,000.50 − 1.
    expect(realized('AAPL'), 'statement: 4,998.50').toBe(4998.5);
    // The 380 put became 4 × the 95 put: 1,000 − 1 sold, 4 × 0.50 × 100 + 1 bought back.
    expect(realized('AAPL200918P00095000'), 'statement: 798').toBe(798);
    // VNT: no cost split stated: the 20 shares start at zero, their sale realizes its proceeds.
    expect(realized('VNT'), 'statement: 760').toBe(760);
    // CCIV 100 @ 20 + 1 → LCID 100; 2,500 − 2,001 − 1.
    expect(realized('LCID'), 'statement: 498').toBe(498);
    expect(ledger.warnings).toEqual({ unmatchedCloses: 0, unmatchedSettlements: 0, openedAgainstOpposite: 0, corporateActionsWithoutLots: 0 });
    expect(ledger.positions.map((p) => `${p.symbol} ${p.quantity}`).sort(), 'what the statement leaves open').toEqual(['AAPL 200', 'FTV 100']);
  });
});
