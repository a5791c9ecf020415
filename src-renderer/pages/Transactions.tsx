import { useEffect, useState } from 'react';
import type { TransactionJson, TransactionsQueryT } from '../../src-shared/api/schemas';
import { ApiError } from '../api/client';
import { DemoButton } from '../components/DemoButton';
import { Badge, EmptyState, ErrorBanner, Loading, Panel } from '../components/ui';
import { toCsv } from '../csv';
import { downloadText } from '../download';
import { fmtDateTime, fmtInt, fmtMoney, fmtPrice, fmtSymbol, signClass, typeLabel } from '../format';
import { navigate, useApi, useAsync, useRoute } from '../hooks';

interface Filters {
  symbol: string;
  accountId: string;
  fromDate: string;
  toDate: string;
}

const EMPTY: Filters = { symbol: '', accountId: '', fromDate: '', toDate: '' };

function typeTone(type: string): 'pos' | 'neg' | 'info' | 'warn' | 'neutral' {
  if (type === 'SELL_TO_OPEN' || type === 'SELL' || type === 'SELL_TO_CLOSE') return 'pos';
  if (type === 'BUY_TO_OPEN' || type === 'BUY' || type === 'BUY_TO_CLOSE') return 'neg';
  if (type === 'ASSIGNMENT' || type === 'EXERCISE') return 'warn';
  if (type === 'EXPIRATION' || type === 'DIVIDEND' || type === 'INTEREST') return 'info';
  return 'neutral';
}

function toQuery(filters: Filters): TransactionsQueryT {
  const query: TransactionsQueryT = {};
  if (filters.symbol.trim() !== '') query.symbol = filters.symbol.trim().toUpperCase();
  if (filters.accountId !== '') query.accountId = filters.accountId;
  if (filters.fromDate !== '') query.fromDate = filters.fromDate;
  if (filters.toDate !== '') query.toDate = filters.toDate;
  return query;
}

const CSV_HEADER = ['tradeDate', 'tradeDay', 'account', 'type', 'symbol', 'underlying', 'expiration', 'strike', 'right', 'quantity', 'price', 'multiplier', 'amount', 'commission', 'fees', 'currency', 'orderId', 'description', 'source', 'id'];

function csvRow(t: TransactionJson) {
  return [t.tradeDate, t.tradeDay, t.accountName, t.type, t.symbol, t.underlying, t.expiration, t.strike, t.right, t.quantity, t.price, t.multiplier, t.amount, t.commission, t.fees, t.currency, t.orderId, t.description, t.source, t.id];
}

