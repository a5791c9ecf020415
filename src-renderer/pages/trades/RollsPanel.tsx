/**
 * The roll assistant on a trade's detail (GET /journal/trades/{id}/rolls, docs/journal.md §Rolls; docs/ui.md §Rolls):
 * for each short leg, what buying it back costs and the candidates of the next expirations, each with its net credit at
 * mid and at the natural price, its delta, its return and its place against that expiration's walls and flip; the
 * filters of the API (net credit, |delta|, beyond the wall); and the candidates of the expiration picked drawn on the
 * dealers' map of that expiration, from the same snapshot (`/gex?snapshot=&expirations=<date>`).
 */
import { useMemo, useState } from 'react';
import type { GexResponseT, RollCandidateJson, RollLegJson, RollsQueryT, RollsResponseT } from '../../../src-shared/api/schemas';
import { dealerMapMarkers, nearestStrike, netGexSeries, StrikeChart, type StrikeMarker, type StrikeSeries, useChartPalette } from '../../components/charts';
import { AsyncStatus, Loading } from '../../components/ui';
import { fmtDateTime, fmtExposure, fmtMoney, fmtNumber, fmtPct, fmtPrice } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { PLACE_LABELS } from './labels';
import { expirationWords, legTitle, netNumber, netText, wantedQuery, type RollFilters } from './rolls';

function Filters({ value, onChange }: { value: RollFilters; onChange: (next: RollFilters) => void }) {
  return (
    <div className="rolls-filters" data-testid="rolls-filters">
      <label className="field-inline field-check" title="Only rolls for a net credit (or even) at the price chosen">
        <input type="checkbox" checked={value.credit} onChange={(e) => onChange({ ...value, credit: e.target.checked })} data-testid="rolls-credit" />
        Net credit
      </label>
      <label className="field-inline" title="Which price the net credit filter reads: mid, or natural (buy at the ask, sell at the bid)">
        at
        <select value={value.net} onChange={(e) => onChange({ ...value, net: e.target.value === 'natural' ? 'natural' : 'mid' })} data-testid="rolls-net">
          <option value="mid">mid</option>
          <option value="natural">natural</option>
        </select>
      </label>
      <label className="field-inline" title="Only candidates whose |delta| is at most this (empty: any)">
        |Δ| ≤
        <input type="number" min={0} max={1} step={0.05} value={value.maxDelta} size={4} onChange={(e) => onChange({ ...value, maxDelta: e.target.value })} data-testid="rolls-max-delta" />
      </label>
      <label className="field-inline field-check" title="Only strikes beyond their expiration's wall: a put below the put wall, a call above the call wall">
        <input type="checkbox" checked={value.beyondWall} onChange={(e) => onChange({ ...value, beyondWall: e.target.checked })} data-testid="rolls-beyond-wall" />
        Beyond the wall
      </label>
    </div>
  );
}

/** The candidates of one expiration on its dealers' map: the leg's strike now, each candidate, the one picked labelled. */
function RollMap({ symbol, snapshotId, leg, expiration, candidates, picked }: { symbol: string; snapshotId: number; leg: RollLegJson; expiration: string; candidates: RollCandidateJson[]; picked: RollCandidateJson | null }) {
  const api = useApi();
  const palette = useChartPalette();
  const gex = useAsync<GexResponseT>((signal) => api.call('GET /gex', { query: { symbol, snapshot: snapshotId, expirations: expiration } }, { signal }), [api, symbol, snapshotId, expiration]);
  const data = gex.data;
  const series = useMemo<StrikeSeries[]>(() => (data ? netGexSeries(data, palette) : []), [data, palette]);
  const drawnAt = useMemo(() => {
    const strikes = data?.data.map((r) => r.strike) ?? [];
    return (strike: number) => nearestStrike(strikes, strike);
  }, [data]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!data) return [];
    const list = dealerMapMarkers(data, palette);
    const flip = data.gammaInflection === null ? null : drawnAt(data.gammaInflection);
    if (flip !== null && data.gammaInflection !== null) list.push({ strike: flip, label: `Flip ${fmtPrice(data.gammaInflection)}`, color: palette.warn, edge: 'bottom' });
    const now = drawnAt(leg.leg.strike);
    if (now !== null) list.push({ strike: now, label: `Short ${fmtPrice(leg.leg.strike)}${leg.leg.right} now`, color: palette.neg, edge: 'bottom' });
    const chosen = picked ?? candidates[0] ?? null;
    const at = chosen === null ? null : drawnAt(chosen.strike);
    if (chosen !== null && at !== null && chosen.strike !== leg.leg.strike) list.push({ strike: at, label: `Roll to ${fmtPrice(chosen.strike)}${leg.leg.right} ${netText(chosen.netMid)}`, color: palette.accent, edge: 'bottom' });
    return list;
  }, [data, palette, drawnAt, leg, candidates, picked]);
  // Every candidate strike as a line behind the bars; the span from the leg's strike to the farthest one shaded.
  const lines = useMemo(() => candidates.map((c) => ({ at: c.strike, color: palette.accent })), [candidates, palette]);
  const band = useMemo(() => {
    const strikes = [leg.leg.strike, ...candidates.map((c) => c.strike)];
    return { from: Math.min(...strikes), to: Math.max(...strikes) };
  }, [leg, candidates]);
  const focus = useMemo(() => {
    if (!data) return undefined;
    return { from: Math.min(data.stockPrice * 0.9, band.from * 0.99), to: Math.max(data.stockPrice * 1.1, band.to * 1.01) };
  }, [data, band]);
  const formatValue = useMemo(() => (value: number) => fmtExposure(value, data?.meta.unit ?? 'shares'), [data]);
  if (gex.error) return <p className="muted small pad">No dealers&apos; map of {expiration}: {gex.error.message}</p>;
  if (!data) return <Loading label={`Loading the GEX of ${expiration}…`} />;
  return (
    <div className="book-map" data-testid="rolls-map" data-expiration={expiration} data-strikes={candidates.map((c) => c.strike).join(',')}>
      <StrikeChart series={series} markers={markers} focus={focus} lines={lines} band={band} formatValue={formatValue} label={`Net GEX by strike for ${symbol} on ${expiration} with the roll candidates`} height={260} />
      <p className="muted small">
        Net GEX of the {expiration} expiration alone in the snapshot of {fmtDateTime(data.meta.snapshotTime)} · spot {fmtPrice(data.stockPrice)} · put wall {fmtPrice(data.putWall?.strike ?? null)} · flip{' '}
        {fmtPrice(data.gammaInflection)} · call wall {fmtPrice(data.callWall?.strike ?? null)}; the shaded span holds the candidates (lines).
      </p>
    </div>
  );
}

