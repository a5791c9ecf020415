/** The /v1 JSON of corporate actions (GET /journal/corporate-actions): per-share cash in currency units, unrounded. */
import type { CorporateActionJsonT, CorporateActionsResponseT } from '../../../src-shared/api/corporate-action-schemas';
import { minorToUnits } from '../../../src-shared/money';
import type { ListedAction } from '../../services/journal/corporate-actions';
import type { Pagination } from '../../services/journal/values';

export function presentCorporateAction(action: ListedAction): CorporateActionJsonT {
  const { terms } = action;
  return {
    id: action.id,
    source: action.source,
    importId: action.importId,
    transactionId: action.transactionId,
    accountId: action.accountId,
    accountName: action.accountName,
    date: action.date,
    type: terms.type,
    symbol: terms.symbol,
    newSymbol: terms.newSymbol,
    ratio: terms.ratio,
    cashPerShare: terms.cashPerShareMinor === null ? null : minorToUnits(terms.cashPerShareMinor),
    costFraction: terms.costFraction,
    quantity: terms.quantity,
    note: action.note,
    outcome: action.outcome,
    appliedTo: action.appliedTo,
  };
}

export function presentCorporateActions(list: { actions: ListedAction[]; pagination: Pagination }): CorporateActionsResponseT {
  return { corporateActions: list.actions.map(presentCorporateAction), pagination: list.pagination };
}
