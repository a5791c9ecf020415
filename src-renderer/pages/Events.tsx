import { useEffect, useMemo, useState } from 'react';
import type { EventsQueryT, ExposureEventJson } from '../../src-shared/api/schemas';
import { DemoButton } from '../components/DemoButton';
import { Badge, EmptyState, ErrorBanner, Loading, Panel, Segmented } from '../components/ui';
import { fmtDateTime, fmtNumber, fmtPrice } from '../format';
import { navigate, useApi, useAsync } from '../hooks';

type TypeFilter = 'all' | 'flip' | 'wall';
type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

interface Filters {
  tickers: string[];
  eventType: TypeFilter;
  minDte: string;
  maxDte: string;
}

function isEvent(value: unknown): value is ExposureEventJson {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.ticker === 'string' && (v.eventType === 'flip' || v.eventType === 'wall');
}

function describe(event: ExposureEventJson) {
  if (event.eventType === 'flip') {
    return (
      <>
        Gamma <Badge tone={event.previousState === 'positive' ? 'pos' : 'neg'}>{event.previousState}</Badge> → <Badge tone={event.newState === 'positive' ? 'pos' : 'neg'}>{event.newState}</Badge>
        {event.inflectionPoint !== null && <> · flip at {fmtPrice(event.inflectionPoint)}</>} · walls {fmtPrice(event.callWallStrike)} C / {fmtPrice(event.putWallStrike)} P
      </>
    );
  }
  return (
    <>
      {event.wallType === 'call' ? 'Call' : 'Put'} wall {fmtPrice(event.previousStrike)} → <strong>{fmtPrice(event.newStrike)}</strong>
      <span className={event.newStrike > event.previousStrike ? 'pos' : 'neg'}> {event.newStrike > event.previousStrike ? '▲' : '▼'}</span>
    </>
  );
}

function matches(event: ExposureEventJson, filters: Filters): boolean {
  if (filters.tickers.length > 0 && !filters.tickers.includes(event.ticker)) return false;
  if (filters.eventType !== 'all' && event.eventType !== filters.eventType) return false;
  if (filters.minDte !== '' && event.dte < Number(filters.minDte)) return false;
  if (filters.maxDte !== '' && event.dte > Number(filters.maxDte)) return false;
  return true;
}

