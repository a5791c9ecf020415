import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { BrokerId, ImportReport } from '../../src-shared/api/schemas';
import { ApiError, type ChainPostResponseT } from '../api/client';
import { DemoButton } from '../components/DemoButton';
import { Badge, ErrorBanner, Loading, Panel, Segmented } from '../components/ui';
import { fmtCount, fmtDateTime, fmtInt, fmtPrice } from '../format';
import { navigate, useApi, useAsync } from '../hooks';

type Kind = 'broker' | 'chain';

// Mirrors BROKER_IDS in src-shared/api/schemas (a value import would pull typebox into the bundle).
const BROKERS: ReadonlyArray<{ id: 'auto' | BrokerId; label: string }> = [
  { id: 'auto', label: 'Detect from header' },
  { id: 'tastytrade', label: 'tastytrade' },
  { id: 'schwab', label: 'Charles Schwab' },
  { id: 'thinkorswim', label: 'thinkorswim' },
  { id: 'ibkr', label: 'Interactive Brokers' },
  { id: 'fidelity', label: 'Fidelity' },
  { id: 'robinhood', label: 'Robinhood' },
  { id: 'etrade', label: 'E*TRADE' },
  { id: 'webull', label: 'Webull' },
  { id: 'generic', label: 'Generic CSV' },
];

interface Queued {
  key: string;
  file: File;
  preview: string[];
}

type Outcome =
  | { kind: 'broker'; filename: string; report: ImportReport }
  | { kind: 'chain'; filename: string; result: ChainPostResponseT }
  | { kind: 'error'; filename: string; error: ApiError };

function contentTypeOf(file: File): string {
  const name = file.name.toLowerCase();
  if (name.endsWith('.json')) return 'application/json';
  if (file.type === 'application/json') return 'application/json';
  return 'text/csv';
}

async function previewOf(file: File): Promise<string[]> {
  const text = await file.slice(0, 4096).text();
  return text.replace(/^\uFEFF/, '').split(/\r?\n/).slice(0, 6).map((line) => (line.length > 160 ? `${line.slice(0, 160)}…` : line));
}

