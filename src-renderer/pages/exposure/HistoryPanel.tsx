import type { Formula } from '../../../src-shared/api/constants';
import { LevelsChart } from '../../components/charts';
import { AsyncStatus, Panel } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import type { ScopeQuery } from './scope';

/** `2026-11-20 09:30–16:00 ET` within a day, else `2022-02-05 20:09 ET → 2024-01-07 10:52 ET`: the axis shows times alone within a day. */
function span(from: string, to: string): string {
  const a = fmtDateTime(from);
  const b = fmtDateTime(to);
  return a.slice(0, 10) === b.slice(0, 10) ? `${a.slice(0, 16)}–${b.slice(11)}` : `${a} → ${b}`;
}

/** Levels over time: spot, the flip and the walls of every stored snapshot (/gex/history), over the page's scope. */
export function HistoryPanel({ symbol, formula, scope, version }: { symbol: string; formula: Formula; scope: ScopeQuery; version: string }) {
  const api = useApi();
  const key = JSON.stringify(scope);
  const history = useAsync((signal) => api.call('GET /gex/history', { query: { symbol, formula, ...scope } }, { signal }), [api, symbol, formula, key, version]);
  const h = history.data;
  const first = h?.points[0];
  const last = h?.points[h.points.length - 1];
  return (
    <Panel
      title="Levels over time"
      id="gex-history"
      actions={
        <span className="muted small tnum" data-testid="history-span">
          {h ? fmtCount(h.points.length, 'snapshot') : ''}
          {first && last && h && h.points.length >= 2 ? ` · ${span(first.quoteTime, last.quoteTime)}` : ''}
        </span>
      }
    >
      <AsyncStatus state={history} />
      {h && h.points.length < 2 && <p className="muted pad">One snapshot stored: import or poll another one of {symbol} to see the levels move.</p>}
      {h && h.points.length >= 2 && first && last && (
        <>
          <div className="legend legend-static">
            <span className="legend-item legend-spot">
              <span className="swatch" aria-hidden="true" />
              Spot {fmtPrice(first.spot)} → {fmtPrice(last.spot)}
            </span>
            <span className="legend-item legend-flip">
              <span className="swatch" aria-hidden="true" />
              Flip {fmtPrice(first.gammaInflection)} → {fmtPrice(last.gammaInflection)}
            </span>
            <span className="legend-item legend-callwall">
              <span className="swatch" aria-hidden="true" />
              Call wall {fmtPrice(first.callWall?.strike)} → {fmtPrice(last.callWall?.strike)}
            </span>
            <span className="legend-item legend-putwall">
              <span className="swatch" aria-hidden="true" />
              Put wall {fmtPrice(first.putWall?.strike)} → {fmtPrice(last.putWall?.strike)}
            </span>
          </div>
          <LevelsChart history={h} />
        </>
      )}
    </Panel>
  );
}
