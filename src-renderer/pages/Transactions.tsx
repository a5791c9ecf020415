import { useEffect, useRef, useState } from 'react';
import { PAGE_LIMIT_CAP, PAGE_LIMIT_DEFAULT, type TransactionSort } from '../../src-shared/api/constants';
import type { ApiError } from '../api/client';
import { ImportOrDemo } from '../components/DemoButton';
import { Pager } from '../components/Pager';
import { AsyncStatus, EmptyState, ErrorBanner, Options, PageFigures, PageHead, Panel } from '../components/ui';
import type { TransactionJson } from '../../src-shared/api/schemas';
import { dateInTimeZone, fmtCount, fmtInt, typeLabel } from '../format';
import { asApiError, useApi, useAsync, useRoute } from '../hooks';
import { exportTransactions } from './transactions/exportCsv';
import { EMPTY_FILTERS, isFiltered, toQuery, TransactionFilters, type Filters } from './transactions/TransactionFilters';
import { TransactionsTable } from './transactions/TransactionsTable';
import { blankState, stateOf, TransactionForm } from './transactions/TransactionForm';
import { CorporateActionsPanel } from './transactions/CorporateActionsPanel';

/** The manual-entry form: a new row, or a manual row being edited. */
type Editor = { mode: 'add' } | { mode: 'edit'; tx: TransactionJson };

const PAGE_SIZES = [PAGE_LIMIT_DEFAULT, 50, PAGE_LIMIT_CAP];

