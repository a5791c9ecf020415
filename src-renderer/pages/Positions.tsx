/**
 * Positions: what is open now (or at a past instant), what it is worth at the last snapshot, and where the dealers
 * stand against each short strike ("your book on the dealers' map"). One compact table grouped by underlying
 * (positions/BookTable.tsx), each underlying's map on demand from the snapshot its marks come from
 * (positions/BookOnMap.tsx), each short strike against its expiration's expected move. Conventions: docs/journal.md
 * §Positions; the page: docs/ui.md.
 */
import { useMemo, useState } from 'react';
import type { PositionsResponseT } from '../../src-shared/api/schemas';
import { AccountSelect } from '../components/AccountSelect';
import { ImportOrDemo } from '../components/DemoButton';
import { useRefreshNow } from '../components/RefreshNow';
import { AsyncStatus, EmptyState, Money, PageFigures, PageHead, Panel, Stat } from '../components/ui';
import { fmtCount, fmtDateTime, fmtInt, fmtMoney } from '../format';
import { NEW_YORK, todayIn } from '../../src-shared/zone';
import { useApi, useAsync, useReloadWhileBuilding, useRoute } from '../hooks';
import { LevelsScopeControl, readLevelsScope } from '../components/LevelsScope';
import type { LevelsScope } from '../../src-shared/api/constants';
import { groupAndSort, moveKey, type ExpectedMove, type Sort, type SortKey } from './positions/book';
import { article, BookTable } from './positions/BookTable';
import { NeedsAttention } from './positions/NeedsAttention';
import { ReconcilePanel } from './positions/ReconcilePanel';

type Totals = PositionsResponseT['totals'] & Partial<{ staleCount: number; unmarkedCount: number }>;

/** What the totals leave out, and why. */
function leftOut(totals: Totals): string {
  if (totals.staleCount === undefined || totals.unmarkedCount === undefined) return totals.unmarked > 0 ? `${fmtCount(totals.unmarked, 'position')} without a mark` : 'all marked';
  const parts = [...(totals.staleCount > 0 ? [`${fmtInt(totals.staleCount)} stale`] : []), ...(totals.unmarkedCount > 0 ? [`${fmtInt(totals.unmarkedCount)} unmarked`] : [])];
  return parts.length === 0 ? 'all marked' : `${parts.join(', ')}: left out`;
}

/** The oldest snapshot the book is marked from: its day as the value (a whole date-time overflows a phone's card). */
function OldestMark({ marks }: { marks: PositionsResponseT['marksAsOf'] }) {
  const oldest = marks.reduce<string | null>((a, m) => (a === null || m.quoteTime < a ? m.quoteTime : a), null);
  if (oldest === null) return <Stat label="Marks" value="—" sub="no snapshot used" />;
  const [day = '', time = ''] = fmtDateTime(oldest).split(' ');
  return <Stat label="Marks" value={day} sub={`oldest used · ${time} ET`} title={fmtDateTime(oldest)} />;
}

/**
 * Underlyings without any chain snapshot at or before the instant, said once above the table (a note under each of
 * 100 groups doubled the page's height): what to import to mark them.
 */
function UnmarkedNote({ data }: { data: PositionsResponseT }) {
  const marked = new Set(data.marksAsOf.map((m) => m.symbol));
  const unmarked = [...new Set(data.positions.map((p) => p.underlying))].filter((u) => !marked.has(u)).sort();
  if (unmarked.length === 0) return null;
  const shown = unmarked.slice(0, 12);
  // The chain to load is the underlying's (an SPXW put's is SPX's: docs/journal.md §Underlying roots).
  const first = shown[0] ?? '';
  return (
    <p className="muted small" data-testid="positions-unmarked-note">
      No chain snapshot at or before this instant for {shown.join(', ')}
      {unmarked.length > shown.length ? ` and ${fmtCount(unmarked.length - shown.length, 'more underlying', 'more underlyings')}` : ''}:{' '}
      {unmarked.length === 1 ? `load ${article(first)} ${first} chain` : 'load a chain of each'} on the Import page (Option chain snapshot) to mark their positions and see the dealers&apos; levels.
    </p>
  );
}

