/**
 * Positions: what is open now, what it is worth at the last snapshot, and where the dealers stand against each
 * short strike ("your book on the dealers' map"). Conventions: docs/journal.md §Positions; the page: docs/ui.md.
 */
import { useMemo, useState } from 'react';
import type { GexResponseT, PositionJson, PositionsResponseT } from '../../src-shared/api/schemas';
import { AccountSelect } from '../components/AccountSelect';
import { chartPalette, nearestStrike, spotMarkers, StrikeChart, type StrikeMarker, type StrikeSeries } from '../components/charts';
import { ImportOrDemo } from '../components/DemoButton';
import { Badge, DataTable, EmptyState, ErrorBanner, Loading, Money, num, PageHead, Panel, Stat } from '../components/ui';
import { dateInTimeZone, fmtCount, fmtDateTime, fmtExposure, fmtInt, fmtMoney, fmtNumber, fmtPrice, fmtSymbol } from '../format';
import { useApi, useAsync, useRoute, useTheme } from '../hooks';
import { NeedsAttention } from './positions/NeedsAttention';

/**
 * A mark as the ledger of issue 17 sends it: with its age in New York trading days and whether it is too old to count
 * (absent from an older server: then every mark counts).
 */
type AgedMark = { quoteTime: string } & Partial<{ stale: boolean; ageDays: number }>;

/** Why a mark does not count: "mark from 2023-08-18, 612 trading days old". */
function staleText(mark: AgedMark): string {
  const day = dateInTimeZone(Date.parse(mark.quoteTime));
  return mark.ageDays === undefined ? `mark from ${day}, too old to count` : `mark from ${day}, ${fmtCount(mark.ageDays, 'trading day')} old`;
}

type Totals = PositionsResponseT['totals'] & Partial<{ staleCount: number; unmarkedCount: number }>;

/** What the totals leave out, and why. */
function leftOut(totals: Totals): string {
  if (totals.staleCount === undefined || totals.unmarkedCount === undefined) return totals.unmarked > 0 ? `${fmtCount(totals.unmarked, 'position')} without a mark` : 'all marked';
  const parts = [...(totals.staleCount > 0 ? [`${fmtInt(totals.staleCount)} stale`] : []), ...(totals.unmarkedCount > 0 ? [`${fmtInt(totals.unmarkedCount)} unmarked`] : [])];
  return parts.length === 0 ? 'all marked' : `${parts.join(', ')}: left out`;
}

/** A short strike within this distance (% of the level) of a wall or the flip is in danger; within twice it, on watch. */
const DANGER_PCT = 2;

function distanceClass(position: PositionJson, pct: number | null): string {
  if (pct === null || position.quantity >= 0) return '';
  const abs = Math.abs(pct);
  return abs <= DANGER_PCT ? 'neg strong' : abs <= 2 * DANGER_PCT ? 'warn' : '';
}

function Distance({ position, pct }: { position: PositionJson; pct: number | null }) {
  if (pct === null) return <span className="muted">—</span>;
  return <span className={distanceClass(position, pct)}>{`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct).toFixed(1)}%`}</span>;
}

/** The underlying's GEX by strike (latest snapshot) with the user's short strikes drawn on it. */
function BookOnMap({ symbol, positions }: { symbol: string; positions: readonly PositionJson[] }) {
  const api = useApi();
  const theme = useTheme();
  const palette = useMemo(() => chartPalette(theme), [theme]);
  const gex = useAsync<GexResponseT>((signal) => api.gex({ symbol }, signal), [api, symbol]);
  const data = gex.data;
  const series = useMemo<StrikeSeries[]>(() => (data ? [{ label: 'Net GEX', color: palette.net, values: data.data.map((r) => ({ strike: r.strike, value: r.netGEX })) }] : []), [data, palette]);
  const markers = useMemo<StrikeMarker[]>(() => {
    if (!data) return [];
    const strikes = data.data.map((r) => r.strike);
    const list = spotMarkers(strikes, data.stockPrice, palette);
    if (data.callWall) list.push({ strike: data.callWall.strike, label: 'Call wall', color: palette.pos, edge: 'top' });
    if (data.putWall) list.push({ strike: data.putWall.strike, label: 'Put wall', color: palette.neg, edge: 'top' });
    for (const p of positions) {
      if (!p.isOption || p.strike === null || p.quantity >= 0) continue;
      const at = nearestStrike(strikes, p.strike);
      if (at !== null) list.push({ strike: at, label: `Short ${fmtPrice(p.strike)}${p.right ?? ''} ×${fmtInt(-p.quantity)}`, color: palette.accent, edge: 'bottom' });
    }
    return list;
  }, [data, positions, palette]);
  const focus = useMemo(() => (data ? { from: data.stockPrice * 0.85, to: data.stockPrice * 1.15 } : undefined), [data]);
  const formatValue = useMemo(() => (value: number) => fmtExposure(value, data?.meta.unit ?? 'shares'), [data]);
  if (gex.error) return <p className="muted small">No chain for {symbol}: import one on the Exposure page to see the dealers&apos; map.</p>;
  if (!data) return <Loading label="Loading GEX…" />;
  return <StrikeChart series={series} markers={markers} focus={focus} formatValue={formatValue} label={`Net GEX by strike for ${symbol} with your short strikes`} height={260} />;
}

