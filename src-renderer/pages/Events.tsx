import { useEffect, useMemo, useState } from 'react';
import type { EventsQueryT, ExposureEventJson } from '../../src-shared/api/schemas';
import { openEventStream, type LiveState } from '../api/event-stream';
import { DemoButton } from '../components/DemoButton';
import { Pager } from '../components/Pager';
import { AsyncStatus, Badge, colClass, DataTable, EmptyState, InlineForm, num, PageHead, Panel, Segmented } from '../components/ui';
import { fmtCount, fmtDateTime, fmtDte, fmtNumber, fmtPrice, fmtQuantity } from '../format';
import { navigate, useApi, useAsync } from '../hooks';
import { Comparisons } from './events/Comparisons';

type TypeFilter = 'all' | 'flip' | 'wall' | 'position';
/** Flip and wall events of every scope (the default: what a chain import counts), per expiration, or of the whole book (all expirations within 0–45 dte together). */
type ScopeFilter = 'all' | 'expiration' | 'book';
/** Events per page: the table stays within a screen instead of running 200 rows down the page. */
const EVENTS_PER_PAGE = 25;

interface Filters {
  tickers: string[];
  eventType: TypeFilter;
  scope: ScopeFilter;
  minDte: string;
  maxDte: string;
}

function isEvent(value: unknown): value is ExposureEventJson {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.ticker === 'string' && (v.eventType === 'flip' || v.eventType === 'wall' || v.eventType === 'position');
}

const LEVEL_WORDS = { gammaFlip: 'Gamma flip', callWall: 'Call wall', putWall: 'Put wall' } as const;

function describe(event: ExposureEventJson) {
  if (event.eventType === 'position') {
    return (
      <>
        {LEVEL_WORDS[event.level]} {event.previousValue === null ? '' : <>{fmtPrice(event.previousValue)} → </>}
        <strong>{fmtPrice(event.newValue)}</strong> {event.alert === 'crossed' ? 'crossed' : `within ${fmtPrice(event.distancePct)}% of`} your short {fmtPrice(event.strike)} {event.right === 'P' ? 'put' : 'call'} ×{' '}
        {fmtQuantity(-event.quantity)}
      </>
    );
  }
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
  if (filters.scope !== 'all' && event.eventType !== 'position' && (event.expiration === 'book') !== (filters.scope === 'book')) return false;
  if (filters.minDte !== '' && event.dte < Number(filters.minDte)) return false;
  if (filters.maxDte !== '' && event.dte > Number(filters.maxDte)) return false;
  return true;
}

