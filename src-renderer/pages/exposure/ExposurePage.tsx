import { useCallback, useEffect, useMemo, useState } from 'react';
import { FORMULA_OPTIONS, type Formula } from '../../../src-shared/api/constants';
import type { GexResponseT, VannaResponseT } from '../../../src-shared/api/schemas';
import { ImportOrDemo } from '../../components/DemoButton';
import { chartPalette, nearestStrike, spotMarkers, StrikeChart, useExposureTooltip, type StrikeMarker, type StrikeSeries } from '../../components/charts';
import { Badge, DemoBadge, EmptyState, ErrorBanner, Loading, Options, PageHead, Panel, Segmented, Stat } from '../../components/ui';
import { daysBetween } from '../../../src-shared/calendar';
import { dateInTimeZone, fmtCount, fmtDateTime, fmtExposure, fmtInt, fmtNumber, fmtPrice } from '../../format';
import { navigate, useApi, useAsync, useTheme, type Route } from '../../hooks';
import { ComparePanel, HistoryPanel, ProfilePanel, RollOffPanel, SnapshotPicker, type ScopeQuery } from './SnapshotPicker';

type ScopeMode = 'count' | 'pick';
/** The 0DTE switch: every expiration, the same-day one alone, or all but it. */
type DteMode = 'all' | '0dte' | 'ex0dte';
/** `count` of the Nearest scope: 1–5, or 0 for every expiration. */
const ALL_EXPIRATIONS = 0;

function scopeQuery(scope: ScopeMode, pickedKey: string, count: number, dte: DteMode): ScopeQuery {
  if (scope === 'pick' && pickedKey !== '') return { expirations: pickedKey };
  const limit = count === ALL_EXPIRATIONS ? {} : { expirationsCount: count };
  if (dte === '0dte') return { maxDte: 0, ...limit };
  if (dte === 'ex0dte') return { minDte: 1, ...limit };
  return count === ALL_EXPIRATIONS ? { minDte: 0 } : limit;
}

function dteOf(expiration: string, snapshotTime: string): number {
  return daysBetween(dateInTimeZone(Date.parse(snapshotTime)), expiration);
}