/** Underlyings whose dealers' maps open by themselves: a small book shows them all, a big one on demand. */
const MAPS_OPEN_UP_TO = 3;

/**
 * The expected move of each short option's expiration, from the snapshot its mark comes from (`/v1/expirations`
 * details): one request per marked underlying that has short options.
 */
function useExpectedMoves(data: PositionsResponseT | undefined) {
  const api = useApi();
  const wanted = useMemo(() => {
    const marks = new Map((data?.marksAsOf ?? []).filter((m) => !m.stale).map((m) => [m.symbol, m]));
    const symbols = new Set((data?.positions ?? []).filter((p) => p.isOption && p.quantity < 0 && marks.has(p.underlying)).map((p) => p.underlying));
    return [...symbols].sort().flatMap((symbol) => {
      const mark = marks.get(symbol);
      return mark ? [{ symbol, snapshotId: mark.snapshotId, spot: mark.spot }] : [];
    });
  }, [data]);
  const key = wanted.map((w) => `${w.symbol}:${w.snapshotId}`).join(',');
  const moves = useAsync(async (signal) => {
    const answers = await Promise.allSettled(wanted.map((w) => api.call('GET /expirations', { query: { symbol: w.symbol, snapshot: w.snapshotId } }, { signal }).then((r) => ({ w, r }))));
    const map = new Map<string, ExpectedMove>();
    for (const answer of answers) {
      // A chain without a move for its expirations (one-sided, no ATM quotes) leaves those strikes at "—".
      if (answer.status !== 'fulfilled') continue;
      const { w, r } = answer.value;
      for (const d of r.details) if (d.expectedMove !== null) map.set(moveKey({ underlying: w.symbol, expiration: d.expiration }), { expiration: d.expiration, expectedMove: d.expectedMove, spot: w.spot });
    }
    return map;
  }, [api, key]);
  return moves.data ?? new Map<string, ExpectedMove>();
}

