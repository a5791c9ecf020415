/**
 * Bars of plain HTML for a few named groups (the Strategy report): P&L as bars either side of zero, and the win rate
 * as a bar of 0–100 %. Categories, not a time axis: lightweight-charts' bars are for dates.
 */
import { fmtMoney, fmtPct } from '../../format';

export interface StatBar {
  key: string;
  label: string;
  pnl: number;
  winRate: number;
  trades: number;
}

export function StatBars({ rows, currency, label }: { rows: readonly StatBar[]; currency: string; label: string }) {
  const largest = Math.max(...rows.map((r) => Math.abs(r.pnl)), 0);
  const share = (value: number) => (largest > 0 ? (Math.abs(value) / largest) * 50 : 0);
  return (
    <div className="statbars" role="list" aria-label={label} data-testid="stat-bars">
      <div className="statbars-row statbars-head muted" aria-hidden="true">
        <span />
        <span>P&amp;L</span>
        <span>Win rate</span>
      </div>
      {rows.map((r) => (
        <div key={r.key} className="statbars-row" role="listitem" data-key={r.key} title={`${r.label}: ${fmtMoney(r.pnl, currency, true)} over ${r.trades} trades, ${fmtPct(r.winRate, 0)} won`}>
          <span className="statbars-label">{r.label}</span>
          <span className="statbars-pnl">
            <span className="statbars-plot">
              <span className="statbars-axis" />
              <span className={`statbars-bar ${r.pnl >= 0 ? 'statbars-pos' : 'statbars-neg'}`} style={r.pnl >= 0 ? { left: '50%', width: `${share(r.pnl)}%` } : { right: '50%', width: `${share(r.pnl)}%` }} />
            </span>
            <span className={`statbars-value num ${r.pnl >= 0 ? 'pos' : 'neg'}`}>{fmtMoney(r.pnl, currency, true)}</span>
          </span>
          <span className="statbars-win">
            <span className="statbars-track">
              <span className="statbars-rate" style={{ width: `${Math.max(0, Math.min(1, r.winRate)) * 100}%` }} />
            </span>
            <span className="statbars-value num">{fmtPct(r.winRate, 0)}</span>
          </span>
        </div>
      ))}
    </div>
  );
}