function GexPanel({ gex }: { gex: GexResponseT }) {
  const theme = useTheme();
  const unit = gex.meta.unit;
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const [visible, setVisible] = useState({ call: true, put: true, net: true });
  const series = useMemo<StrikeSeries[]>(() => {
    const list: StrikeSeries[] = [];
    if (visible.call) list.push({ label: 'Call GEX', color: palette.call, values: gex.data.map((r) => ({ strike: r.strike, value: r.callGEX })) });
    if (visible.put) list.push({ label: 'Put GEX', color: palette.put, values: gex.data.map((r) => ({ strike: r.strike, value: r.putGEX })) });
    if (visible.net) list.push({ label: 'Net GEX', color: palette.net, values: gex.data.map((r) => ({ strike: r.strike, value: r.netGEX })) });
    return list;
  }, [gex, visible, palette]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (series.length === 0) return [];
    const strikes = gex.data.map((r) => r.strike);
    // Spot and flip stand on rows of their own at the bottom, the walls hang from rows at the top (StrikeMarker).
    const list = spotMarkers(strikes, gex.stockPrice, palette);
    if (gex.gammaInflection !== null) {
      const flip = nearestStrike(strikes, gex.gammaInflection);
      if (flip !== null) list.push({ strike: flip, label: `Flip ${fmtPrice(gex.gammaInflection)}`, color: palette.warn, edge: 'bottom' });
    }
    if (gex.callWall) list.push({ strike: gex.callWall.strike, label: `Call wall ${fmtPrice(gex.callWall.strike)}`, color: palette.pos, edge: 'top' });
    if (gex.putWall) list.push({ strike: gex.putWall.strike, label: `Put wall ${fmtPrice(gex.putWall.strike)}`, color: palette.neg, edge: 'top' });
    return list;
  }, [gex, series.length, palette]);
  const focus = useMemo(() => ({ from: gex.stockPrice * 0.9, to: gex.stockPrice * 1.1 }), [gex.stockPrice]);
  const { formatValue, tooltip } = useExposureTooltip(gex.data, unit, (r) => [
    ['Calls', fmtExposure(r.callGEX, unit)],
    ['Puts', fmtExposure(r.putGEX, unit)],
    ['Net', fmtExposure(r.netGEX, unit)],
    ['OI', `calls ${fmtInt(r.callOI)} · puts ${fmtInt(r.putOI)}`],
  ]);

  return (
    <>
      <div className="stats-grid stats-grid-6" data-testid="gex-key-numbers">
        <Stat label="Spot" value={fmtPrice(gex.stockPrice)} sub={fmtCount(gex.meta.contracts, 'contract')} />
        <Stat
          label="Total GEX"
          value={<span className={gex.totalGEX >= 0 ? 'pos' : 'neg'}>{fmtExposure(gex.totalGEX, unit)}</span>}
          sub={
            <Badge tone={gex.gammaZone === 'positive' ? 'pos' : 'neg'} title={gex.gammaZone === 'positive' ? 'Dealers long gamma: they dampen moves' : 'Dealers short gamma: they amplify moves'}>
              {gex.gammaZone} gamma
            </Badge>
          }
        />
        <Stat
          label="Gamma flip"
          value={fmtPrice(gex.gammaInflection)}
          sub={gex.gammaInflection !== null ? `${fmtNumber(((gex.gammaInflection - gex.stockPrice) / gex.stockPrice) * 100, 2)}% from spot` : 'no sign change within ±20%'}
        />
        <Stat label="Call wall" tone="tone-pos" value={gex.callWall ? fmtPrice(gex.callWall.strike) : '—'} sub={gex.callWall ? fmtExposure(gex.callWall.gex, unit) : 'no calls'} title="Largest call GEX: resistance / pin magnet" />
        <Stat label="Put wall" tone="tone-neg" value={gex.putWall ? fmtPrice(gex.putWall.strike) : '—'} sub={gex.putWall ? fmtExposure(gex.putWall.gex, unit) : 'no puts'} title="Most negative put GEX: support / acceleration point" />
        <Stat label="Expirations" value={fmtInt(gex.meta.expirations.length)} sub={gex.meta.expirations.length <= 3 ? gex.meta.expirations.join(', ') : `${gex.meta.expirations[0]} … ${gex.meta.expirations[gex.meta.expirations.length - 1]}`} />
      </div>
      <Panel
        title="Gamma exposure by strike"
        id="gex-chart"
        actions={
          <div className="legend" role="group" aria-label="Series">
            {(['call', 'put', 'net'] as const).map((key) => (
              <label key={key} className={`legend-item legend-${key}`}>
                <input type="checkbox" checked={visible[key]} onChange={(e) => setVisible({ ...visible, [key]: e.target.checked })} />
                <span className="swatch" aria-hidden="true" />
                {key === 'call' ? 'Calls' : key === 'put' ? 'Puts' : 'Net'}
              </label>
            ))}
            <span className="muted small">{unit}</span>
          </div>
        }
      >
        {gex.data.length === 0 ? (
          <p className="muted pad">No open interest in the chosen expirations.</p>
        ) : (
          <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} tooltip={tooltip} label={`Gamma exposure by strike for ${gex.symbol}`} height={360} />
        )}
      </Panel>
    </>
  );
}