export function EventsPage() {
  const api = useApi();
  const chains = useAsync((signal) => api.call('GET /chains', {}, { signal }), [api]);
  const [filters, setFilters] = useState<Filters>({ tickers: [], eventType: 'all', scope: 'all', minDte: '', maxDte: '' });
  const [dteDraft, setDteDraft] = useState({ minDte: '', maxDte: '' });
  const [live, setLive] = useState<ExposureEventJson[]>([]);
  const [liveState, setLiveState] = useState<LiveState>('off');
  const [liveOn, setLiveOn] = useState(true);
  const [page, setPage] = useState(1);

  const query = useMemo<EventsQueryT>(() => {
    const q: EventsQueryT = { limit: 200, eventType: filters.eventType, scope: filters.scope };
    if (filters.tickers.length > 0) q.tickers = filters.tickers.join(',');
    if (filters.minDte !== '') q.minDte = Number(filters.minDte);
    if (filters.maxDte !== '') q.maxDte = Number(filters.maxDte);
    return q;
  }, [filters]);
  const events = useAsync((signal) => api.call('GET /gex/events', { query }, { signal }), [api, query]);

  useEffect(() => {
    setLive([]);
    setPage(1);
  }, [query]);

  useEffect(() => {
    if (!liveOn || typeof EventSource === 'undefined') {
      setLiveState('off');
      return;
    }
    const onData = (data: string) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        return;
      }
      const list = Array.isArray(parsed) ? parsed : [parsed];
      const fresh = list.filter(isEvent);
      if (fresh.length > 0) setLive((current) => [...fresh.reverse(), ...current].slice(0, 500));
    };
    // Named events, whichever the server uses; each connection opens with a stream ticket, never the key (event-stream.ts).
    return openEventStream(api, { tickers: query.tickers, eventType: query.eventType, scope: query.scope }, { onState: setLiveState, onData, names: ['event', 'flip', 'wall', 'position', 'exposure-event'] });
  }, [api, liveOn, query.tickers, query.eventType, query.scope]);

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
  const defaultFilters = filters.tickers.length === 0 && filters.eventType === 'all' && filters.scope === 'all' && filters.minDte === '' && filters.maxDte === '';
  const pages = Math.max(1, Math.ceil(rows.length / EVENTS_PER_PAGE));
  const shownPage = Math.min(page, pages);
  const pageRows = rows.slice((shownPage - 1) * EVENTS_PER_PAGE, shownPage * EVENTS_PER_PAGE);

  return (
    <div className="page" data-testid="page-events">
      <PageHead
        title="Events"
        meta={
          <>
            <span className={`live live-${liveState}`} role="status" data-testid="live-state">
              <span className="live-dot" aria-hidden="true" />
              {liveState === 'live' ? 'Live' : liveState === 'connecting' ? 'Connecting…' : liveState === 'reconnecting' ? 'Reconnecting…' : 'Paused'}
            </span>
          </>
        }
        toolbar={
          <>
            <label className="field-inline">
              <input type="checkbox" checked={liveOn} onChange={(e) => setLiveOn(e.target.checked)} /> Live updates
            </label>
          </>
        }
      />

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
                { value: 'position', label: 'Your strikes', title: 'A dealer level crossed or came near a strike you are short' },
              ]}
            />
          </div>
          <div className="field">
            <span className="field-label">Scope</span>
            <Segmented
              label="Event scope"
              value={filters.scope}
              onChange={(scope) => setFilters((f) => ({ ...f, scope }))}
              options={[
                { value: 'all', label: 'All', title: 'Per expiration, the whole book and your strikes: every event a chain import counts' },
                { value: 'expiration', label: 'Per expiration', title: 'Each expiration against its own confirmed state' },
                { value: 'book', label: 'Whole book', title: 'All expirations within 0–45 days taken together' },
              ]}
            />
          </div>
          <InlineForm onSubmit={() => setFilters((f) => ({ ...f, ...dteDraft }))}>
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
          </InlineForm>
        </div>
      </Panel>

      {events.data && <Comparisons explanations={events.data.explanations} />}
      <AsyncStatus state={events} label="Loading events…" />
      {events.data && defaultFilters && rows.length === 0 && (
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
          Events appear when a newer snapshot of a ticker changes its gamma regime (flip) or moves a call or put wall.{' '}
          {noChains ? 'Import two or more snapshots of a ticker, or turn on the online source in Settings.' : `The stored snapshots (${tickers.join(', ')}) have not changed a regime or a wall yet: import or poll newer ones.`}
        </EmptyState>
      )}
      {events.data && !defaultFilters && rows.length === 0 && <p className="muted pad">No events match these filters.</p>}
      {rows.length > 0 && (
        <Panel>
          <DataTable testId="events-table" className="table table-dense" columns={['Time (ET)', 'Ticker', { label: 'Expiration', hide: 'mid' }, num('DTE then', 'Days to expiry at the event (its New York date)', 'mid'), num('DTE today', 'Days to expiry today ("expired" once past)'), 'Type', 'Change', num('Spot', undefined, 'mid')]}>
            {pageRows.map((e) => (
              <tr key={e.id} className={e.fresh ? 'row-fresh' : ''}>
                <td className="tnum">{fmtDateTime(e.timestamp).replace(' ET', '')}</td>
                <td>
                  <a className="sym" href={`#/exposure?symbol=${encodeURIComponent(e.ticker)}`}>
                    {e.ticker}
                  </a>
                </td>
                <td className={colClass('mid', 'tnum')} title={e.eventType !== 'position' && e.expirations !== undefined ? e.expirations.join(', ') : undefined}>
                  {e.expiration === 'book' ? `book (${fmtCount(e.eventType !== 'position' ? (e.expirations?.length ?? 0) : 0, 'exp.', 'exp.')})` : e.expiration}
                </td>
                <td className={colClass('mid', 'num')}>{fmtDte(e.eventDte)}</td>
                <td className={`num ${e.dte < 0 ? 'muted' : ''}`} title={e.dte < 0 ? `expired ${fmtCount(-e.dte, 'day')} ago` : undefined} data-testid="event-dte">
                  {fmtDte(e.dte)}
                </td>
                <td>
                  <Badge tone={e.eventType === 'wall' ? (e.wallType === 'call' ? 'pos' : 'neg') : 'warn'}>{e.eventType === 'wall' ? `${e.wallType} wall` : e.eventType === 'flip' ? 'flip' : `your ${e.alert === 'crossed' ? 'strike crossed' : 'strike near'}`}</Badge>
                </td>
                <td>
                  {describe(e)}
                  {e.explanation !== undefined && <div className="muted small">{e.explanation}</div>}
                </td>
                <td className={colClass('mid', 'num')}>{fmtNumber(e.spotPrice, 2)}</td>
              </tr>
            ))}
          </DataTable>
          {pages > 1 && <Pager label="Event pages" page={shownPage} pages={pages} onPage={setPage} ends />}
        </Panel>
      )}
    </div>
  );
}
