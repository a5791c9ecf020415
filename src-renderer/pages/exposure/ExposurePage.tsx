/** The Exposure page: symbol, formula, snapshot and scope, and the panels of the chain's picture. */
import { useEffect, useMemo, useState } from 'react';
import { FORMULA_OPTIONS, type Formula } from '../../../src-shared/api/constants';
import { ImportOrDemo } from '../../components/DemoButton';
import { useRefreshNow } from '../../components/RefreshNow';
import { AsyncStatus, DemoBadge, EmptyState, ErrorBanner, Loading, Options, PageHead, Panel, Segmented } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtInt, fmtPrice } from '../../format';
import { navigate, useApi, useAsync, type Route } from '../../hooks';
import { ComparePanel } from './ComparePanel';
import { ExpirationsTable } from './ExpirationsTable';
import { HeatMapPanel } from './HeatMapPanel';
import { HistoryPanel } from './HistoryPanel';
import { KeyNumbers } from './KeyNumbers';
import { OpenInterestPanel } from './OpenInterestPanel';
import { ProfilePanel } from './ProfilePanel';
import { RollOffPanel } from './RollOffPanel';
import { ALL_EXPIRATIONS, dteOf, scopeQuery, type DteMode, type ScopeMode } from './scope';
import { SnapshotPicker } from './SnapshotPicker';
import { StrikeExposurePanel } from './StrikeExposurePanel';
import { TermStructurePanel } from './TermStructurePanel';
import { VannaPanel } from './VannaPanel';

export function ExposurePage({ route }: { route: Route }) {
  const api = useApi();
  const chains = useAsync((signal) => api.call('GET /chains', {}, { signal }), [api]);
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
  const snapshots = useAsync((signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.call('GET /snapshots', { query: { symbol: activeSymbol } }, { signal })), [api, activeSymbol, info?.quoteTime, info?.snapshots]);
  const stored = snapshots.data?.snapshots ?? [];
  const selected = snapshot !== null && stored.some((s) => s.id === snapshot) ? snapshot : null;
  const gex = useAsync(
    (signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.call('GET /gex', { query: { symbol: activeSymbol, formula, ...scopeParams, ...(selected === null ? {} : { snapshot: selected }) } }, { signal })),
    // scopeKey stands for scopeParams (useAsync compares its dependencies by identity).
    [api, activeSymbol, formula, scopeKey, selected, info?.quoteTime],
  );
  const gexData = gex.data;
  const inScope = useMemo(() => new Set(gexData?.meta.expirations ?? []), [gexData]);
  const expirations = useAsync(
    (signal) => (activeSymbol === '' ? Promise.resolve(undefined) : api.call('GET /expirations', { query: { symbol: activeSymbol, snapshot: selected ?? undefined } }, { signal })),
    [api, activeSymbol, info?.quoteTime, selected],
  );

  // A refresh's new snapshots: the symbol list, the newest quote (and so every answer) and the snapshot list reload.
  const refresh = useRefreshNow(() => {
    chains.reload();
    snapshots.reload();
  });
  const dteByExpiration = useMemo(() => new Map((expirations.data?.details ?? []).map((d) => [d.expiration, d.dte])), [expirations.data]);

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
        <PageHead title="Exposure" toolbar={refresh.button} />
        {refresh.progress}
        <EmptyState
          title="No option chains yet"
          actions={<ImportOrDemo onLoaded={chains.reload} what="a chain snapshot" />}
        >
          Dealer gamma, vanna and charm are computed from option-chain snapshots. Import a Cboe delayed-quotes file (CSV or JSON) for a ticker, fetch the
          watchlist and the underlyings of your open positions from the online source (Refresh now), or load the demo market.
        </EmptyState>
      </div>
    );
  }

  const g = gex.data;
  const available = g?.meta.availableExpirations ?? expirations.data?.expirations ?? [];
  const details = new Map((expirations.data?.details ?? []).map((d) => [d.expiration, d]));
  const snapshotTime = g?.meta.snapshotTime ?? info?.quoteTime ?? '';
  // The expirations of the snapshot /gex answered on (not the previous one's, while the new answer loads).
  const sameSnapshot = expirations.data && g && expirations.data.snapshotTime === g.meta.snapshotTime ? expirations.data : undefined;
  const nearest = g ? sameSnapshot?.details.find((d) => d.expiration === g.meta.expirations[0]) : undefined;

  return (
    <div className="page page-exposure" data-testid="page-exposure">
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
            {refresh.button}
          </>
        }
      />
      {refresh.progress}
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

      <AsyncStatus state={gex} label="Computing exposure…" />
      {g && <KeyNumbers gex={g} nearest={nearest} />}
      {g && <StrikeExposurePanel gex={g} nearest={nearest} />}
      {g && g.emptyScope !== null && (
        <p className="muted pad" data-testid="empty-scope">
          {g.emptyScope}
        </p>
      )}
      {g && g.emptyScope === null && g.data.length === 0 && dte === '0dte' && <p className="muted pad">No expiration of the quote day in this snapshot.</p>}
      {g && activeSymbol !== '' && (
        <div className="grid-2">
          <ProfilePanel symbol={activeSymbol} formula={formula} scope={scopeParams} snapshot={selected} unit={g.meta.unit} />
          <RollOffPanel expirations={sameSnapshot} />
        </div>
      )}
      {g && <ExpirationsTable expirations={sameSnapshot} inScope={g.meta.expirations} />}
      {g && (
        <div className="grid-2 grid-even">
          <TermStructurePanel expirations={sameSnapshot} inScope={inScope} />
          <OpenInterestPanel gex={g} nearest={nearest} />
        </div>
      )}
      {g && activeSymbol !== '' && <HeatMapPanel symbol={activeSymbol} formula={formula} snapshot={selected} snapshotTime={g.meta.snapshotTime} dteByExpiration={dteByExpiration} />}
      {g && activeSymbol !== '' && <HistoryPanel symbol={activeSymbol} formula={formula} scope={scopeParams} version={stored.map((s) => s.id).join(',')} />}
      {g && activeSymbol !== '' && <ComparePanel symbol={activeSymbol} formula={formula} scope={scopeParams} snapshots={stored} current={g.meta.snapshotId} unit={g.meta.unit} />}
      {activeSymbol !== '' && snapshotTime !== '' && <VannaPanel symbol={activeSymbol} snapshotTime={snapshotTime} snapshot={selected} />}
    </div>
  );
}