function MarkCell({ position }: { position: PositionJson }) {
  const mark: (NonNullable<PositionJson['mark']> & AgedMark) | null = position.mark;
  if (mark === null) {
    return (
      <td className="num" title="No snapshot at or before this instant has this contract: left out of market value and unrealized">
        <span className="muted small" data-testid="mark-unmarked">
          unmarked
        </span>
      </td>
    );
  }
  const price = mark.price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  if (mark.stale === true) {
    return (
      <td className="num" title={`${staleText(mark)}: left out of market value, unrealized and the totals`}>
        <span className="mark-stale">{price}</span>{' '}
        <Badge tone="warn">
          <span data-testid="mark-stale">stale</span>
        </Badge>
      </td>
    );
  }
  return (
    <td className="num" title={`${mark.source === 'mid' ? 'bid/ask mid' : 'spot'} at ${fmtDateTime(mark.quoteTime)}`}>
      {price}
    </td>
  );
}

function PositionsTable({ rows, currency }: { rows: readonly PositionJson[]; currency: string }) {
  return (
    <DataTable testId="positions-table" columns={['Account', 'Instrument', num('Qty'), num('Cost basis'), num('Mark'), num('Unrealized'), num('DTE'), num('Δ sh', 'Delta in shares'), num('Θ $/day', 'Theta in $ per day'), num('vs put wall', 'Strike vs put wall'), num('vs call wall', 'Strike vs call wall'), num('vs flip', 'Strike vs gamma flip')]}>
      {rows.map((p) => (
        <tr key={`${p.accountId}|${p.symbol}`}>
          <td>{p.accountName}</td>
          <td>{fmtSymbol(p.symbol)}</td>
          <td className="num">{fmtNumber(p.quantity, Number.isInteger(p.quantity) ? 0 : 4)}</td>
          <td className="num">{fmtMoney(p.costBasis, currency)}</td>
          <MarkCell position={p} />
          <td className="num">{p.unrealizedPL === null ? <span className="muted">—</span> : <Money value={p.unrealizedPL} currency={currency} />}</td>
          <td className="num">{p.dte === null ? '' : fmtInt(p.dte)}</td>
          <td className="num">{p.greeks ? fmtNumber(p.greeks.delta, 1) : '—'}</td>
          <td className="num">{p.greeks && p.isOption ? fmtNumber(p.greeks.theta, 2) : '—'}</td>
          <td className="num">
            <Distance position={p} pct={p.strikeVs?.putWall ?? null} />
          </td>
          <td className="num">
            <Distance position={p} pct={p.strikeVs?.callWall ?? null} />
          </td>
          <td className="num">
            <Distance position={p} pct={p.strikeVs?.gammaFlip ?? null} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The oldest snapshot the book is marked from: its day as the value (a whole date-time overflows a phone's card). */
function OldestMark({ marks }: { marks: PositionsResponseT['marksAsOf'] }) {
  const oldest = marks.reduce<string | null>((a, m) => (a === null || m.quoteTime < a ? m.quoteTime : a), null);
  if (oldest === null) return <Stat label="Marks" value="—" sub="no snapshot used" />;
  const [day = '', time = ''] = fmtDateTime(oldest).split(' ');
  return <Stat label="Marks" value={day} sub={`oldest used · ${time} ET`} title={fmtDateTime(oldest)} />;
}

function Underlying({ symbol, rows, data }: { symbol: string; rows: readonly PositionJson[]; data: PositionsResponseT }) {
  const marks: (PositionsResponseT['marksAsOf'][number] & AgedMark) | undefined = data.marksAsOf.find((m) => m.symbol === symbol);
  const stale = marks?.stale === true;
  const levels = rows.find((r) => r.levels !== null)?.levels ?? null;
  const unrealized = rows.reduce((sum, r) => sum + (r.unrealizedPL ?? 0), 0);
  const delta = rows.reduce((sum, r) => sum + (r.greeks?.delta ?? 0), 0);
  const theta = rows.reduce((sum, r) => sum + (r.greeks?.theta ?? 0), 0);
  const hasShort = rows.some((r) => r.isOption && r.quantity < 0);
  return (
    <div data-testid={`book-${symbol}`} className="book-underlying">
      <Panel
        title={
          <span>
            {symbol}{' '}
            {marks && stale && (
              <Badge tone="warn" title={`${staleText(marks)}: left out of market value and unrealized`}>
                stale mark
              </Badge>
            )}
            {marks && !stale && (
              <span className="muted small">
                spot {fmtPrice(marks.spot)} · marked {fmtDateTime(marks.quoteTime)}
              </span>
            )}
            {!marks && (
              <Badge tone="warn" title="No chain snapshot at or before this instant">
                unmarked
              </Badge>
            )}
          </span>
        }
        actions={
          <span className="small num">
            <Money value={unrealized} currency={data.currency} /> · Δ {fmtNumber(delta, 0)} sh · Θ {fmtMoney(theta, data.currency, true)}/day
            {levels && (
              <span className="muted">
                {' '}
                · put wall {fmtPrice(levels.putWall)} · call wall {fmtPrice(levels.callWall)} · flip {fmtPrice(levels.gammaFlip)}
              </span>
            )}
          </span>
        }
        id={`positions-${symbol}`}
      >
        <div className={hasShort ? 'book-grid' : ''}>
          <PositionsTable rows={rows} currency={data.currency} />
          {hasShort && marks && !stale && <BookOnMap symbol={symbol} positions={rows} />}
          {!marks && <p className="muted small pad">No chain snapshot of {symbol} at or before this instant: import one on the Exposure page to mark these positions and see the dealers&apos; levels.</p>}
          {marks && stale && (
            <p className="small pad" data-testid={`stale-${symbol}`}>
              <span className="warn-text">Stale: {staleText(marks)}</span> (spot {fmtPrice(marks.spot)}). Its positions are left out of market value, unrealized and the totals: import a newer chain snapshot of {symbol} on the
              Exposure page.
            </p>
          )}
        </div>
      </Panel>
    </div>
  );
}

export function PositionsPage() {
  const api = useApi();
  const route = useRoute();
  const [accountId, setAccountId] = useState(route.params.get('accountId') ?? '');
  // A past instant replays the book with the snapshots of that time (New York time, as the journal dates).
  const [asOf, setAsOf] = useState(route.params.get('asOf') ?? '');
  const [message, setMessage] = useState<string | null>(null);
  const result = useAsync(
    (signal) => api.positions({ ...(accountId === '' ? {} : { accountId }), ...(asOf === '' ? {} : { asOf: asOf.length === 16 ? `${asOf}:00` : asOf }) }, signal),
    [api, accountId, asOf],
  );
  const data = result.data;
  const groups = useMemo(() => {
    const map = new Map<string, PositionJson[]>();
    for (const p of data?.positions ?? []) {
      const list = map.get(p.underlying);
      if (list) list.push(p);
      else map.set(p.underlying, [p]);
    }
    return [...map];
  }, [data]);

  return (
    <div className="page" data-testid="page-positions">
      <PageHead
        title="Positions"
        meta={data && <span className="muted small num">{fmtCount(data.positions.length, 'open position')}</span>}
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
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={setAccountId} />}
          </>
        }
      />
      {result.error && <ErrorBanner error={result.error} onRetry={result.reload} />}
      {!data && !result.error && <Loading label="Loading positions…" />}
      {data && (
        <>
          <div className="stats-grid">
            <Stat label="Cost basis" value={fmtMoney(data.totals.costBasis, data.currency)} title="Net cash paid to open what is still open, costs included; shorts count negative" />
            <Stat label="Market value" value={fmtMoney(data.totals.marketValue, data.currency)} sub={<span data-testid="positions-left-out">{leftOut(data.totals)}</span>} />
            <Stat label="Unrealized" value={<Money value={data.totals.unrealizedPL} currency={data.currency} />} testId="positions-unrealized" />
            <OldestMark marks={data.marksAsOf} />
          </div>
          {message !== null && (
            <div className="alert alert-info" role="status" data-testid="positions-message">
              {message}
            </div>
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
            <EmptyState
              title="No open positions"
              actions={<ImportOrDemo onLoaded={result.reload} />}
            >
              Positions come from your imported transactions. To mark them, import a chain snapshot of each underlying on the Exposure page.
            </EmptyState>
          )}
          {groups.map(([symbol, rows]) => (
            <Underlying key={symbol} symbol={symbol} rows={rows} data={data} />
          ))}
        </>
      )}
    </div>
  );
}
