/**
 * The Import page's mapping step for a file no importer recognises (docs/importers.md, "User-defined formats"):
 * its columns and first rows, a column per field of the transaction, the broker's action words → types, a preview
 * that is the server's real parse (with its line-numbered problems), and the format saved under a name.
 */
import { useEffect, useState } from 'react';
import {
  FORMAT_AMOUNT_SIGNS,
  FORMAT_DATE_LAYOUTS,
  FORMAT_ZONES,
  IMPORT_FORMAT_LIMITS,
  TRANSACTION_TYPES,
  type FormatAmountSign,
  type FormatDateLayout,
  type FormatZone,
  type TransactionType,
} from '../../../src-shared/api/constants';
import type { ImportFormatJson, ImportFormatPreviewResponseT } from '../../../src-shared/api/schemas';
import type { ApiError } from '../../api/client';
import { Badge, DataTable, num, Options } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtInt, fmtNumber, typeLabel } from '../../format';
import { asApiError, useApi } from '../../hooks';
import { FIELDS, guessColumns, guessLayout, guessType, previewText, toDraft, type FieldKey, type Settings } from './format-draft';

function ProblemList({ title, rows, tone }: { title: string; rows: Array<{ line: number | null; message: string }>; tone: 'neg' | 'warn' }) {
  if (rows.length === 0) return null;
  return (
    <div className={`mapper-problems ${tone}`} data-testid={tone === 'neg' ? 'mapper-errors' : 'mapper-warnings'}>
      <strong>{title}</strong>
      <table className="table table-dense problems">
        <thead>
          <tr>
            <th className="num">Line</th>
            <th>Problem</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 50).map((row, i) => (
            <tr key={i}>
              <td className="num">{row.line ?? '—'}</td>
              <td>{row.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > 50 && <p className="muted small">…and {fmtInt(rows.length - 50)} more.</p>}
    </div>
  );
}

/** Maps the columns of `file`, previews, saves; `onImport` imports the file once its format is saved. */
export function FormatMapper({ file, onClose, onSaved, onImport }: { file: File; onClose: () => void; onSaved: (format: ImportFormatJson) => void; onImport: () => void }) {
  const api = useApi();
  const [text, setText] = useState<string | null>(null);
  const [columns, setColumns] = useState<ImportFormatPreviewResponseT | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [result, setResult] = useState<ImportFormatPreviewResponseT['preview']>(null);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<ImportFormatJson | null>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const start = await previewText(file);
        const answer = await api.call('POST /import-formats/preview', { body: { text: start } });
        if (!live) return;
        setText(start);
        setColumns(answer);
        const header = answer.header?.cells ?? [];
        const guessed = guessColumns(header);
        const dateIndex = guessed.date === undefined ? -1 : header.indexOf(guessed.date);
        setSettings({ name: file.name.replace(/\.[^.]*$/, '').slice(0, IMPORT_FORMAT_LIMITS.nameChars), columns: guessed, layout: guessLayout(answer.sample[0]?.cells[dateIndex]), zone: 'new-york', sign: 'as-written', words: [] });
      } catch (error) {
        if (live) setProblem(asApiError(error, 'Cannot read the file'));
      }
    })();
    return () => {
      live = false;
    };
  }, [api, file]);

  const header = columns?.header?.cells ?? [];
  const draft = settings === null ? null : toDraft(header, settings);
  const update = (change: Partial<Settings>) => {
    setSettings((s) => (s === null ? s : { ...s, ...change }));
    setResult(null);
    setSaved(null);
  };

  const preview = async () => {
    if (draft === null || text === null || settings === null) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await api.call('POST /import-formats/preview', { body: { text, format: draft } });
      const known = new Set(settings.words.map((w) => w.word.trim().toLowerCase()));
      const added = (answer.preview?.words ?? []).filter((word) => !known.has(word.trim().toLowerCase())).map((word) => ({ word, type: guessType(word) }));
      if (added.length > 0) {
        // New words: guessed where the word says it, the rest for the user; previewed again with the guesses.
        const words = [...settings.words, ...added].slice(0, IMPORT_FORMAT_LIMITS.words);
        setSettings({ ...settings, words });
        const again = toDraft(header, { ...settings, words });
        setResult(again === null ? answer.preview : (await api.call('POST /import-formats/preview', { body: { text, format: again } })).preview);
      } else setResult(answer.preview);
    } catch (error) {
      setProblem(asApiError(error, 'Preview failed'));
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    if (draft === null) return;
    setBusy(true);
    setProblem(null);
    try {
      const format = await api.call('POST /import-formats', { body: draft });
      setSaved(format);
      onSaved(format);
    } catch (error) {
      setProblem(asApiError(error, 'Saving failed'));
    } finally {
      setBusy(false);
    }
  };

  const column = (key: FieldKey, label: string, required = false) => (
    <label className="field" key={key}>
      <span>
        {label}
        {required ? ' *' : ''}
      </span>
      <select value={settings?.columns[key] ?? ''} aria-label={`Column of ${label}`} onChange={(e) => settings && update({ columns: { ...settings.columns, [key]: e.target.value === '' ? undefined : e.target.value } })}>
        <option value="">—</option>
        <Options items={header.filter((cell) => cell.trim() !== '')} />
      </select>
    </label>
  );

  return (
    <section className="mapper" data-testid="format-mapper" aria-label={`Map the columns of ${file.name}`}>
      <div className="mapper-head">
        <h2>Map the columns of {file.name}</h2>
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted small">
        No importer knows this header. Say which column holds each field; the preview is what the import would store. Saved, the format reads every file with these columns.
      </p>
      {problem && (
        <div className="report report-error" role="alert" data-testid="mapper-problem">
          <p>
            <strong>{problem.title}</strong> {problem.detail}
          </p>
          {problem.errors.length > 0 && (
            <ul className="small">
              {problem.errors.map((e, i) => (
                <li key={i}>
                  <code>{e.param}</code> {e.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {columns?.header && (
        <div className="table-wrap mapper-sample">
          <table className="table table-dense" data-testid="mapper-sample">
            <thead>
              <tr>
                <th className="num">Line</th>
                {columns.header.cells.map((cell, i) => (
                  <th key={i}>{cell}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {columns.sample.map((row) => (
                <tr key={row.line}>
                  <td className="num">{row.line}</td>
                  {columns.header?.cells.map((_, i) => <td key={i}>{row.cells[i] ?? ''}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {columns !== null && columns.header === null && <p className="field-error">No row of column names found in the first lines: this file cannot be mapped.</p>}
      {settings !== null && columns?.header && (
        <>
          <div className="mapper-fields">
            <label className="field">
              <span>Format name *</span>
              <input type="text" value={settings.name} maxLength={IMPORT_FORMAT_LIMITS.nameChars} onChange={(e) => update({ name: e.target.value })} />
            </label>
            {FIELDS.map((field) => column(field.key, field.label, field.required))}
            <label className="field">
              <span>Date written</span>
              <select value={settings.layout} aria-label="Date layout" onChange={(e) => update({ layout: e.target.value as FormatDateLayout })}>
                <Options items={FORMAT_DATE_LAYOUTS} />
              </select>
            </label>
            <label className="field">
              <span>Times without a zone are</span>
              <select value={settings.zone} aria-label="Time zone of times" onChange={(e) => update({ zone: e.target.value as FormatZone })}>
                <Options items={FORMAT_ZONES} label={(zone) => (zone === 'new-york' ? 'New York time' : 'UTC')} />
              </select>
            </label>
            <label className="field">
              <span>Amount sign</span>
              <select value={settings.sign} aria-label="Amount sign" onChange={(e) => update({ sign: e.target.value as FormatAmountSign })}>
                <Options items={FORMAT_AMOUNT_SIGNS} label={(sign) => (sign === 'as-written' ? 'As written' : 'From the type (buys pay)')} />
              </select>
            </label>
          </div>
          {settings.words.length > 0 && (
            <div className="mapper-words" data-testid="mapper-words">
              <strong className="field-label">Words of “{settings.columns.type}” → type</strong>
              <div className="mapper-word-grid">
                {settings.words.map((entry, index) => (
                  <label className="field" key={entry.word}>
                    <span>{entry.word}</span>
                    <select
                      value={entry.type}
                      aria-label={`Type of “${entry.word}”`}
                      onChange={(e) => update({ words: settings.words.map((w, i) => (i === index ? { ...w, type: e.target.value as TransactionType | '' } : w)) })}
                    >
                      <option value="">— not mapped —</option>
                      <Options items={TRANSACTION_TYPES} label={typeLabel} />
                    </select>
                  </label>
                ))}
              </div>
            </div>
          )}
          <div className="report-actions">
            <button type="button" className="btn btn-primary" disabled={busy || draft === null} onClick={() => void preview()}>
              Preview
            </button>
            <button type="button" className="btn" disabled={busy || draft === null || result === null || !result.ready || saved !== null} onClick={() => void save()}>
              Save format
            </button>
            {draft === null && <span className="muted small">Choose the date, type and quantity columns first.</span>}
          </div>
        </>
      )}
      {result && (
        <div className="mapper-result" data-testid="mapper-preview">
          <p className="mapper-summary">
            <Badge tone={result.errors.length > 0 ? 'neg' : result.ready ? 'pos' : 'warn'}>{result.errors.length > 0 ? fmtCount(result.errors.length, 'problem') : result.ready ? 'Ready' : 'Options not found'}</Badge> {fmtCount(result.rows, 'row')} read ·{' '}
            {fmtCount(result.transactionCount, 'transaction')}
            {result.skipped.length > 0 ? ` · ${fmtInt(result.skipped.length)} skipped` : ''}
          </p>
          <ProblemList title="Problems (nothing is imported until they are fixed)" rows={result.errors} tone="neg" />
          <ProblemList title="Warnings" rows={result.warnings} tone="warn" />
          {result.transactions.length > 0 && (
            <DataTable testId="mapper-transactions" className="table table-dense" columns={[num('Line'), 'Date', 'Type', 'Symbol', num('Qty'), num('Price'), num('Comm.'), num('Fees'), num('Amount'), 'Account']}>
              {result.transactions.map((tx) => (
                <tr key={tx.line}>
                  <td className="num">{tx.line}</td>
                  <td>{fmtDateTime(tx.tradeDate)}</td>
                  <td>{typeLabel(tx.type)}</td>
                  <td>{tx.symbol}</td>
                  <td className="num">{String(tx.quantity)}</td>
                  <td className="num">{fmtNumber(tx.price, Number.isInteger(Math.round(tx.price * 10_000) / 100) ? 2 : 4)}</td>
                  <td className="num">{fmtNumber(tx.commission)}</td>
                  <td className="num">{fmtNumber(tx.fees)}</td>
                  <td className="num">{fmtNumber(tx.amount)}</td>
                  <td>{tx.accountName}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      )}
      {saved && (
        <div className="report report-ok" role="status" data-testid="mapper-saved">
          <p>
            Saved as <strong>{saved.name}</strong> (<code>{saved.importer}</code>): files with these columns are recognised from now on.
          </p>
          <button type="button" className="btn btn-primary btn-small" onClick={onImport}>
            Import {file.name}
          </button>
        </div>
      )}
    </section>
  );
}
