/** The /v1 JSON of reconciliation (docs/journal.md §Reconciliation): minor units to the currency's cents, once. */
import type { ReconcileResponseT, ReconciliationRowJson, ReconciliationsResponseT, PositionDifferenceJson } from '../../../src-shared/api/schemas';
import type { PositionDifference, ReconciliationRow } from '../../../src-shared/journal/reconciliation';
import { asMinor, centsOrNull, minorToCents } from '../../../src-shared/money';
import type { AssertionState, ReconcileAnswer } from '../../services/journal/balance-assertions';

/** A figure beside the journal's: money in the currency (cents), a position in units. */
export function presentReconciliationRow(row: ReconciliationRow): ReconciliationRowJson {
  const money = row.what !== 'position';
  const value = (n: number) => (money ? minorToCents(asMinor(n)) : n);
  return {
    what: row.what,
    label: row.label,
    line: row.line,
    asOf: row.asOf,
    from: row.from,
    currency: row.currency,
    account: row.accountName,
    accountId: row.accountId,
    symbol: row.symbol,
    unit: money ? 'money' : 'units',
    broker: value(row.broker),
    journal: value(row.journal),
    difference: value(row.difference),
    ok: row.ok,
    note: row.note,
    assertionId: row.assertionId,
  };
}

function presentDifference(d: PositionDifference): PositionDifferenceJson {
  const side = (s: { quantity: number; costMinor: number | null } | null) => (s === null ? null : { quantity: s.quantity, cost: centsOrNull(s.costMinor === null ? null : asMinor(s.costMinor)) });
  return {
    kind: d.kind,
    symbol: d.symbol,
    underlying: d.underlying,
    isOption: d.isOption,
    expiration: d.expiration,
    strike: d.strike,
    right: d.right,
    multiplier: d.multiplier,
    currency: d.currency,
    accountId: d.accountId,
    accountName: d.accountName,
    broker: side(d.broker),
    journal: side(d.journal),
    fix: d.fix,
  };
}

export function presentReconcile(answer: ReconcileAnswer): ReconcileResponseT {
  return { ...answer, differences: answer.differences.map(presentDifference) };
}

export function presentAssertions(states: readonly AssertionState[]): ReconciliationsResponseT {
  return { reconciliations: states.map((s) => ({ ...s, differences: s.differences.map(presentDifference) })) };
}
