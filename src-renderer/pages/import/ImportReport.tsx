import { useState, type ReactNode } from 'react';
import { UNRECOGNISED_HEADER } from '../../../src-shared/api/constants';
import type { ImportReport as ImportReportT } from '../../../src-shared/api/schemas';
import type { ApiError, ChainPostResponseT } from '../../api/client';
import { Badge, REFUSED_KEY } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtInt, fmtNumber, fmtPrice, fmtSymbol, typeLabel } from '../../format';
import { navigate, useApi, useKeyScreen } from '../../hooks';
import { ReconciliationTable } from './ReconciliationTable';
import { ChainRetry, missingChainValues } from './ChainRetry';
import type { Outcome } from './upload';

/** At most this many problem lines are listed; the rest is counted. */
const SHOWN_PROBLEMS = 200;

interface ProblemRow {
  key: string;
  line: number | null;
  /** The second column: the parameter, or the kind of note. */
  what: ReactNode;
  whatClass?: string;
  message: string;
}

/** A dense table of line-numbered problems: line, what, message. */
function ProblemTable({ columns, rows }: { columns: [string, string]; rows: ProblemRow[] }) {
  return (
    <table className="table table-dense problems">
      <thead>
        <tr>
          <th className="num">Line</th>
          <th>{columns[0]}</th>
          <th>{columns[1]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td className="num">{row.line ?? '—'}</td>
            <td className={row.whatClass}>{row.what}</td>
            <td>{row.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A text table whose header no importer knows: its columns can be mapped (never a picture, an empty or binary file). */
export function isMappable(error: ApiError): boolean {
  return error.code === 'UNSUPPORTED_FORMAT' && error.errors.some((e) => e.message === UNRECOGNISED_HEADER);
}

function FailedReport({ filename, error, onMap, children }: { filename: string; error: ApiError; onMap?: () => void; children?: ReactNode }) {
  const lined = [...error.errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const keyScreen = useKeyScreen();
  return (
    <div className="report report-error" data-testid="import-report" role="alert">
      <div className="report-head">
        <Badge tone="neg">Failed</Badge>
        <strong>{filename}</strong>
        <span className="muted">{error.title}</span>
        <code className="alert-code">{error.code}</code>
      </div>
      {error.detail !== '' && <p>{error.detail}</p>}
      {error.code === 'IMPORT_FAILED' && children === undefined && <p className="muted small">Nothing was imported: an import is all rows or none. Fix the lines below and try again.</p>}
      {children}
      {error.status === 401 && keyScreen && (
        <div className="report-actions">
          <button type="button" className="btn btn-primary btn-small" onClick={() => keyScreen.changeKey(REFUSED_KEY)}>
            Change key
          </button>
        </div>
      )}
      {onMap && isMappable(error) && (
        <div className="report-actions">
          <button type="button" className="btn btn-primary btn-small" onClick={onMap}>
            Map its columns…
          </button>
          <span className="muted small">Say which column holds the date, the type, the symbol, the amount…, preview, and save it as a format of your own.</span>
        </div>
      )}
      {lined.length > 0 && (
        <ProblemTable
          columns={['Field', 'Problem']}
          rows={lined.slice(0, SHOWN_PROBLEMS).map((e, i) => ({ key: `${e.line ?? 'x'}-${i}`, line: e.line ?? null, what: <code>{e.param}</code>, message: e.message }))}
        />
      )}
      {lined.length > SHOWN_PROBLEMS && <p className="muted small">…and {fmtInt(lined.length - SHOWN_PROBLEMS)} more.</p>}
    </div>
  );
}

/** A chain import's new events by scope, as the Events page shows them (all scopes by default). */
function eventScopes(scopes: ChainPostResponseT['eventsByScope']): string {
  const parts = [
    scopes.expiration > 0 ? `${fmtInt(scopes.expiration)} per expiration` : '',
    scopes.book > 0 ? `${fmtInt(scopes.book)} of the whole book` : '',
    scopes.position === null ? 'those on your strikes still being worked out: see Events' : scopes.position > 0 ? `${fmtInt(scopes.position)} on your strikes` : '',
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

function ChainReport({ filename, result: r }: { filename: string; result: ChainPostResponseT }) {
  return (
    <div className="report report-ok" data-testid="import-report">
      <div className="report-head">
        <Badge tone="pos">{r.stored ? 'Stored' : 'Already stored'}</Badge>
        <strong>{filename}</strong>
      </div>
      <p>
        {r.symbol} · spot {fmtPrice(r.spot)} · {fmtCount(r.contracts, 'contract')} · {fmtCount(r.expirations, 'expiration')} · quoted {fmtDateTime(r.quoteTime)} ·{' '}
        <span data-testid="chain-new-events">
          {fmtCount(r.events, 'new event')}
          {(r.events > 0 || r.eventsByScope.position === null) && ` (${eventScopes(r.eventsByScope)})`}
        </span>
      </p>
      {r.eventReport !== null && (
        <details className="small" data-testid="chain-event-report">
          <summary>
            Events: {r.eventReport.lines[0]}
          </summary>
          <ul className="comparison-lines">
            {r.eventReport.lines.slice(1).map((line) => (
              <li key={line}>{line.trim()}</li>
            ))}
          </ul>
        </details>
      )}
      {r.excluded.expired + r.excluded.adjusted + r.excluded.unusableIv > 0 && (
        <p className="muted small" data-testid="chain-excluded">
          Left out of the exposure figures:{' '}
          {[
            r.excluded.expired > 0 ? `${fmtCount(r.excluded.expired, 'expired contract')}` : '',
            r.excluded.adjusted > 0 ? `${fmtCount(r.excluded.adjusted, 'contract')} of adjusted roots (like AMD1)` : '',
            r.excluded.unusableIv > 0 ? `${fmtCount(r.excluded.unusableIv, 'contract')} with unusable IV (≤ 0 or > 500%: in open interest, no exposure)` : '',
          ]
            .filter((part) => part !== '')
            .join(' · ')}
          .
        </p>
      )}
      <div className="report-actions">
        <button type="button" className="btn btn-small" onClick={() => navigate('exposure', { symbol: r.symbol })}>
          Open exposure for {r.symbol}
        </button>
        {r.events > 0 && (
          <button type="button" className="btn btn-small btn-ghost" onClick={() => navigate('events')}>
            See the events
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * The rows read that no other count shows: the rows merged into another row's transaction (a symbol change's or a
 * special dividend's pair), listed by the server, so the numbers add up on screen (212 read = 210 imported + 2
 * merged); a report stored before the server listed them shows the difference, said as such.
 */
function MergedLine({ report }: { report: ImportReportT }) {
  if (report.mergedCount > 0) {
    return (
      <p className="small" data-testid="import-merged">
        {fmtCount(report.mergedCount, 'row')} merged into another row&apos;s transaction: {report.merged.map((m) => `lines ${m.lines.join(' + ')} (${m.reason})`).join('; ')}
        {report.merged.length > 0 ? '.' : ''}
      </p>
    );
  }
  const unaccounted = report.rows - report.imported - report.duplicates - report.skippedCount;
  if (unaccounted <= 0) return null;
  return (
    <p className="small muted" data-testid="import-merged">
      {fmtCount(unaccounted, 'row')} read {unaccounted === 1 ? 'is' : 'are'} in none of these counts: rows the importer merged into another row&apos;s transaction (the two rows of a
      symbol change or a special dividend become one), or rows that hold no transaction. This import&apos;s report does not list which.
    </p>
  );
}

/**
 * Whether the file agrees with itself as the journal reads it (docs/journal.md §Reconciliation): every figure it states
 * (a total line, a realized P&L, its positions) beside the journal's, those that differ first; "Differs from the
 * broker's figures" until fixed, undone or acknowledged.
 */
function Reconciliation({ report, status, onAcknowledge, busy }: { report: ImportReportT; status: ImportReportT['status']; onAcknowledge: () => void; busy: boolean }) {
  if (report.reconciliationCount === 0) return null;
  const listed = report.reconciliation.length < report.reconciliationCount ? <p className="muted small">The first {fmtInt(report.reconciliation.length)} of {fmtInt(report.reconciliationCount)} figures are listed.</p> : null;
  if (status === 'ready') {
    return (
      <details className="report-details" data-testid="import-reconciliation">
        <summary>Agrees with {fmtCount(report.reconciliationCount, 'figure')} the file states about itself</summary>
        <ReconciliationTable rows={report.reconciliation} />
        {listed}
      </details>
    );
  }
  return (
    <div className="recon-block" data-testid="import-reconciliation">
      <p className="small">
        {report.reconciliationCount === 1 ? (
          <>The figure the file states about itself differs from the journal&apos;s.</>
        ) : (
          <>
            <strong>{fmtInt(report.reconciliationDiffers)}</strong> of the {fmtInt(report.reconciliationCount)} figures the file states about itself {report.reconciliationDiffers === 1 ? 'differs' : 'differ'} from the
            journal&apos;s.
          </>
        )}{' '}
        The journal checks them again whenever it changes: an opening entered, a missing file imported, this import undone.
      </p>
      <ReconciliationTable rows={report.reconciliation} />
      {listed}
      {status === 'differs' && (
        <div className="report-actions">
          <button type="button" className="btn btn-small" onClick={onAcknowledge} disabled={busy} data-testid="acknowledge-import">
            Acknowledge the differences
          </button>
          <span className="muted small">They stay in this report; Positions stops listing them.</span>
        </div>
      )}
    </div>
  );
}

/**
 * The manual openings this file's rows replaced (docs/journal.md, "Manual entries"): retired, so that no position and no
 * premium counts twice; undoing the import brings them back. A report of a server before issue 27 has none.
 */
function SupersededManual({ report }: { report: ImportReportT }) {
  const known: Partial<Pick<ImportReportT, 'supersededManual' | 'supersededManualCount'>> = report;
  const rows = known.supersededManual ?? [];
  const count = known.supersededManualCount ?? rows.length;
  if (count === 0) return null;
  return (
    <div className="report-superseded" data-testid="import-superseded">
      <p className="small">
        <strong>{fmtCount(count, 'opening')} entered by hand replaced</strong> by this file&apos;s rows of the same positions (retired, not deleted: undoing this import brings{' '}
        {count === 1 ? 'it' : 'them'} back).
      </p>
      <ul className="small muted">
        {rows.map((m) => (
          <li key={m.id}>
            {typeLabel(m.type)} {fmtNumber(m.quantity, 0)} {fmtSymbol(m.symbol)} on {m.tradeDate.slice(0, 10)}
            {m.importedQuantity < m.quantity && ` — the file holds ${fmtNumber(m.importedQuantity, 0)} of them then: the rest is listed on Positions as opened before the history`}
          </li>
        ))}
        {rows.length < count && <li>and {fmtInt(count - rows.length)} more</li>}
      </ul>
    </div>
  );
}

function BrokerReport({ filename, report: r, onUndo }: { filename: string; report: ImportReportT; onUndo: (id: number) => void }) {
  const api = useApi();
  const [status, setStatus] = useState(r.status);
  const [busy, setBusy] = useState(false);
  const acknowledge = () => {
    setBusy(true);
    api
      .call('POST /imports/{id}/acknowledge', { params: { id: r.id } })
      .then((answer) => setStatus(answer.status))
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  const numbers: Array<[string, number, string]> = [
    ['Rows read', r.rows, ''],
    ['Imported', r.imported, 'pos'],
    ['Duplicates', r.duplicates, ''],
    ['Skipped', r.skippedCount, ''],
    ...(r.mergedCount > 0 ? [['Merged', r.mergedCount, ''] as [string, number, string]] : []),
    ['Warnings', r.warningCount, r.warningCount > 0 ? 'warn' : ''],
  ];
  // A report keeps the first lines of each reason (docs/importers.md §Bounded): say so when it lists fewer.
  const listed = r.skipped.length + r.warnings.length;
  const counted = r.skippedCount + r.warningCount;
  return (
    <div className={`report ${status === 'differs' ? 'report-warn' : 'report-ok'}`} data-testid="import-report" data-status={status}>
      <div className="report-head">
        {status === 'differs' ? (
          <Badge tone="warn" title="A figure the file states about itself does not agree with the journal's">
            Differs from the broker&apos;s figures
          </Badge>
        ) : status === 'acknowledged' ? (
          <Badge tone="neutral" title="It differs; you acknowledged it">
            Imported · differences acknowledged
          </Badge>
        ) : (
          <Badge tone="pos">Imported</Badge>
        )}
        <strong>{filename}</strong>
        <span className="muted">
          broker <strong data-testid="import-broker">{r.broker}</strong>
        </span>
        {r.accounts.length > 0 && <span className="muted">account {r.accounts.map((a) => a.name).join(', ')}</span>}
      </div>
      <dl className="report-numbers">
        {numbers.map(([label, value, tone]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className={tone === '' ? 'num' : `num ${tone}`}>{fmtInt(value)}</dd>
          </div>
        ))}
      </dl>
      <MergedLine report={r} />
      {r.openedBeforeHistory > 0 && (
        <p className="small warn" data-testid="import-opened-before-history">
          {fmtCount(r.openedBeforeHistory, 'close', 'closes')} without an opening (opened before this file&apos;s first row): counted among the warnings below and listed on{' '}
          <a href="#/positions">Positions, Needs attention</a>, where each opening can be entered.
        </p>
      )}
      <Reconciliation report={r} status={status} onAcknowledge={acknowledge} busy={busy} />
      <SupersededManual report={r} />
      {counted > 0 && (
        <details className="report-details">
          <summary>Skipped rows and warnings</summary>
          {r.skippedReasons.length > 0 && (
            <ul className="muted small" data-testid="skipped-reasons">
              {r.skippedReasons.map((reason) => (
                <li key={reason.reason}>
                  {fmtCount(reason.count, 'row')} skipped: {reason.reason}
                </li>
              ))}
            </ul>
          )}
          {listed < counted && <p className="muted small">The first lines of each reason are listed ({fmtInt(listed)} of {fmtInt(counted)}).</p>}
          <ProblemTable
            columns={['Kind', 'Reason']}
            rows={[
              ...r.skipped.slice(0, SHOWN_PROBLEMS).map((s, i) => ({ key: `s${i}`, line: s.line, what: 'skipped', message: s.reason })),
              ...r.warnings.slice(0, SHOWN_PROBLEMS).map((w, i) => ({ key: `w${i}`, line: w.line ?? null, what: 'warning', whatClass: 'warn', message: w.message })),
            ]}
          />
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

/** A chain file refused for what it lacks (spot, quote time, symbol): the form asks for it, then the stored chain. */
function ChainNeedsValues({ filename, file, error: first }: { filename: string; file: File; error: ApiError }) {
  const [error, setError] = useState(first);
  const [result, setResult] = useState<ChainPostResponseT | null>(null);
  if (result) return <ChainReport filename={filename} result={result} />;
  const missing = missingChainValues(error);
  return (
    <FailedReport filename={filename} error={error}>
      {missing.length > 0 ? <ChainRetry file={file} missing={missing} onStored={setResult} onFailed={setError} /> : undefined}
    </FailedReport>
  );
}

/** The result of one uploaded file: the line-numbered problems of a failure, a stored chain, or an import with undo. */
export function ImportReport({ outcome, onUndo, onMap }: { outcome: Outcome; onUndo: (id: number) => void; onMap?: (file: File) => void }) {
  if (outcome.kind === 'error' && outcome.target === 'chain' && missingChainValues(outcome.error).length > 0) return <ChainNeedsValues filename={outcome.filename} file={outcome.file} error={outcome.error} />;
  if (outcome.kind === 'error') return <FailedReport filename={outcome.filename} error={outcome.error} {...(onMap ? { onMap: () => onMap(outcome.file) } : {})} />;
  if (outcome.kind === 'chain') return <ChainReport filename={outcome.filename} result={outcome.result} />;
  return <BrokerReport filename={outcome.filename} report={outcome.report} onUndo={onUndo} />;
}