export function TransactionsPage() {
  const api = useApi();
  const route = useRoute();
  const initialSymbol = route.params.get('symbol') ?? '';
  const [filters, setFilters] = useState<Filters>({ ...EMPTY_FILTERS, symbol: initialSymbol });
  const [draft, setDraft] = useState<Filters>({ ...EMPTY_FILTERS, symbol: initialSymbol });
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(PAGE_LIMIT_DEFAULT);
  const [sort, setSort] = useState<TransactionSort>('-tradeDate');
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const editorRef = useRef<HTMLDivElement>(null);

  // The journal's by-symbol table links here with ?symbol=; follow the link when it changes.
  useEffect(() => {
    setFilters((f) => (f.symbol === initialSymbol ? f : { ...f, symbol: initialSymbol }));
    setDraft((f) => (f.symbol === initialSymbol ? f : { ...f, symbol: initialSymbol }));
    setPage(1);
  }, [initialSymbol]);

  const result = useAsync((signal) => api.call('GET /journal/transactions', { query: { ...toQuery(filters), page, limit, ...(sort === '-tradeDate' ? {} : { sort }) } }, { signal }), [api, filters, page, limit, sort]);

  const apply = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };

  const exportCsv = async () => {
    setExportError(null);
    try {
      await exportTransactions(api, filters, setExporting);
    } catch (error) {
      setExportError(asApiError(error, 'Export failed'));
    } finally {
      setExporting(null);
    }
  };

  const data = result.data;
  const pagination = data?.pagination;
  const filtered = isFiltered(filters);
  const accounts = data?.accounts ?? [];

  const openEditor = (next: Editor) => {
    setEditor(next);
    setMessage(null);
    setActionError(null);
    // The form opens above the table: bring it into view with its first field focused.
    requestAnimationFrame(() => {
      editorRef.current?.scrollIntoView({ block: 'nearest' });
      editorRef.current?.querySelector<HTMLElement>('select, input')?.focus();
    });
  };

  const remove = async (tx: TransactionJson) => {
    setActionError(null);
    try {
      const removed = await api.call('DELETE /journal/transactions/{id}', { params: { id: tx.id } });
      setMessage(`Deleted the ${tx.symbol === '' ? '' : `${tx.symbol} `}row of ${tx.tradeDay}${removed.importRemoved ? ` (import #${removed.importId} held nothing else and is gone)` : ''}.`);
      if (editor?.mode === 'edit' && editor.tx.id === tx.id) setEditor(null);
      result.reload();
    } catch (error) {
      setActionError(asApiError(error));
    }
  };

  return (
    <div className="page" data-testid="page-transactions">
      <PageHead
        title="Transactions"
        meta={pagination && <PageFigures>{fmtInt(pagination.total)} matching</PageFigures>}
        toolbar={
          <>
            <button type="button" className="btn btn-primary" onClick={() => openEditor({ mode: 'add' })} disabled={editor?.mode === 'add'} data-testid="add-transaction">
              Add transaction
            </button>
            <button type="button" className="btn" onClick={() => void exportCsv()} disabled={exporting !== null || !pagination || pagination.total === 0}>
              {exporting ?? 'Export CSV'}
            </button>
          </>
        }
      />

      {editor && (
        <div ref={editorRef} data-testid="transaction-editor">
          <Panel title={editor.mode === 'add' ? 'Add transaction' : 'Edit transaction'} id="transaction-editor">
            <TransactionForm
              key={editor.mode === 'add' ? 'add' : editor.tx.id}
              accounts={accounts}
              {...(editor.mode === 'add' ? { initial: blankState(accounts, dateInTimeZone(Date.now())) } : stateOf(editor.tx))}
              submitLabel={editor.mode === 'add' ? 'Add transaction' : 'Save changes'}
              onCancel={() => setEditor(null)}
              onSubmit={async (row) => {
                if (editor.mode === 'add') {
                  const added = await api.call('POST /journal/transactions', { body: { transactions: [row] } });
                  setMessage(`Added ${fmtCount(added.ids.length, 'transaction')} as import #${added.importId} (undo it on the Import page, or edit the row here).`);
                } else {
                  await api.call('PUT /journal/transactions/{id}', { params: { id: editor.tx.id }, body: row });
                  setMessage(`Saved the changes to the ${row.symbol ?? typeLabel(row.type)} row.`);
                }
                setEditor(null);
                result.reload();
              }}
            />
          </Panel>
        </div>
      )}
      {message !== null && (
        <div className="alert alert-info" role="status" data-testid="transactions-message">
          {message}
        </div>
      )}
      {actionError && <ErrorBanner error={actionError} />}

      <TransactionFilters draft={draft} onDraft={setDraft} applied={filters} onApply={apply} accounts={data?.accounts} />

      {exportError && <ErrorBanner error={exportError} />}
      <AsyncStatus state={result} label="Loading transactions…" />
      {data && data.pagination.total === 0 && !filtered && (
        <EmptyState
          title="No transactions yet"
          actions={<ImportOrDemo onLoaded={result.reload} />}
        >
          Import a CSV export from your broker; every execution, assignment, expiration and dividend shows up here.
        </EmptyState>
      )}
      {data && data.pagination.total === 0 && filtered && <p className="muted pad">No transactions match these filters.</p>}
      {data && data.transactions.length > 0 && (
        <Panel>
          <TransactionsTable
            transactions={data.transactions}
            loading={result.loading}
            sort={sort}
            onSort={(next) => {
              setSort(next);
              setPage(1);
            }}
            onEdit={(tx) => openEditor({ mode: 'edit', tx })}
            onDelete={(tx) => void remove(tx)}
          />
          {pagination && (
            <Pager label="Pages" page={page} pages={pagination.pages} shownPage={pagination.page} onPage={setPage} ends>
              <label className="field-inline">
                Rows
                <select
                  value={limit}
                  onChange={(e) => {
                    setLimit(Number(e.target.value));
                    setPage(1);
                  }}
                >
                  <Options items={PAGE_SIZES} />
                </select>
              </label>
            </Pager>
          )}
        </Panel>
      )}
      {data && (data.pagination.total > 0 || filtered) && <CorporateActionsPanel accounts={accounts} onChanged={result.reload} />}
    </div>
  );
}