/** One candidate in words, under the grid: every figure the API gives of it. */
function CandidateLine({ body, leg, c }: { body: RollsResponseT; leg: RollLegJson; c: RollCandidateJson }) {
  return (
    <p className="rolls-picked small" data-testid="rolls-picked" data-symbol={c.symbol}>
      <strong>
        Roll to {fmtPrice(c.strike)}
        {leg.leg.right} {c.expiration} ({c.dte} DTE)
      </strong>
      : net {netText(c.netMid)} at mid, {netText(c.netNatural)} natural · sell at mid {fmtPrice(c.openMid, 4)} (bid {fmtPrice(c.bid, 4)}, ask {fmtPrice(c.ask, 4)}) · Δ {c.delta === null ? '—' : fmtNumber(c.delta, 2)} · P(OTM){' '}
      {fmtPct(c.probOTM, 0)} · IV {fmtPct(c.iv, 1)} · OI {c.openInterest.toLocaleString('en-US')} · collateral {c.collateral === null ? '—' : fmtMoney(c.collateral, body.currency)} · return {fmtPct(c.returnOnCollateral, 2)}, {fmtPct(c.annualized, 1)}{' '}
      a year · {c.place === null ? 'no levels' : PLACE_LABELS[c.place].toLowerCase()}
    </p>
  );
}

/**
 * The candidates as a grid: a row per expiration (its days and walls), a cell per strike from the leg's outward, each
 * with its net at mid (green a credit, red a debit) and its delta, edged by its place (beyond the wall, or between
 * the levels). A cell picks the candidate: its figures below, its expiration on the map.
 */