function VannaPanel({ symbol, snapshotTime, snapshot }: { symbol: string; snapshotTime: string; snapshot: number | null }) {
  const api = useApi();
  const theme = useTheme();
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const [expiration, setExpiration] = useState('');
  const vanna = useAsync(
    (signal) => api.vanna({ symbol, ...(expiration === '' ? {} : { expiration }), ...(snapshot === null ? {} : { snapshot }) }, signal),
    [api, symbol, expiration, snapshotTime, snapshot],
  );
  const v: VannaResponseT | undefined = vanna.data;
  const series = useMemo<StrikeSeries[]>(
    () =>
      v
        ? [
            { label: 'Vanna', color: palette.net, values: v.data.map((r) => ({ strike: r.strike, value: r.vanna })) },
            { label: 'Charm', color: palette.warn, values: v.data.map((r) => ({ strike: r.strike, value: r.charm })), pane: 1 },
          ]
        : [],
    [v, palette],
  );
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!v) return [];
    const strikes = v.data.map((r) => r.strike);
    const list = spotMarkers(strikes, v.stockPrice, palette);
    const add = (level: number | null, label: string, color: string, edge: 'top' | 'bottom') => {
      if (level === null) return;
      const k = nearestStrike(strikes, level);
      if (k !== null) list.push({ strike: k, label: `${label} ${fmtPrice(level)}`, color, edge });
    };
    add(v.keyLevels.vannaFlip, 'Vanna flip', palette.warn, 'bottom');
    add(v.keyLevels.bullDriftTarget, 'Bull target', palette.pos, 'top');
    add(v.keyLevels.bearMaxDanger, 'Bear danger', palette.neg, 'top');
    return list;
  }, [v, palette]);
  const focus = useMemo(() => (v ? { from: v.stockPrice * 0.9, to: v.stockPrice * 1.1 } : undefined), [v]);
  const fmtUsd = useCallback((x: number) => fmtExposure(x, 'USD', false), []);

  return (
    <Panel
      title="Vanna & charm"
      id="vanna"
      actions={
        <label className="field-inline">
          Scope
          <select value={expiration} onChange={(e) => setExpiration(e.target.value)} data-testid="vanna-scope">
            <option value="">0–45 DTE aggregate</option>
            <Options items={v?.availableExpirations} label={(exp) => `${exp} (${dteOf(exp, snapshotTime)}d)`} />
          </select>
        </label>
      }
    >
      {vanna.error && <ErrorBanner error={vanna.error} onRetry={vanna.reload} />}
      {!v && !vanna.error && <Loading />}
      {v && (
        <>
          <div className="stats-grid stats-grid-fixed4 inner" data-testid="vanna-levels">
            <Stat
              label="Vanna regime"
              value={<Badge tone={v.keyLevels.vannaRegime === 'positive' ? 'pos' : 'neg'}>{v.keyLevels.vannaRegime}</Badge>}
              sub={`${v.mode === 'aggregate' ? `${v.minDte}–${v.maxDte} DTE` : `${v.expiration ?? ''} (${v.minDte}d)`} · ${fmtCount(v.meta.contracts, 'contract')}`}
            />
            <Stat label="Total vanna" value={<span className={v.totalVanna >= 0 ? 'pos' : 'neg'}>{fmtExposure(v.totalVanna, 'USD')}</span>} sub="dealer Δ per +1 vol point" />
            <Stat label="Total charm" value={<span className={v.totalCharm >= 0 ? 'pos' : 'neg'}>{fmtExposure(v.totalCharm, 'USD')}</span>} sub="dealer Δ per calendar day" />
            <Stat label="Vanna flip" value={fmtPrice(v.keyLevels.vannaFlip)} sub="sign change of the vanna profile" />
            <Stat label="Bull drift target" tone="tone-pos" value={fmtPrice(v.keyLevels.bullDriftTarget)} sub="IV falls, a day passes: dealers buy most" />
            <Stat label="Bear max danger" tone="tone-neg" value={fmtPrice(v.keyLevels.bearMaxDanger)} sub="IV rises: dealers sell most" />
            <Stat label="Bear deceleration" value={fmtPrice(v.keyLevels.bearDeceleration)} sub="selling eases — CSP zone" />
            <Stat label="Bull / bear ratio" value={v.keyLevels.bullBearRatio === null ? '—' : fmtNumber(v.keyLevels.bullBearRatio, 2)} sub="Σ bull flows / Σ bear flows" />
          </div>
          {v.data.length > 0 ? (
            <>
              <div className="legend legend-static">
                <span className="legend-item legend-net">
                  <span className="swatch" aria-hidden="true" />
                  Vanna ($ of dealer Δ per +1 vol point)
                </span>
                <span className="legend-item legend-charm">
                  <span className="swatch" aria-hidden="true" />
                  Charm ($ of dealer Δ per day, lower pane)
                </span>
              </div>
              <StrikeChart series={series} markers={markers} focus={focus} formatValue={fmtUsd} formatPane2={fmtUsd} label={`Vanna and charm by strike for ${v.symbol}`} height={380} pane2Height={150} />
            </>
          ) : (
            <p className="muted pad">No contracts in this scope.</p>
          )}
        </>
      )}
    </Panel>
  );
}

