/** The roll-off of gamma: each expiration's share of the book's absolute gamma, as bars of plain HTML. */
import { fmtPct } from '../../format';

/** Gamma per expiration as shares of the book: what rolls off at each date. */
export function RollOffBars({ details, limit = 12 }: { details: ReadonlyArray<{ expiration: string; dte: number; gammaShare: number; openInterest: number }>; limit?: number }) {
  const shown = details.slice(0, limit);
  const largest = Math.max(...shown.map((d) => d.gammaShare), 0);
  const rest = details.slice(limit).reduce((sum, d) => sum + d.gammaShare, 0);
  return (
    <div className="rolloff" role="list" aria-label="Share of the book's gamma per expiration" data-testid="rolloff">
      {shown.map((d) => (
        <div key={d.expiration} className="rolloff-row" role="listitem" title={`${d.expiration}: ${fmtPct(d.gammaShare, 2)} of the book's absolute gamma`}>
          <span className="rolloff-date">
            {d.expiration} <span className="muted">{d.dte}d</span>
          </span>
          <span className="rolloff-track">
            <span className="rolloff-bar" style={{ width: `${largest > 0 ? (d.gammaShare / largest) * 100 : 0}%` }} />
          </span>
          <span className="rolloff-value">{fmtPct(d.gammaShare, 1)}</span>
        </div>
      ))}
      {rest > 0 && (
        <div className="rolloff-row muted" role="listitem">
          <span className="rolloff-date">{details.length - limit} later</span>
          <span className="rolloff-track" />
          <span className="rolloff-value">{fmtPct(rest, 1)}</span>
        </div>
      )}
    </div>
  );
}