export function PositionsPage() {
  const api = useApi();
  const route = useRoute();
  const [accountId, setAccountId] = useState(route.params.get('accountId') ?? '');
  // A past instant replays the book with the snapshots of that time (New York time, as the journal dates).
  const [asOf, setAsOf] = useState(route.params.get('asOf') ?? '');
  const [optionsOnly, setOptionsOnly] = useState(false);
  // Each position's own expiration's levels unless asked otherwise (docs/journal.md §Levels scope).
  const [levelsScope, setLevelsScope] = useState<LevelsScope>(readLevelsScope(route.params.get('levels')));
  const [sort, setSort] = useState<Sort>({ key: 'instrument', dir: 1 });
  // Null until the user opens or closes one: then the default (all of a small book) no longer applies.
  const [openMaps, setOpenMaps] = useState<Set<string> | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const result = useAsync(
    (signal) =>
      api.call('GET /journal/positions', { query: { ...(accountId === '' ? {} : { accountId }), ...(asOf === '' ? {} : { asOf: asOf.length === 16 ? `${asOf}:00` : asOf }), ...(levelsScope === 'own' ? {} : { levelsScope }) } }, { signal }),
    [api, accountId, asOf, levelsScope],
  );
  const data = result.data;
  useReloadWhileBuilding(data?.building === true, result.reload);
  // New snapshots of the held underlyings mark the book anew: the positions are read again when a pass stored one.
  const refresh = useRefreshNow(result.reload);
  const moves = useExpectedMoves(data);
  const noneMarked = data !== null && data !== undefined && data.positions.length > 0 && data.totals.unmarked >= data.positions.length;
  const groups = useMemo(() => groupAndSort(data?.positions ?? [], sort, moves, optionsOnly), [data, sort, moves, optionsOnly]);
  const mappable = useMemo(() => {
    const fresh = new Set((data?.marksAsOf ?? []).filter((m) => !m.stale).map((m) => m.symbol));
    return groups.filter((g) => fresh.has(g.underlying) && g.rows.some((r) => r.isOption && r.quantity < 0)).map((g) => g.underlying);
  }, [groups, data]);
  const shownMaps = openMaps ?? new Set(mappable.length <= MAPS_OPEN_UP_TO ? mappable : []);
  // A first click sorts ascending: nearest expiry, worst unrealized, the strike deepest inside its expected move first.
  const onSort = (key: SortKey) => setSort((s) => (s.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: 1 }));
  const toggleMap = (symbol: string) => {
    const next = new Set(shownMaps);
    if (next.has(symbol)) next.delete(symbol);
    else next.add(symbol);
    setOpenMaps(next);
  };

  return (
    <div className="page" data-testid="page-positions">
      <PageHead
        title="Positions"
        meta={data && <PageFigures demo={data.demo} building={data.building}>{fmtCount(data.positions.length, 'open position')}</PageFigures>}
        toolbar={
          <>
            <label className="field-inline" title="Replay the book at a past instant (New York time); empty = now">
              As of
              <input type="datetime-local" value={asOf} onChange={(e) => setAsOf(e.target.value)} data-testid="positions-asof" />
            </label>
            {asOf !== '' && (
              <button type="button" className="btn btn-small" onClick={() => setAsOf('')}>
                Now
              </button>
            )}
            <LevelsScopeControl value={levelsScope} onChange={setLevelsScope} />
            <label className="field-inline field-check">
              <input type="checkbox" checked={optionsOnly} onChange={(e) => setOptionsOnly(e.target.checked)} data-testid="options-only" />
              Options only
            </label>
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={setAccountId} />}
            <button type="button" className="btn btn-small" onClick={() => setChecking((c) => !c)} aria-expanded={checking} data-testid="check-broker">
              Check against my broker
            </button>
            {asOf === '' && refresh.button}
          </>
        }
      />
      {refresh.progress}
      <AsyncStatus state={result} label="Loading positions…" />
      {data && (
        <>
          <div className="stats-grid">
            <Stat label="Cost basis" value={fmtMoney(data.totals.costBasis, data.currency)} title="Net cash paid to open what is still open, costs included; shorts count negative" />
            {/* Every open position left out (unmarked or stale): the sums are unknown ("—"), not $0.00. */}
            <Stat label="Market value" value={noneMarked ? '—' : fmtMoney(data.totals.marketValue, data.currency)} sub={<span data-testid="positions-left-out">{leftOut(data.totals)}</span>} testId="positions-market-value" />
            <Stat label="Unrealized" value={noneMarked ? '—' : <Money value={data.totals.unrealizedPL} currency={data.currency} />} testId="positions-unrealized" />
            <OldestMark marks={data.marksAsOf} />
          </div>
          {message !== null && (
            <div className="alert alert-info" role="status" data-testid="positions-message">
              {message}
            </div>
          )}
          {checking && (
            <ReconcilePanel
              accountId={accountId}
              accounts={data.accounts}
              asOf={asOf === '' ? todayIn(NEW_YORK, Date.now()) : asOf}
              onChanged={(text) => {
                setMessage(text);
                result.reload();
              }}
              onClose={() => setChecking(false)}
            />
          )}
          {data.needsAttention.length > 0 && (
            <NeedsAttention
              items={data.needsAttention}
              onAdded={(text) => {
                setMessage(text);
                result.reload();
              }}
            />
          )}
          {data.positions.length === 0 && data.needsAttention.length === 0 && (
            <EmptyState title="No open positions" actions={<ImportOrDemo onLoaded={result.reload} />}>
              Positions come from your imported transactions. To mark them, import a chain snapshot of each underlying on the Import page.
            </EmptyState>
          )}
          {data.positions.length > 0 && groups.length === 0 && <p className="muted pad">No open options: untick “Options only” to see the shares.</p>}
          <UnmarkedNote data={data} />
          {groups.length > 0 && (
            <Panel>
              <BookTable groups={groups} data={data} moves={moves} sort={sort} onSort={(key) => onSort(key)} openMaps={shownMaps} onToggleMap={toggleMap} />
            </Panel>
          )}
        </>
      )}
    </div>
  );
}
