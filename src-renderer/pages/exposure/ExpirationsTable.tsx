/** Every expiration of the snapshot with the market's own figures (/v1/expirations details): one row each. */
import type { ExpirationsResponseT } from '../../../src-shared/api/schemas';
import { Badge, DataTable, Loading, num, Panel } from '../../components/ui';
import { fmtCount, fmtInt, fmtNumber, fmtPct, fmtPrice } from '../../format';
import { fmtMove, fmtMovePct, type ExpirationDetail } from './KeyNumbers';

/** The 25-delta skew in vol points, signed: 0.016 → `+1.6`. */
export function fmtSkew(skew: number | null): string {
  if (skew === null) return '—';
  const shown = fmtNumber(skew * 100, 1);
  return shown === '0.0' ? shown : skew > 0 ? `+${shown}` : shown;
}

function fmtVolume(detail: ExpirationDetail): string {
  if (detail.callVolume === null && detail.putVolume === null) return '—';
  return `${fmtInt(detail.callVolume ?? 0)} / ${fmtInt(detail.putVolume ?? 0)}`;
}

const COLUMNS = [
  'Expiration',
  num('DTE', 'Calendar days from the quote date (New York)'),
  num('Exp. move', 'At-the-money straddle: call mid + put mid, per share'),
  num('± %', 'Straddle ÷ spot'),
  num('Max pain', 'The strike where the open interest pays least at expiry'),
  num('ATM IV', 'Mean IV of the at-the-money call and put'),
  num('25Δ skew', 'IV of the 25-delta put minus IV of the 25-delta call, in vol points'),
  num('P/C OI', 'Put open interest ÷ call open interest'),
  num('Call OI'),
  num('Put OI'),
  num('Volume C / P', 'Call and put volume; — where the source has none'),
  num('Gamma share', 'Share of the book’s absolute gamma'),
] as const;

export function ExpirationsTable({ expirations, inScope }: { expirations: ExpirationsResponseT | undefined; inScope: readonly string[] }) {
  const scope = new Set(inScope);
  return (
    <Panel
      title="Expirations"
      id="expirations"
      actions={
        expirations && (
          <span className="muted small">
            {fmtCount(expirations.details.length, 'expiration')} · <span className="scope-dot" aria-hidden="true" /> in the scope above
          </span>
        )
      }
    >
      {!expirations && <Loading />}
      {expirations && expirations.details.length === 0 && <p className="muted pad">No unexpired expiration in this snapshot.</p>}
      {expirations && expirations.details.length > 0 && (
        <div className="table-scroll">
          <DataTable columns={COLUMNS} testId="expirations-table" className="table table-dense expirations-table">
            {expirations.details.map((d) => (
              <tr key={d.expiration} className={scope.has(d.expiration) ? 'in-scope' : undefined} aria-current={scope.has(d.expiration) ? 'true' : undefined}>
                <td className="tnum">
                  {scope.has(d.expiration) && <span className="scope-dot" title="In the scope above" />}
                  {d.expiration}
                  {d.settlement === 'AM' && (
                    <>
                      {' '}
                      <Badge title="AM-settled: expires at the open">AM</Badge>
                    </>
                  )}
                </td>
                <td className="num">{d.dte}</td>
                <td className="num">{fmtMove(d)}</td>
                <td className="num">{fmtMovePct(d)}</td>
                <td className="num">{fmtPrice(d.maxPain)}</td>
                <td className="num">{fmtPct(d.atmIV, 1)}</td>
                <td className="num">{fmtSkew(d.skew25)}</td>
                <td className="num">{d.putCallOIRatio === null ? '—' : fmtNumber(d.putCallOIRatio, 2)}</td>
                <td className="num">{fmtInt(d.callOI)}</td>
                <td className="num">{fmtInt(d.putOI)}</td>
                <td className="num">{fmtVolume(d)}</td>
                <td className="num">{fmtPct(d.gammaShare, 1)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
    </Panel>
  );
}