function RollGrid({ leg, picked, onPick }: { leg: RollLegJson; picked: RollCandidateJson | null; onPick: (c: RollCandidateJson) => void }) {
  const rows = leg.expirations.map((e) => ({ e, cells: leg.candidates.filter((c) => c.expiration === e.expiration) })).filter((r) => r.cells.length > 0);
  const width = Math.max(0, ...rows.map((r) => r.cells.length));
  return (
    <div className="table-wrap">
      <table className="table rolls-grid" data-testid="rolls-table">
        <thead>
          <tr>
            <th>Expiration</th>
            {/* One heading over the strikes: a filter drops cells, so a column is not a fixed step out of the money. */}
            <th colSpan={Math.max(1, width)} className="rolls-strikes-head" title="Each expiration's strikes from the leg's outward, as the filters keep them">
              Strikes outward →
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ e, cells }) => (
            <tr key={e.expiration} className={picked?.expiration === e.expiration ? 'rolls-shown' : undefined}>
              <th scope="row" className="rolls-exp" title={expirationWords(e)}>
                {e.expiration.slice(5)} <span className="muted small">{e.dte}d</span>
              </th>
              {Array.from({ length: width }, (_, i) => {
                const c = cells[i];
                if (c === undefined) return <td key={i} />;
                const selected = picked?.symbol === c.symbol;
                return (
                  <td key={c.symbol} className="num">
                    <button
                      type="button"
                      className={`rolls-cell place-${c.place ?? 'none'} ${selected ? 'selected' : ''}`}
                      onClick={() => onPick(c)}
                      aria-pressed={selected}
                      title={`${c.symbol}: net ${netText(c.netMid)} at mid, ${netText(c.netNatural)} natural; Δ ${c.delta === null ? '—' : fmtNumber(c.delta, 2)}; ${c.place === null ? 'no levels' : PLACE_LABELS[c.place]}`}
                      data-testid="rolls-row"
                      data-symbol={c.symbol}
                    >
                      <span className="rolls-strike">{fmtPrice(c.strike)}</span>
                      <span className={`rolls-net ${c.netMid === null ? '' : c.netMid >= 0 ? 'pos' : 'neg'}`}>{netNumber(c.netMid)}</span>
                      <span className="rolls-delta muted">Δ {c.delta === null ? '—' : fmtNumber(Math.abs(c.delta), 2)}</span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LegRolls({ body, leg }: { body: RollsResponseT; leg: RollLegJson }) {
  const [pickedSymbol, setPicked] = useState<string | null>(null);
  const [expiration, setExpiration] = useState<string | null>(null);
  const picked = leg.candidates.find((c) => c.symbol === pickedSymbol) ?? leg.candidates[0] ?? null;
  const firstWith = picked?.expiration ?? leg.expirations[0]?.expiration ?? null;
  const shown = expiration !== null && leg.expirations.some((e) => e.expiration === expiration) ? expiration : firstWith;
  const ofShown = leg.candidates.filter((c) => c.expiration === shown);
  return (
    <section className="rolls-leg" data-testid="rolls-leg" data-leg={leg.leg.symbol} aria-label={`Rolls of ${legTitle(leg)}`}>
      <h4 className="subhead">
        {legTitle(leg)}{' '}
        <span className="muted small">
          buy back at mid {fmtPrice(leg.closeMid, 4)} · natural {fmtPrice(leg.closeNatural, 4)}
          {leg.closeMid === null && ' (no two-sided quote in this snapshot: no net)'}
        </span>
      </h4>
      {leg.candidates.length === 0 ? (
        <p className="muted small" data-testid="rolls-none">
          {leg.considered === 0 ? `The snapshot lists no ${leg.root ?? ''} expiration after ${leg.leg.expiration} within ${body.filters.maxDte} days.` : `None of the ${leg.considered} candidates passes the filters.`}
        </p>
      ) : (
        <>
          <RollGrid
            leg={leg}
            picked={picked}
            onPick={(c) => {
              setPicked(c.symbol);
              setExpiration(c.expiration);
            }}
          />
          <p className="muted small rolls-legend">
            Net per share at mid (green a credit, red a debit) and |Δ|; the edge: <span className="place-key place-below_put_wall">beyond the wall</span>{' '}
            <span className="place-key place-put_wall_to_flip">between the walls</span>. Pick a cell for its figures and its map.
          </p>
          {picked !== null && <CandidateLine body={body} leg={leg} c={picked} />}
        </>
      )}
      {shown !== null && (
        <>
          <label className="field-inline rolls-expiration">
            Map of
            <select value={shown} onChange={(e) => setExpiration(e.target.value)} data-testid="rolls-map-expiration">
              {leg.expirations.map((e) => (
                <option key={e.expiration} value={e.expiration}>
                  {expirationWords(e)}
                </option>
              ))}
            </select>
          </label>
          <RollMap symbol={body.symbol} snapshotId={body.snapshot.id} leg={leg} expiration={shown} candidates={ofShown} picked={picked !== null && picked.expiration === shown ? picked : null} />
        </>
      )}
    </section>
  );
}

export function RollsPanel({ tradeId }: { tradeId: string }) {
  const api = useApi();
  const [filters, setFilters] = useState<RollFilters>({ credit: false, net: 'mid', maxDelta: '', beyondWall: false });
  const query: RollsQueryT = wantedQuery(filters);
  const key = JSON.stringify(query);
  const rolls = useAsync((signal) => api.call('GET /journal/trades/{id}/rolls', { params: { id: tradeId }, query: query }, { signal }), [api, tradeId, key]);
  const body = rolls.data;
  return (
    <section className="rolls" aria-label="Rolls" data-testid="rolls">
      <Filters value={filters} onChange={setFilters} />
      <AsyncStatus state={rolls} label="Finding rolls…" />
      {body && (
        <>
          <p className="muted small" data-testid="rolls-snapshot">
            From the {body.symbol} snapshot of {fmtDateTime(body.snapshot.quoteTime)} (spot {fmtPrice(body.snapshot.spot)}): the next {body.filters.expirations} expirations within {body.filters.maxDte} days, the same strike and{' '}
            {body.filters.strikes} further out of the money.
          </p>
          {body.legs.length === 0 && <p className="muted small">No short option open in this trade: nothing to roll.</p>}
          {body.legs.map((leg) => (
            <LegRolls key={leg.leg.symbol} body={body} leg={leg} />
          ))}
        </>
      )}
    </section>
  );
}
