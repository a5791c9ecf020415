/** The /v1 JSON of imports (with their kind) and of the import-format preview: transactions with their lines, money rounded to cents once. */
import { MANUAL_SOURCE, type ImportKind } from '../../../src-shared/api/constants';
import type { ImportFormatPreviewResponseT, ImportReport, PreviewTransactionJson } from '../../../src-shared/api/schemas';
import type { ImportRecord } from '../../services/journal/service';
import type { ParsedRow } from '../../importers/types';
import type { FormatPreview } from '../../services/journal/import-formats';
import { presentTransaction } from './journal';
import { presentReconciliationRow } from './reconciliation';

/** A parsed (not stored) transaction as the journal presents a stored one, with its line instead of its ids. */
export function presentPreviewTransaction({ line, transaction }: ParsedRow): PreviewTransactionJson {
  const { id: _id, accountId: _accountId, tradeDay: _tradeDay, importId: _importId, realizedPL: _realizedPL, ...fields } = presentTransaction({ ...transaction, id: '', accountId: '', tradeDay: '', importId: 0 }, null);
  return { line, ...fields };
}

export function presentFormatPreview(preview: FormatPreview): ImportFormatPreviewResponseT {
  return { ...preview, preview: preview.preview === null ? null : { ...preview.preview, transactions: preview.preview.transactions.map(presentPreviewTransaction) } };
}

/** An import's record with its kind, told by its broker (manual entries and the demo are imports of their own broker). */
export function presentImport(record: ImportRecord): ImportReport {
  const kind: ImportKind = record.broker === MANUAL_SOURCE ? 'manual' : record.broker === 'demo' ? 'demo' : 'file';
  const rows = record.reconciliation ?? [];
  return {
    ...record,
    kind,
    openedBeforeHistory: record.openedBeforeHistory ?? 0,
    // A record without them (an import whose file stated nothing, one stored before issue 28) is ready.
    status: record.status ?? 'ready',
    reconciliation: rows.map(presentReconciliationRow),
    reconciliationCount: record.reconciliationCount ?? rows.length,
    reconciliationDiffers: record.reconciliationDiffers ?? rows.filter((row) => !row.ok).length,
    acknowledgedAt: record.acknowledgedAt ?? null,
  };
}
