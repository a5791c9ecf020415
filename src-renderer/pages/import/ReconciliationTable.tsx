/**
 * What a file states about itself beside the journal's figure (docs/journal.md §Reconciliation; docs/ui.md §Import):
 * the file's words for the figure and its line, the broker's figure, the journal's, and by how much they differ.
 */
import type { ReconciliationRowJson } from '../../../src-shared/api/schemas';
import { Badge } from '../../components/ui';
import { fmtDateTime, fmtMoney, fmtNumber, fmtSymbol } from '../../format';

function figure(row: ReconciliationRowJson, value: number, signed = false): string {
  if (row.unit === 'money') return fmtMoney(value, row.currency, signed);
  const text = fmtNumber(value, Number.isInteger(value) ? 0 : 4);
  return signed && value > 0 ? `+${text}` : text;
}

/** The figure's scope in words: its account, its instrument, its currency. */
function scope(row: ReconciliationRowJson): string {
  return [row.account, row.symbol === null ? null : fmtSymbol(row.symbol), row.unit === 'money' ? row.currency : null].filter((part) => part !== null && part !== '').join(' · ');
}

export function ReconciliationTable({ rows, testId = 'reconciliation-table' }: { rows: readonly ReconciliationRowJson[]; testId?: string }) {
  return (
    <div className="table-wrap">
      <table className="table table-dense reconciliation" data-testid={testId}>
        <thead>
          <tr>
            <th>Figure the file states</th>
            <th className="num">Difference</th>
            <th className="num">Broker</th>
            <th className="num">Journal</th>
            <th className="col-lo">As of</th>
            <th className="col-mid" />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={`${row.label}-${row.symbol ?? ''}-${index}`} className={row.ok ? '' : 'row-differs'}>
              <td>
                <span className="recon-label">{row.label}</span>
                <span className="muted small recon-scope">
                  {scope(row)}
                  {row.line !== null ? ` · line ${row.line}` : ''}
                </span>
                {row.note !== null && <span className="small recon-note">{row.note}</span>}
              </td>
              <td className={`num ${row.ok ? 'muted' : 'neg'}`}>{row.ok ? '—' : figure(row, row.difference, true)}</td>
              <td className="num">{figure(row, row.broker)}</td>
              <td className="num">{figure(row, row.journal)}</td>
              <td className="col-lo tnum small">{fmtDateTime(row.asOf).split(' ')[0]}</td>
              <td className="col-mid">{row.ok ? <Badge tone="pos">agrees</Badge> : <Badge tone="warn">differs</Badge>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