export function EventsPage() {
  const api = useApi();
  const chains = useAsync((signal) => api.chains(signal), [api]);
  const [filters, setFilters] = useState<Filters>({ tickers: [], eventType: 'all', minDte: '', maxDte: '' });
  const [dteDraft, setDteDraft] = useState({ minDte: '', maxDte: '' });
  const [live, setLive] = useState<ExposureEventJson[]>([]);
  const [liveState, setLiveState] = useState<LiveState>('off');
  const [liveOn, setLiveOn] = useState(true);

  const query = useMemo<EventsQueryT>(() => {
    const q: EventsQueryT = { limit: 200, eventType: filters.eventType };
    if (filters.tickers.length > 0) q.tickers = filters.tickers.join(',');
    if (filters.minDte !== '') q.minDte = Number(filters.minDte);
    if (filters.maxDte !== '') q.maxDte = Number(filters.maxDte);
    return q;
  }, [filters]);
  const events = useAsync((signal) => api.events(query, signal), [api, query]);

  useEffect(() => {
    setLive([]);
  }, [query]);

  useEffect(() => {
    if (!liveOn || typeof EventSource === 'undefined') {
      setLiveState('off');
      return;
    }
    const source = new EventSource(api.eventsStreamUrl({ tickers: query.tickers, eventType: query.eventType }));
    setLiveState('connecting');
    const onEvent = (message: MessageEvent<string>) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        return;
      }
      const list = Array.isArray(parsed) ? parsed : [parsed];
      const fresh = list.filter(isEvent);
      if (fresh.length > 0) setLive((current) => [...fresh.reverse(), ...current].slice(0, 500));
    };
    source.onopen = () => setLiveState('live');
    source.onerror = () => setLiveState(source.readyState === EventSource.CLOSED ? 'off' : 'reconnecting');
    source.onmessage = onEvent;
    // Named events, whichever the server uses.
    for (const name of ['event', 'flip', 'wall', 'exposure-event']) source.addEventListener(name, onEvent as EventListener);
    return () => source.close();
  }, [api, liveOn, query.tickers, query.eventType]);

  const rows = useMemo(() => {
    const seen = new Set<string>();
    const merged: Array<ExposureEventJson & { fresh: boolean }> = [];
    for (const e of live) {
      if (seen.has(e.id) || !matches(e, filters)) continue;
      seen.add(e.id);
      merged.push({ ...e, fresh: true });
    }
    for (const e of events.data?.events ?? []) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      merged.push({ ...e, fresh: false });
    }
    merged.sort((a, b) => (a.timestamp === b.timestamp ? b.id.localeCompare(a.id) : b.timestamp.localeCompare(a.timestamp)));
    return merged;
  }, [live, events.data, filters]);

  const tickers = chains.data?.symbols.map((s) => s.symbol) ?? [];
  const noChains = chains.data !== undefined && tickers.length === 0;

  return (
    <div className="page" data-testid="page-events">
      <header className="page-head">
        <div className="page-title">
          <h1>Events</h1>
          <span className={`live live-${liveState}`} role="status" data-testid="live-state">
            <span className="live-dot" aria-hidden="true" />
            {liveState === 'live' ? 'Live' : liveState === 'connecting' ? 'Connecting…' : liveState === 'reconnecting' ? 'Reconnecting…' : 'Paused'}
          </span>
        </div>
        <div className="toolbar">
          <label className="field-inline">
            <input type="checkbox" checked={liveOn} onChange={(e) => setLiveOn(e.target.checked)} /> Live updates
          </label>
        </div>
      </header>

      <Panel>
        <div className="filters filters-events" aria-label="Filter events">
          <fieldset className="exp-picks">
            <legend className="field-label">Tickers</legend>
            {tickers.length === 0 && <span className="muted small">none yet</span>}
            {tickers.map((t) => (
              <label key={t} className={`chip ${filters.tickers.includes(t) ? 'on' : ''}`}>
                <input
                  type="checkbox"
                  checked={filters.tickers.includes(t)}
                  onChange={(e) => setFilters((f) => ({ ...f, tickers: e.target.checked ? [...f.tickers, t].sort() : f.tickers.filter((x) => x !== t) }))}
                />
                {t}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <span className="field-label">Type</span>
            <Segmented
              label="Event type"
              value={filters.eventType}
              onChange={(eventType) => setFilters((f) => ({ ...f, eventType }))}
              options={[
                { value: 'all', label: 'All' },
                { value: 'flip', label: 'Flips' },
                { value: 'wall', label: 'Walls' },
              ]}
            />
          </div>
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              setFilters((f) => ({ ...f, ...dteDraft }));
            }}
          >
            <label className="field">
              <span>Min DTE</span>
              <input type="number" min={0} max={3650} value={dteDraft.minDte} onChange={(e) => setDteDraft({ ...dteDraft, minDte: e.target.value })} className="input-narrow" />
            </label>
            <label className="field">
              <span>Max DTE</span>
              <input type="number" min={0} max={3650} value={dteDraft.maxDte} onChange={(e) => setDteDraft({ ...dteDraft, maxDte: e.target.value })} className="input-narrow" />
            </label>
            <button type="submit" className="btn">
              Apply
            </button>
          </form>
        </div>
      </Panel>

      {events.error && <ErrorBanner error={events.error} onRetry={events.reload} />}
      {!events.data && !events.error && <Loading label="Loading events…" />}
      {noChains && rows.length === 0 && (
        <EmptyState
          title="No exposure events yet"
          actions={
            <>
              <button type="button" className="btn btn-primary" onClick={() => navigate('import')}>
                Import chain snapshots
              </button>
              <DemoButton
                onLoaded={() => {
                  chains.reload();
                  events.reload();
                }}
              />
            </>
          }
        >
          Events appear when a newer snapshot of a ticker changes its gamma regime (flip) or moves a call or put wall. Import two or more snapshots of a ticker, or turn on the online source in Settings.
        </EmptyState>
      )}
      {events.data && !noChains && rows.length === 0 && <p className="muted pad">No events match these filters.</p>}
      {rows.length > 0 && (
        <Panel>
          <div className="table-wrap">
            <table className="table table-dense" data-testid="events-table">
              <thead>
                <tr>
                  <th>Time (ET)</th>
                  <th>Ticker</th>
                  <th>Expiration</th>
                  <th className="num">DTE</th>
                  <th>Type</th>
                  <th>Change</th>
                  <th className="num">Spot</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((e) => (
                  <tr key={e.id} className={e.fresh ? 'row-fresh' : ''}>
                    <td className="tnum">{fmtDateTime(e.timestamp).replace(' ET', '')}</td>
                    <td>
                      <a className="sym" href={`#/exposure?symbol=${encodeURIComponent(e.ticker)}`}>
                        {e.ticker}
                      </a>
                    </td>
                    <td className="tnum">{e.expiration}</td>
                    <td className="num">{e.dte}</td>
                    <td>
                      <Badge tone={e.eventType === 'flip' ? 'warn' : e.eventType === 'wall' && e.wallType === 'call' ? 'pos' : 'neg'}>{e.eventType === 'flip' ? 'flip' : `${e.wallType} wall`}</Badge>
                    </td>
                    <td>{describe(e)}</td>
                    <td className="num">{fmtNumber(e.spotPrice, 2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Panel>
      )}
    </div>
  );
}