export function TransactionsPage() {
  const api = useApi();
  const route = useRoute();
  const initialSymbol = route.params.get('symbol') ?? '';
  const [filters, setFilters] = useState<Filters>({ ...EMPTY, symbol: initialSymbol });
  const [draft, setDraft] = useState<Filters>({ ...EMPTY, symbol: initialSymbol });
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(25);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);

  // The journal's by-symbol table links here with ?symbol=; follow the link when it changes.
  useEffect(() => {
    setFilters((f) => (f.symbol === initialSymbol ? f : { ...f, symbol: initialSymbol }));
    setDraft((f) => (f.symbol === initialSymbol ? f : { ...f, symbol: initialSymbol }));
    setPage(1);
  }, [initialSymbol]);

  const result = useAsync((signal) => api.transactions({ ...toQuery(filters), page, limit }, signal), [api, filters, page, limit]);

  const apply = (next: Filters) => {
    setFilters(next);
    setPage(1);
  };

  const exportCsv = async () => {
    setExportError(null);
    const rows: TransactionJson[] = [];
    try {
      let current = 1;
      let pages = 1;
      do {
        setExporting(`Exporting page ${current} of ${pages}…`);
        const response = await api.transactions({ ...toQuery(filters), page: current, limit: 100 });
        rows.push(...response.transactions);
        pages = response.pagination.pages;
        current += 1;
      } while (current <= pages);
      const suffix = filters.symbol.trim() !== '' ? `-${filters.symbol.trim().toUpperCase()}` : '';
      downloadText(`strikebook-transactions${suffix}.csv`, toCsv(CSV_HEADER, rows.map(csvRow)));
    } catch (error) {
      setExportError(error instanceof ApiError ? error : new ApiError(0, 'CLIENT', 'Export failed', String(error)));
    } finally {
      setExporting(null);
    }
  };

  const data = result.data;
  const pagination = data?.pagination;
  const filtered = filters.symbol !== '' || filters.accountId !== '' || filters.fromDate !== '' || filters.toDate !== '';

  return (
    <div className="page" data-testid="page-transactions">
      <header className="page-head">
        <div className="page-title">
          <h1>Transactions</h1>
          {pagination && <span className="muted small num">{fmtInt(pagination.total)} matching</span>}
        </div>
        <div className="toolbar">
          <button type="button" className="btn" onClick={() => void exportCsv()} disabled={exporting !== null || !pagination || pagination.total === 0}>
            {exporting ?? 'Export CSV'}
          </button>
        </div>
      </header>

      <form
        className="filters"
        aria-label="Filter transactions"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <label className="field">
          <span>Symbol</span>
          <input type="search" placeholder="e.g. SPY" value={draft.symbol} onChange={(e) => setDraft({ ...draft, symbol: e.target.value })} maxLength={16} spellCheck={false} autoCapitalize="characters" />
        </label>
        <label className="field">
          <span>Account</span>
          <select
            value={draft.accountId}
            onChange={(e) => {
              const next = { ...draft, accountId: e.target.value };
              setDraft(next);
              apply(next);
            }}
          >
            <option value="">All accounts</option>
            {data?.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>From</span>
          <input type="date" value={draft.fromDate} max={draft.toDate || undefined} onChange={(e) => setDraft({ ...draft, fromDate: e.target.value })} />
        </label>
        <label className="field">
          <span>To</span>
          <input type="date" value={draft.toDate} min={draft.fromDate || undefined} onChange={(e) => setDraft({ ...draft, toDate: e.target.value })} />
        </label>
        <div className="filters-actions">
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            disabled={!filtered && draft.symbol === '' && draft.fromDate === '' && draft.toDate === ''}
            onClick={() => {
              setDraft(EMPTY);
              apply(EMPTY);
            }}
          >
            Clear
          </button>
        </div>
      </form>

      {exportError && <ErrorBanner error={exportError} />}
      {result.error && <ErrorBanner error={result.error} onRetry={result.reload} />}
      {!data && !result.error && <Loading label="Loading transactions…" />}
      {data && data.pagination.total === 0 && !filtered && (
        <EmptyState
          title="No transactions yet"
          actions={
            <>
              <button type="button" className="btn btn-primary" onClick={() => navigate('import')}>
                Import a broker file
              </button>
              <DemoButton onLoaded={result.reload} />
            </>
          }
        >
          Import a CSV export from your broker; every execution, assignment, expiration and dividend shows up here.
        </EmptyState>
      )}
      {data && data.pagination.total === 0 && filtered && <p className="muted pad">No transactions match these filters.</p>}
      {data && data.transactions.length > 0 && (
        <Panel>
          <div className="table-wrap">
            <table className={`table table-dense ${result.loading ? 'is-loading' : ''}`} data-testid="transactions-table">
              <thead>
                <tr>
                  <th>Date (ET)</th>
                  <th>Account</th>
                  <th>Type</th>
                  <th>Symbol</th>
                  <th className="num">Qty</th>
                  <th className="num">Price</th>
                  <th className="num">Amount</th>
                  <th className="num">Comm. + fees</th>
                  <th>Source</th>
                </tr>
              </thead>
              <tbody>
                {data.transactions.map((t) => (
                  <tr key={t.id} title={t.description}>
                    <td className="tnum">{fmtDateTime(t.tradeDate).replace(' ET', '')}</td>
                    <td className="nowrap">{t.accountName}</td>
                    <td>
                      <Badge tone={typeTone(t.type)}>{typeLabel(t.type)}</Badge>
                      {t.inferred && (
                        <span className="muted small" title="Inferred (e.g. stock from an assignment)">
                          {' '}
                          inferred
                        </span>
                      )}
                    </td>
                    <td className="nowrap">
                      <span className="sym">{fmtSymbol(t.symbol)}</span>
                    </td>
                    <td className="num">{t.quantity === 0 ? '—' : fmtPrice(t.quantity, 4)}</td>
                    <td className="num">{t.price === 0 ? '—' : fmtPrice(t.price, 4)}</td>
                    <td className={`num ${signClass(t.amount)}`}>{fmtMoney(t.amount, t.currency, true)}</td>
                    <td className="num muted">{t.commission + t.fees === 0 ? '—' : fmtMoney(-Math.abs(t.commission + t.fees), t.currency)}</td>
                    <td className="muted small">{t.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pagination && (
            <nav className="pager" aria-label="Pages">
              <button type="button" className="btn btn-small" onClick={() => setPage(1)} disabled={page <= 1}>
                « First
              </button>
              <button type="button" className="btn btn-small" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1}>
                ‹ Prev
              </button>
              <span className="num">
                Page {fmtInt(pagination.page)} of {fmtInt(Math.max(1, pagination.pages))}
              </span>
              <button type="button" className="btn btn-small" onClick={() => setPage((p) => p + 1)} disabled={page >= pagination.pages}>
                Next ›
              </button>
              <button type="button" className="btn btn-small" onClick={() => setPage(pagination.pages)} disabled={page >= pagination.pages}>
                Last »
              </button>
              <label className="field-inline">
                Rows
                <select
                  value={limit}
                  onChange={(e) => {
                    setLimit(Number(e.target.value));
                    setPage(1);
                  }}
                >
                  {[25, 50, 100].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
            </nav>
          )}
        </Panel>
      )}
    </div>
  );
}