export function ExposurePage({ route }: { route: Route }) {
  const api = useApi();
  const chains = useAsync((signal) => api.chains(signal), [api]);
  const routeSymbol = route.params.get('symbol') ?? '';
  const [symbol, setSymbol] = useState(routeSymbol);
  const [formula, setFormula] = useState<Formula>('nominal');
  const [scope, setScope] = useState<ScopeMode>('count');
  const [count, setCount] = useState(3);
  const [picked, setPicked] = useState<string[]>([]);
  const [dte, setDte] = useState<DteMode>('all');
  const [snapshot, setSnapshot] = useState<number | null>(null);

  const symbols = chains.data?.symbols ?? [];
  useEffect(() => {
    if (routeSymbol !== '' && routeSymbol !== symbol) setSymbol(routeSymbol);
  }, [routeSymbol, symbol]);
  useEffect(() => {
    if (symbol === '' && symbols.length > 0) {
      const first = symbols[0];
      if (first) setSymbol(first.symbol);
    }
  }, [symbol, symbols]);

  const activeSymbol = symbol !== '' && symbols.some((s) => s.symbol === symbol) ? symbol : '';
  const info = symbols.find((s) => s.symbol === activeSymbol);
  const pickedKey = picked.join(',');
  const scopeParams = useMemo(() => scopeQuery(scope, pickedKey, count, dte), [scope, pickedKey, count, dte]);
  const scopeKey = JSON.stringify(scopeParams);
  const snapshots = useAsync((signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.snapshots(activeSymbol, signal)), [api, activeSymbol, info?.quoteTime, info?.snapshots]);
  const stored = snapshots.data?.snapshots ?? [];
  const selected = snapshot !== null && stored.some((s) => s.id === snapshot) ? snapshot : null;
  const gex = useAsync(
    (signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.gex({ symbol: activeSymbol, formula, ...scopeParams, ...(selected === null ? {} : { snapshot: selected }) }, signal)),
    // scopeKey stands for scopeParams (useAsync compares its dependencies by identity).
    [api, activeSymbol, formula, scopeKey, selected, info?.quoteTime],
  );
  const expirations = useAsync(
    (signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.expirations(activeSymbol, signal, selected ?? undefined)),
    [api, activeSymbol, info?.quoteTime, selected],
  );

  const changeSymbol = (next: string) => {
    setSymbol(next);
    setPicked([]);
    setSnapshot(null);
    navigate('exposure', { symbol: next });
  };
  const afterDelete = () => {
    chains.reload();
    snapshots.reload();
  };

  if (chains.error) return <ErrorBanner error={chains.error} onRetry={chains.reload} />;
  if (!chains.data) return <Loading label="Loading chains…" />;

  if (symbols.length === 0) {
    return (
      <div className="page" data-testid="page-exposure">
        <PageHead title="Exposure" />
        <EmptyState
          title="No option chains yet"
          actions={<ImportOrDemo onLoaded={chains.reload} what="a chain snapshot" />}
        >
          Dealer gamma, vanna and charm are computed from option-chain snapshots. Import a Cboe delayed-quotes file (CSV or JSON) for a ticker, enable the online source in Settings, or load the demo market.
        </EmptyState>
      </div>
    );
  }

  const g = gex.data;
  const available = g?.meta.availableExpirations ?? expirations.data?.expirations ?? [];
  const details = new Map((expirations.data?.details ?? []).map((d) => [d.expiration, d]));
  const snapshotTime = g?.meta.snapshotTime ?? info?.quoteTime ?? '';

  return (
    <div className="page" data-testid="page-exposure">
      <PageHead
        title="Exposure"
        meta={
          <>
            {g?.meta.source === 'demo' && <DemoBadge />}
            {g && (
              <span className="muted small" data-testid="snapshot-info">
                snapshot {fmtDateTime(g.meta.snapshotTime)} · source {g.meta.source} · computed {fmtDateTime(g.asOf)}
              </span>
            )}
          </>
        }
        toolbar={
          <>
            <label className="field-inline">
              Symbol
              <select value={activeSymbol} onChange={(e) => changeSymbol(e.target.value)} data-testid="symbol-select">
                <Options items={symbols} value={(s) => s.symbol} label={(s) => `${s.symbol} — ${fmtPrice(s.spot)}`} />
              </select>
            </label>
            <Segmented label="Formula" value={formula} options={FORMULA_OPTIONS} onChange={setFormula} />
          </>
        }
      />
      {stored.length > 0 && <SnapshotPicker snapshots={stored} selected={selected} onSelect={setSnapshot} onDeleted={afterDelete} />}

      <Panel className="scope-panel">
        <div className="scope">
          <Segmented
            label="Expiration scope"
            value={scope}
            onChange={setScope}
            options={[
              { value: 'count', label: 'Nearest' },
              { value: 'pick', label: 'Pick dates' },
            ]}
          />
          {scope === 'count' ? (
            <div className="segmented" role="group" aria-label="Number of expirations">
              {[1, 2, 3, 4, 5, ALL_EXPIRATIONS].map((n) => (
                <button key={n} type="button" className={n === count ? 'active' : ''} aria-pressed={n === count} onClick={() => setCount(n)}>
                  {n === ALL_EXPIRATIONS ? 'All' : n}
                </button>
              ))}
            </div>
          ) : (
            <fieldset className="exp-picks" data-testid="expiration-picks">
              <legend className="visually-hidden">Expirations</legend>
              {available.slice(0, 40).map((exp) => {
                const d = details.get(exp);
                return (
                  <label key={exp} className={`chip ${picked.includes(exp) ? 'on' : ''}`} title={d ? `${d.settlement}-settled · ${fmtCount(d.contracts, 'contract')} · OI ${fmtInt(d.openInterest)}` : undefined}>
                    <input
                      type="checkbox"
                      checked={picked.includes(exp)}
                      onChange={(e) => setPicked((list) => (e.target.checked ? [...list, exp].sort() : list.filter((x) => x !== exp)))}
                    />
                    {exp}
                    <span className="muted">{d ? `${d.dte}d` : snapshotTime !== '' ? `${dteOf(exp, snapshotTime)}d` : ''}</span>
                  </label>
                );
              })}
              {available.length > 40 && <span className="muted small">+{available.length - 40} later</span>}
              {picked.length === 0 && <span className="muted small">Pick one or more; until then: the nearest {fmtCount(count, 'expiration')}.</span>}
            </fieldset>
          )}
          {scope === 'count' && (
            <Segmented
              label="Days to expiry"
              value={dte}
              onChange={setDte}
              options={[
                { value: 'all', label: 'All', title: 'Every expiration in scope' },
                { value: '0dte', label: '0DTE', title: 'The expiration of the quote day alone (maxDte=0)' },
                { value: 'ex0dte', label: 'Ex-0DTE', title: 'All but the expiration of the quote day (minDte=1)' },
              ]}
            />
          )}
        </div>
      </Panel>

      {gex.error && <ErrorBanner error={gex.error} onRetry={gex.reload} />}
      {!g && !gex.error && <Loading label="Computing exposure…" />}
      {g && <GexPanel gex={g} />}
      {g && g.data.length === 0 && dte === '0dte' && <p className="muted pad">No expiration of the quote day in this snapshot.</p>}
      {g && activeSymbol !== '' && (
        <div className="grid-2">
          <ProfilePanel symbol={activeSymbol} formula={formula} scope={scopeParams} snapshot={selected} unit={g.meta.unit} />
          <RollOffPanel expirations={expirations.data} />
        </div>
      )}
      {g && activeSymbol !== '' && <HistoryPanel symbol={activeSymbol} formula={formula} scope={scopeParams} version={stored.map((s) => s.id).join(',')} />}
      {g && activeSymbol !== '' && <ComparePanel symbol={activeSymbol} formula={formula} scope={scopeParams} snapshots={stored} current={g.meta.snapshotId} unit={g.meta.unit} />}
      {activeSymbol !== '' && snapshotTime !== '' && <VannaPanel symbol={activeSymbol} snapshotTime={snapshotTime} snapshot={selected} />}
    </div>
  );
}
