import { useState } from 'react';
import { AUTO_BROKER_LABEL } from '../../src-shared/api/constants';
import type { ImportFormatsResponseT } from '../../src-shared/api/schemas';
import { ApiError } from '../api/client';
import { Options, PageHead, Panel, Segmented } from '../components/ui';
import { fmtCount } from '../format';
import { useApi, useAsync } from '../hooks';
import { DropZone } from './import/DropZone';
import { FormatMapper } from './import/FormatMapper';
import { ImportHistory, useImportHistory } from './import/ImportHistory';
import { ImportProgress, ImportQueue } from './import/ImportQueue';
import { ImportReport } from './import/ImportReport';
import { queueFiles, uploadAll, type ImporterChoice, type ImportKind, type Outcome, type Queued, type UploadProgress } from './import/upload';

/**
 * The broker list is the API's (GET /v1/import-formats: the importers' registry, then the user's saved formats),
 * never a copy in the renderer.
 */
function BrokerOptions({
  importers,
  broker,
  onBroker,
  account,
  onAccount,
  onDeleteFormat,
}: {
  importers: ImportFormatsResponseT | null;
  broker: ImporterChoice;
  onBroker: (broker: ImporterChoice) => void;
  account: string;
  onAccount: (account: string) => void;
  onDeleteFormat: (id: string, name: string) => void;
}) {
  const builtIn = (importers?.importers ?? []).filter((i) => !i.id.startsWith('custom:'));
  return (
    <div className="import-options">
      <label className="field">
        <span>Broker</span>
        <select value={broker} onChange={(e) => onBroker(e.target.value as ImporterChoice)} data-testid="broker-select">
          <option value="auto">{AUTO_BROKER_LABEL}</option>
          <Options items={builtIn} value={(b) => b.id} label={(b) => b.label} title={(b) => b.formats} />
          {(importers?.formats.length ?? 0) > 0 && (
            <optgroup label="Your formats">
              <Options items={importers?.formats} value={(f) => f.importer} label={(f) => f.name} />
            </optgroup>
          )}
        </select>
      </label>
      <label className="field">
        <span>Account name (files without one)</span>
        <input type="text" value={account} onChange={(e) => onAccount(e.target.value)} maxLength={64} placeholder="optional" />
      </label>
      <p className="muted small import-hint">
        CSV exports of {builtIn.map((b) => b.label).join(', ') || 'the brokers Strikebook knows'} (see docs). A file no importer knows can be mapped to a format of your own. Re-importing the same rows never
        duplicates them.
      </p>
      {(importers?.formats.length ?? 0) > 0 && (
        <ul className="saved-formats small" data-testid="saved-formats">
          {importers?.formats.map((f) => (
            <li key={f.id}>
              <strong>{f.name}</strong> <code>{f.importer}</code> <span className="muted">{fmtCount(f.header.filter((c) => c.trim() !== '').length, 'column')}</span>{' '}
              <button type="button" className="btn btn-small btn-ghost" onClick={() => onDeleteFormat(f.id, f.name)} aria-label={`Delete the format ${f.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ImportPage() {
  const api = useApi();
  const [kind, setKind] = useState<ImportKind>('broker');
  const [broker, setBroker] = useState<ImporterChoice>('auto');
  const [mapping, setMapping] = useState<File | null>(null);
  const importers = useAsync((signal) => api.call('GET /import-formats', {}, { signal }), []);
  const [account, setAccount] = useState('');
  const [queue, setQueue] = useState<Queued[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [undoMessage, setUndoMessage] = useState<string | null>(null);
  const { history, page: historyPage, setPage: setHistoryPage } = useImportHistory();

  const addFiles = async (files: FileList) => {
    const items = await queueFiles(files);
    setQueue((q) => [...q, ...items]);
    setOutcomes([]);
  };

  const runImport = async () => {
    await uploadAll(api, queue, { kind, broker, account }, setProgress, setOutcomes);
    setProgress(null);
    setQueue([]);
    // The new imports are on the first page of the history (newest first).
    setHistoryPage(1);
    history.reload();
  };

  /** Imports one file with auto-detection (after its format is saved, its header is recognised). */
  const importMapped = async (file: File) => {
    setMapping(null);
    const items = await queueFiles([file]);
    await uploadAll(api, items, { kind: 'broker', broker: 'auto', account }, setProgress, setOutcomes);
    setProgress(null);
    setHistoryPage(1);
    history.reload();
  };

  const deleteFormat = async (id: string, name: string) => {
    if (!window.confirm(`Delete the format "${name}"? Files with its columns are no longer recognised; its past imports stay.`)) return;
    try {
      await api.call('DELETE /import-formats/{id}', { params: { id } });
      if (broker === `custom:${id}`) setBroker('auto');
      importers.reload();
    } catch (error) {
      setUndoMessage(error instanceof ApiError ? error.message : String(error));
    }
  };

  const undo = async (id: number) => {
    if (!window.confirm(`Undo import #${id}? Its transactions are removed from the journal.`)) return;
    try {
      const result = await api.call('DELETE /imports/{id}', { params: { id } });
      setUndoMessage(`Import #${result.id} undone: ${fmtCount(result.removed, 'transaction')} removed.`);
      setOutcomes((list) => list.filter((o) => o.kind !== 'broker' || o.report.id !== id));
      history.reload();
    } catch (error) {
      setUndoMessage(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <div className="page" data-testid="page-import">
      <PageHead title="Import">
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
      </PageHead>

      <Panel>
        {kind === 'broker' ? (
          <BrokerOptions importers={importers.data ?? null} broker={broker} onBroker={setBroker} account={account} onAccount={setAccount} onDeleteFormat={(id, name) => void deleteFormat(id, name)} />
        ) : (
          <p className="muted small import-hint">
            Cboe delayed-quotes CSV (“quotedata”) or JSON, or the generic chain CSV/JSON. Each file is one snapshot; newer snapshots of a ticker produce flip and wall events.
          </p>
        )}
        <DropZone kind={kind} onFiles={(files) => void addFiles(files)} />
        {queue.length > 0 && (
          <ImportQueue queue={queue} busy={progress !== null} onRemove={(key) => setQueue((q) => q.filter((x) => x.key !== key))} onImport={() => void runImport()} />
        )}
        {progress && <ImportProgress progress={progress} />}
        {outcomes.map((outcome, i) => (
          <ImportReport key={i} outcome={outcome} onUndo={(id) => void undo(id)} {...(kind === 'broker' ? { onMap: (file: File) => setMapping(file) } : {})} />
        ))}
        {mapping && kind === 'broker' && (
          <FormatMapper key={`${mapping.name}-${mapping.lastModified}`} file={mapping} onClose={() => setMapping(null)} onSaved={() => importers.reload()} onImport={() => void importMapped(mapping)} />
        )}
      </Panel>

      {kind === 'broker' && <ImportHistory formatNames={new Map((importers.data?.formats ?? []).map((f) => [f.importer, f.name]))} history={history} page={historyPage} onPage={setHistoryPage} undoMessage={undoMessage} onUndo={(id) => void undo(id)} />}
    </div>
  );
}