function ReportView({ outcome, onUndo }: { outcome: Outcome; onUndo: (id: number) => void }) {
  if (outcome.kind === 'error') {
    const { error } = outcome;
    const lined = [...error.errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return (
      <div className="report report-error" data-testid="import-report" role="alert">
        <div className="report-head">
          <Badge tone="neg">Failed</Badge>
          <strong>{outcome.filename}</strong>
          <span className="muted">{error.title}</span>
          <code className="alert-code">{error.code}</code>
        </div>
        {error.detail !== '' && <p>{error.detail}</p>}
        {error.code === 'IMPORT_FAILED' && <p className="muted small">Nothing was imported: an import is all rows or none. Fix the lines below and try again.</p>}
        {lined.length > 0 && (
          <table className="table table-dense problems">
            <thead>
              <tr>
                <th className="num">Line</th>
                <th>Field</th>
                <th>Problem</th>
              </tr>
            </thead>
            <tbody>
              {lined.slice(0, 200).map((e, i) => (
                <tr key={`${e.line ?? 'x'}-${i}`}>
                  <td className="num">{e.line ?? '—'}</td>
                  <td>
                    <code>{e.param}</code>
                  </td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {lined.length > 200 && <p className="muted small">…and {fmtInt(lined.length - 200)} more.</p>}
      </div>
    );
  }
  if (outcome.kind === 'chain') {
    const r = outcome.result;
    return (
      <div className="report report-ok" data-testid="import-report">
        <div className="report-head">
          <Badge tone="pos">{r.stored ? 'Stored' : 'Already stored'}</Badge>
          <strong>{outcome.filename}</strong>
        </div>
        <p className="num">
          {r.symbol} · spot {fmtPrice(r.spot)} · {fmtCount(r.contracts, 'contract')} · {fmtCount(r.expirations, 'expiration')} · quoted {fmtDateTime(r.quoteTime)} · {fmtCount(r.events, 'new event')}
        </p>
        <button type="button" className="btn btn-small" onClick={() => navigate('exposure', { symbol: r.symbol })}>
          Open exposure for {r.symbol}
        </button>
      </div>
    );
  }
  const r = outcome.report;
  return (
    <div className="report report-ok" data-testid="import-report">
      <div className="report-head">
        <Badge tone="pos">Imported</Badge>
        <strong>{outcome.filename}</strong>
        <span className="muted">
          broker <strong data-testid="import-broker">{r.broker}</strong>
        </span>
        {r.accounts.length > 0 && <span className="muted">account {r.accounts.map((a) => a.name).join(', ')}</span>}
      </div>
      <dl className="report-numbers">
        <div>
          <dt>Rows read</dt>
          <dd className="num">{fmtInt(r.rows)}</dd>
        </div>
        <div>
          <dt>Imported</dt>
          <dd className="num pos">{fmtInt(r.imported)}</dd>
        </div>
        <div>
          <dt>Duplicates</dt>
          <dd className="num">{fmtInt(r.duplicates)}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd className="num">{fmtInt(r.skipped.length)}</dd>
        </div>
        <div>
          <dt>Warnings</dt>
          <dd className={`num ${r.warnings.length > 0 ? 'warn' : ''}`}>{fmtInt(r.warnings.length)}</dd>
        </div>
      </dl>
      {(r.skipped.length > 0 || r.warnings.length > 0) && (
        <details className="report-details">
          <summary>Skipped rows and warnings</summary>
          <table className="table table-dense problems">
            <thead>
              <tr>
                <th className="num">Line</th>
                <th>Kind</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {r.skipped.slice(0, 200).map((s, i) => (
                <tr key={`s${i}`}>
                  <td className="num">{s.line}</td>
                  <td>skipped</td>
                  <td>{s.reason}</td>
                </tr>
              ))}
              {r.warnings.slice(0, 200).map((w, i) => (
                <tr key={`w${i}`}>
                  <td className="num">{w.line ?? '—'}</td>
                  <td className="warn">warning</td>
                  <td>{w.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <div className="report-actions">
        <button type="button" className="btn btn-small" onClick={() => navigate('journal')}>
          Open journal
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={() => onUndo(r.id)}>
          Undo this import
        </button>
      </div>
    </div>
  );
}

export function ImportPage() {
  const api = useApi();
  const [kind, setKind] = useState<Kind>('broker');
  const [broker, setBroker] = useState<'auto' | BrokerId>('auto');
  const [account, setAccount] = useState('');
  const [queue, setQueue] = useState<Queued[]>([]);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<{ name: string; fraction: number; index: number; count: number } | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [undoMessage, setUndoMessage] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [historyPage, setHistoryPage] = useState(1);
  const history = useAsync((signal) => api.imports({ page: historyPage }, signal), [api, historyPage]);
  const historyPages = history.data?.pagination.pages ?? 1;
  // An undo can empty the last page: step back to the new last one.
  const pastEnd = history.data !== undefined && history.data.imports.length === 0 && historyPage > 1;
  useEffect(() => {
    if (pastEnd) setHistoryPage((p) => Math.max(1, p - 1));
  }, [pastEnd]);

  const addFiles = async (files: FileList | File[]) => {
    const list = Array.from(files);
    const items = await Promise.all(list.map(async (file, i) => ({ key: `${file.name}-${file.size}-${file.lastModified}-${i}-${Date.now()}`, file, preview: await previewOf(file) })));
    setQueue((q) => [...q, ...items]);
    setOutcomes([]);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length > 0) void addFiles(event.dataTransfer.files);
  };

  const runImport = async () => {
    const items = queue;
    const results: Outcome[] = [];
    for (const [index, item] of items.entries()) {
      setProgress({ name: item.file.name, fraction: 0, index, count: items.length });
      const onProgress = (fraction: number) => setProgress({ name: item.file.name, fraction, index, count: items.length });
      try {
        if (kind === 'broker') {
          const report = await api.importFile(item.file, { broker, filename: item.file.name.slice(0, 255), ...(account.trim() !== '' ? { account: account.trim() } : {}) }, { contentType: contentTypeOf(item.file), onProgress });
          results.push({ kind: 'broker', filename: item.file.name, report });
        } else {
          const result = await api.importChain(item.file, { format: 'auto' }, { contentType: contentTypeOf(item.file), onProgress });
          results.push({ kind: 'chain', filename: item.file.name, result });
        }
      } catch (error) {
        results.push({ kind: 'error', filename: item.file.name, error: error instanceof ApiError ? error : new ApiError(0, 'CLIENT', 'Upload failed', String(error)) });
      }
      setOutcomes([...results]);
    }
    setProgress(null);
    setQueue([]);
    // The new imports are on the first page of the history (newest first).
    setHistoryPage(1);
    history.reload();
  };

  const undo = async (id: number) => {
    if (!window.confirm(`Undo import #${id}? Its transactions are removed from the journal.`)) return;
    try {
      const result = await api.undoImport(id);
      setUndoMessage(`Import #${result.id} undone: ${fmtCount(result.removed, 'transaction')} removed.`);
      setOutcomes((list) => list.filter((o) => o.kind !== 'broker' || o.report.id !== id));
      history.reload();
    } catch (error) {
      setUndoMessage(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <div className="page" data-testid="page-import">
      <header className="page-head">
        <div className="page-title">
          <h1>Import</h1>
        </div>
        <Segmented
          label="What to import"
          value={kind}
          onChange={(k) => {
            setKind(k);
            setQueue([]);
            setOutcomes([]);
          }}
          options={[
            { value: 'broker', label: 'Broker statement' },
            { value: 'chain', label: 'Option chain snapshot' },
          ]}
        />
      </header>

      <Panel>
        {kind === 'broker' ? (
          <div className="import-options">
            <label className="field">
              <span>Broker</span>
              <select value={broker} onChange={(e) => setBroker(e.target.value as 'auto' | BrokerId)}>
                {BROKERS.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Account name (files without one)</span>
              <input type="text" value={account} onChange={(e) => setAccount(e.target.value)} maxLength={64} placeholder="optional" />
            </label>
            <p className="muted small import-hint">
              CSV exports of tastytrade, Schwab / thinkorswim, Interactive Brokers (Activity Statement or Flex Query), Fidelity, Robinhood, E*TRADE, Webull, or the generic format (see docs).
              Re-importing the same rows never duplicates them.
            </p>
          </div>
        ) : (
          <p className="muted small import-hint">
            Cboe delayed-quotes CSV (“quotedata”) or JSON, or the generic chain CSV/JSON. Each file is one snapshot; newer snapshots of a ticker produce flip and wall events.
          </p>
        )}
        <div
          className={`dropzone ${dragging ? 'dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="dropzone"
        >
          <div className="dropzone-icon" aria-hidden="true">
            ⇪
          </div>
          <p>
            Drop {kind === 'broker' ? 'broker CSV files' : 'chain files'} here, or{' '}
            <button type="button" className="btn btn-primary" onClick={() => inputRef.current?.click()}>
              Choose files…
            </button>
          </p>
          <input
            ref={inputRef}
            type="file"
            multiple
            accept={kind === 'broker' ? '.csv,.txt,text/csv' : '.csv,.json,text/csv,application/json'}
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="file-input"
            onChange={(e) => {
              if (e.target.files && e.target.files.length > 0) void addFiles(e.target.files);
              e.target.value = '';
            }}
          />
        </div>

        {queue.length > 0 && (
          <div className="queue" data-testid="import-queue">
            {queue.map((item) => (
              <div className="queue-item" key={item.key}>
                <div className="queue-head">
                  <strong>{item.file.name}</strong>
                  <span className="muted small num">{fmtInt(Math.ceil(item.file.size / 1024))} KB</span>
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setQueue((q) => q.filter((x) => x.key !== item.key))} aria-label={`Remove ${item.file.name}`} disabled={progress !== null}>
                    Remove
                  </button>
                </div>
                <pre className="preview" aria-label={`First lines of ${item.file.name}`}>
                  {item.preview.map((line, i) => (
                    <span key={i}>
                      <span className="preview-line">{i + 1}</span>
                      {line}
                      {'\n'}
                    </span>
                  ))}
                </pre>
              </div>
            ))}
            <div className="queue-actions">
              <button type="button" className="btn btn-primary" onClick={() => void runImport()} disabled={progress !== null}>
                Import {fmtCount(queue.length, 'file')}
              </button>
            </div>
          </div>
        )}

        {progress && (
          <div className="progress-block" aria-live="polite">
            <div className="small">
              Uploading {progress.name} ({progress.index + 1} of {progress.count}) — {Math.round(progress.fraction * 100)}%
            </div>
            <progress className="progress" max={1} value={progress.fraction} data-testid="import-progress" />
          </div>
        )}

        {outcomes.map((outcome, i) => (
          <ReportView key={i} outcome={outcome} onUndo={(id) => void undo(id)} />
        ))}
      </Panel>

      {kind === 'broker' && (
        <Panel title="Import history" actions={undoMessage !== null ? <span className="small" role="status">{undoMessage}</span> : undefined}>
          {history.error && <ErrorBanner error={history.error} onRetry={history.reload} />}
          {!history.data && !history.error && <Loading />}
          {history.data && history.data.imports.length === 0 && (
            <div className="pad">
              <p className="muted">No imports yet. Or try the app with generated data first:</p>
              <DemoButton onLoaded={history.reload} className="btn btn-small" />
            </div>
          )}
          {history.data && history.data.imports.length > 0 && (
            <>
              <div className="table-wrap">
                <table className="table table-dense" data-testid="import-history">
                  <thead>
                    <tr>
                      <th className="num">#</th>
                      <th>When</th>
                      <th>File</th>
                      <th>Broker</th>
                      <th>Accounts</th>
                      <th className="num">Rows</th>
                      <th className="num">Imported</th>
                      <th className="num">Dup.</th>
                      <th className="num">Skipped</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {history.data.imports.map((imp) => (
                      <tr key={imp.id}>
                        <td className="num">{imp.id}</td>
                        <td className="tnum">{fmtDateTime(imp.createdAt)}</td>
                        <td>{imp.filename ?? <span className="muted">—</span>}</td>
                        <td>{imp.broker}</td>
                        <td>{imp.accounts.map((a) => a.name).join(', ')}</td>
                        <td className="num">{fmtInt(imp.rows)}</td>
                        <td className="num">{fmtInt(imp.imported)}</td>
                        <td className="num">{fmtInt(imp.duplicates)}</td>
                        <td className="num">{fmtInt(imp.skipped.length)}</td>
                        <td className="right">
                          <button type="button" className="btn btn-small btn-ghost" onClick={() => void undo(imp.id)} aria-label={`Undo import ${imp.id}`}>
                            Undo
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {historyPages > 1 && (
                <nav className="pager" aria-label="History pages">
                  <button type="button" className="btn btn-small" onClick={() => setHistoryPage((p) => Math.max(1, p - 1))} disabled={historyPage <= 1}>
                    ‹ Newer
                  </button>
                  <span className="num">
                    Page {fmtInt(historyPage)} of {fmtInt(historyPages)}
                  </span>
                  <button type="button" className="btn btn-small" onClick={() => setHistoryPage((p) => p + 1)} disabled={historyPage >= historyPages}>
                    Older ›
                  </button>
                </nav>
              )}
            </>
          )}
        </Panel>
      )}
    </div>
  );
}
