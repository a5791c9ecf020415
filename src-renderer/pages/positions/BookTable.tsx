/**
 * The book as one compact table (issue 18: 35 positions were 35 cards and 6,100 px): a row per account × instrument,
 * grouped by underlying under a header row (its snapshot, unrealized, Δ, Θ and the dealers' levels), columns sortable
 * within the groups, and each underlying's dealers' map on demand in a row under its group. Narrow windows keep the
 * key columns (instrument, quantity, unrealized, DTE): the others carry a priority (components/ui.tsx Column).
 */
import type { ReactNode } from 'react';
import type { PositionJson, PositionsResponseT } from '../../../src-shared/api/schemas';
import { Badge, colClass, Money, type Column } from '../../components/ui';
import { dateInTimeZone, fmtCount, fmtDateTime, fmtDte, fmtMoney, fmtNumber, fmtPrice, fmtQuantity, fmtSymbol } from '../../format';
import { scopeText } from '../../components/LevelsScope';
import { BookOnMap } from './BookOnMap';
import { instrumentLabel, moveDistance, moveKey, type BookGroup, type ExpectedMove, type Sort, type SortKey } from './book';

/**
 * A mark as the ledger of issue 17 sends it: with its age in New York trading days and whether it is too old to count
 * (absent from an older server: then every mark counts).
 */
type AgedMark = { quoteTime: string } & Partial<{ stale: boolean; ageDays: number }>;
type MarkOf = PositionsResponseT['marksAsOf'][number] & AgedMark;

/** Why a mark does not count: "mark from 2023-08-18, 612 trading days old". */
export function staleText(mark: AgedMark): string {
  const day = dateInTimeZone(Date.parse(mark.quoteTime));
  return mark.ageDays === undefined ? `mark from ${day}, too old to count` : `mark from ${day}, ${fmtCount(mark.ageDays, 'trading day')} old`;
}

/** "an SPX chain", "a TSLA chain": tickers read letter by letter, where A, E, F, H, I, L, M, N, O, R, S and X sound a vowel. */
export function article(symbol: string): 'a' | 'an' {
  return /^[AEFHIL-ORSX]/.test(symbol.toUpperCase()) ? 'an' : 'a';
}

/** A short strike within this distance (% of the level) of a wall or the flip is in danger; within twice it, on watch. */
const DANGER_PCT = 2;

const LEVEL_WORDS = { putWall: 'put wall', callWall: 'call wall', gammaFlip: 'gamma flip' } as const;

/** A strike's distance to a level, the level and its scope in the tooltip ("vs put wall 445 of own expiration 06 Oct 23"). */
function Distance({ position, pct, level }: { position: PositionJson; pct: number | null; level: keyof typeof LEVEL_WORDS }) {
  if (pct === null) return <span className="muted">—</span>;
  const abs = Math.abs(pct);
  const tone = position.quantity >= 0 ? '' : abs <= DANGER_PCT ? 'neg strong' : abs <= 2 * DANGER_PCT ? 'warn' : '';
  const levels = position.levels;
  const title = levels === null ? undefined : `Strike ${fmtPrice(position.strike)} vs ${LEVEL_WORDS[level]} ${fmtPrice(levels[level])} of ${scopeText(levels)}`;
  return (
    <span className={tone} title={title}>
      {`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${abs.toFixed(1)}%`}
    </span>
  );
}

/** A short strike against its expiration's expected move: "2.1% out" (beyond the band) or "0.8% in" (inside it). */
function MoveCell({ position, move }: { position: PositionJson; move: ExpectedMove | undefined }) {
  const d = moveDistance(position, move);
  if (d === null) return <span className="muted">—</span>;
  const inside = d.pct < 0;
  const title = `Expected move to ${position.expiration ?? ''}: ±${fmtPrice(d.expectedMove)} (the ATM straddle), band ${fmtPrice(d.band.low)}–${fmtPrice(d.band.high)}; strike ${fmtPrice(position.strike)} is ${inside ? 'inside' : 'outside'} it by ${fmtPrice(Math.abs(d.pct * (move?.spot ?? 0)) / 100)}`;
  return (
    <span className={inside ? 'warn strong' : ''} title={title} data-testid="move-distance">
      {Math.abs(d.pct).toFixed(1)}% {inside ? 'in' : 'out'}
    </span>
  );
}

function MarkCell({ position }: { position: PositionJson }) {
  const mark: (NonNullable<PositionJson['mark']> & AgedMark) | null = position.mark;
  if (mark === null) {
    return (
      <span className="muted small" data-testid="mark-unmarked" title="No snapshot at or before this instant has this contract: left out of market value and unrealized">
        unmarked
      </span>
    );
  }
  const price = mark.price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  if (mark.stale === true) {
    return (
      <span title={`${staleText(mark)}: left out of market value, unrealized and the totals`}>
        <span className="mark-stale">{price}</span>{' '}
        <Badge tone="warn">
          <span data-testid="mark-stale">stale</span>
        </Badge>
      </span>
    );
  }
  return <span title={`${mark.source === 'mid' ? 'bid/ask mid' : 'spot'} at ${fmtDateTime(mark.quoteTime)}`}>{price}</span>;
}

/** A position event's kind in two words. */
function alertLabel(kind: string | undefined): string {
  if (kind === 'position_crossed') return 'level crossed';
  if (kind === 'position_within') return 'level near';
  return (kind ?? 'alert').replace(/_/g, ' ');
}

/** A position's alerts (issue 18: position events of its strike): a badge beside the instrument, the messages in its tooltip. */
function Instrument({ position }: { position: PositionJson }) {
  const alerts = position.alerts ?? [];
  return (
    <span title={fmtSymbol(position.symbol)}>
      {instrumentLabel(position)}
      {alerts.length > 0 && (
        <>
          {' '}
          <Badge tone="warn" title={alerts.map((a) => `${fmtDateTime(a.timestamp)}: ${a.message}`).join('\n')}>
            <span data-testid="position-alert">{alerts.length === 1 ? alertLabel(alerts[0]?.kind) : fmtCount(alerts.length, 'alert')}</span>
          </Badge>
        </>
      )}
    </span>
  );
}

interface BookColumn extends Column {
  key: SortKey | 'account';
  cell: (p: PositionJson) => ReactNode;
}

function columns(currency: string, moves: ReadonlyMap<string, ExpectedMove>, manyAccounts: boolean): BookColumn[] {
  const list: BookColumn[] = [
    { key: 'instrument', label: 'Instrument', cell: (p) => <Instrument position={p} /> },
    { key: 'account', label: 'Account', hide: 'lo', cell: (p) => p.accountName },
    { key: 'qty', label: 'Qty', num: true, cell: (p) => fmtQuantity(p.quantity) },
    { key: 'costBasis', label: 'Cost basis', num: true, hide: 'lo', cell: (p) => fmtMoney(p.costBasis, currency) },
    {
      key: 'collateral',
      label: 'Collateral',
      num: true,
      hide: 'lo',
      title: 'Its part of its campaign’s collateral (the figure of Trades and Campaigns): shares at cost, a spread’s width on its short leg, a short put at its strike, naked calls Reg T; 0 for a leg another covers',
      cell: (p) => ((p as Partial<PositionJson>).collateral === undefined ? '—' : fmtMoney(p.collateral, currency)),
    },
    { key: 'mark', label: 'Mark', num: true, hide: 'mid', cell: (p) => <MarkCell position={p} /> },
    { key: 'unrealized', label: 'Unrealized', num: true, cell: (p) => (p.unrealizedPL === null ? <span className="muted">—</span> : <Money value={p.unrealizedPL} currency={currency} />) },
    { key: 'dte', label: 'DTE', num: true, title: 'Days to expiry (New York days)', cell: (p) => fmtDte(p.dte) },
    { key: 'delta', label: 'Δ sh', num: true, hide: 'lo', title: 'Delta in shares', cell: (p) => (p.greeks ? fmtNumber(p.greeks.delta, 1) : '—') },
    { key: 'theta', label: 'Θ $/day', num: true, hide: 'lo', title: 'Theta in $ per day', cell: (p) => (p.greeks && p.isOption ? fmtNumber(p.greeks.theta, 2) : '—') },
    {
      key: 'expectedMove',
      label: 'vs exp. move',
      num: true,
      hide: 'mid',
      title: "A short strike's distance beyond (out) or inside (in) its expiration's expected move (spot ± the ATM straddle), in % of spot",
      cell: (p) => <MoveCell position={p} move={moves.get(moveKey(p))} />,
    },
    { key: 'putWall', label: 'vs put wall', num: true, hide: 'lo', title: 'Strike vs put wall, of the levels scope chosen (hover a cell for its level and expirations)', cell: (p) => <Distance position={p} pct={p.strikeVs?.putWall ?? null} level="putWall" /> },
    { key: 'callWall', label: 'vs call wall', num: true, hide: 'lo', title: 'Strike vs call wall, of the levels scope chosen', cell: (p) => <Distance position={p} pct={p.strikeVs?.callWall ?? null} level="callWall" /> },
    { key: 'flip', label: 'vs flip', num: true, hide: 'lo', title: 'Strike vs gamma flip, of the levels scope chosen', cell: (p) => <Distance position={p} pct={p.strikeVs?.gammaFlip ?? null} level="gammaFlip" /> },
  ];
  return manyAccounts ? list : list.filter((c) => c.key !== 'account');
}

type Levels = NonNullable<PositionJson['levels']>;

/** The distinct levels of a group's rows (one per expiration under `own`, one for the scope otherwise), by their expirations. */
export function groupLevels(rows: readonly PositionJson[]): Levels[] {
  const byKey = new Map<string, Levels>();
  for (const row of rows) {
    const levels = row.levels;
    if (levels === null) continue;
    const key = `${levels.scope}|${levels.expirations.join(',')}`;
    if (!byKey.has(key)) byKey.set(key, levels);
  }
  return [...byKey.values()].sort((a, b) => (a.expirations[0] ?? '').localeCompare(b.expirations[0] ?? ''));
}

/** A group's levels in one line each: "put wall 445 · call wall 459 · flip 454.15 (own expiration 06 Oct 23)"; the rest said by count. */
function LevelsLine({ list }: { list: readonly Levels[] }) {
  const shown = list.slice(0, 2);
  const line = (levels: Levels) => `put wall ${fmtPrice(levels.putWall)} · call wall ${fmtPrice(levels.callWall)} · flip ${fmtPrice(levels.gammaFlip)} (${scopeText(levels)})`;
  return (
    <span className="muted group-levels" title={list.map(line).join('\n')} data-testid="group-levels">
      {shown.map((levels) => (
        <span key={`${levels.scope}|${levels.expirations.join(',')}`} className="group-level">
          {' '}
          · {line(levels)}
        </span>
      ))}
      {list.length > shown.length && <span> · +{list.length - shown.length} more expirations</span>}
    </span>
  );
}

function GroupHead({ group, marks, currency, span, mapOpen, onMap }: { group: BookGroup; marks: MarkOf | undefined; currency: string; span: number; mapOpen: boolean | null; onMap: () => void }) {
  const { underlying: symbol, rows } = group;
  const stale = marks?.stale === true;
  // Options show the levels they are held against; shares alone show theirs (the nearest three).
  const options = rows.filter((r) => r.isOption);
  const levels = groupLevels(options.length > 0 ? options : rows);
  // A sum over no marked row is unknown ("—"), not $0.00.
  const marked = rows.filter((r) => r.unrealizedPL !== null);
  const unrealized = marked.length === 0 ? null : marked.reduce((sum, r) => sum + (r.unrealizedPL ?? 0), 0);
  const delta = rows.reduce((sum, r) => sum + (r.greeks?.delta ?? 0), 0);
  const thetas = rows.flatMap((r) => (r.greeks === null ? [] : [r.greeks.theta]));
  const theta = thetas.length === 0 ? null : thetas.reduce((sum, t) => sum + t, 0);
  const collateral = rows.reduce((sum, r) => sum + ((r as Partial<PositionJson>).collateral ?? 0), 0);
  return (
    <tr className="group-row">
      <th colSpan={span} scope="rowgroup" id={`positions-${symbol}-title`}>
        <div className="group-head">
          <span className="group-name">
            <strong>{symbol}</strong>{' '}
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
              <Badge tone="warn" title={`No chain snapshot of ${symbol} at or before this instant: load ${article(symbol)} ${symbol} chain on the Import page to mark these positions and see the dealers' levels`}>
                unmarked
              </Badge>
            )}
          </span>
          <span className="group-figures small">
            <span data-testid={`group-unrealized-${symbol}`}>{unrealized === null ? '—' : <Money value={unrealized} currency={currency} />}</span> · Δ {fmtNumber(delta, 0)} sh · Θ {theta === null ? '—' : fmtMoney(theta, currency, true)}/day
            <span className="narrow-hide" title="Collateral of this underlying’s positions (the campaigns’ figure now)">
              {' '}
              · collateral {fmtMoney(collateral, currency)}
            </span>
            {levels.length > 0 && <LevelsLine list={levels} />}
          </span>
          {mapOpen !== null && (
            <button type="button" className="btn btn-small" aria-expanded={mapOpen} aria-controls={`map-row-${symbol}`} onClick={onMap} data-testid={`map-toggle-${symbol}`}>
              {mapOpen ? 'Hide map' : "Dealers' map"}
            </button>
          )}
        </div>
      </th>
    </tr>
  );
}

export function BookTable({
  groups,
  data,
  moves,
  sort,
  onSort,
  openMaps,
  onToggleMap,
}: {
  groups: readonly BookGroup[];
  data: PositionsResponseT;
  moves: ReadonlyMap<string, ExpectedMove>;
  sort: Sort;
  onSort: (key: SortKey) => void;
  openMaps: ReadonlySet<string>;
  onToggleMap: (symbol: string) => void;
}) {
  const cols = columns(data.currency, moves, data.accounts.length > 1);
  return (
    <div className="table-wrap">
      <table className="table book-table" data-testid="positions-table">
        <thead>
          <tr>
            {cols.map((c) => {
              const active = sort.key === c.key;
              return (
                <th key={c.key} className={colClass(c.hide, `${c.num === true ? 'num ' : ''}sortable`)} title={c.title} aria-sort={active ? (sort.dir === 1 ? 'ascending' : 'descending') : undefined}>
                  {c.key === 'account' ? (
                    c.label
                  ) : (
                    <button type="button" onClick={() => c.key !== 'account' && onSort(c.key)} data-testid={`sort-${c.key}`}>
                      {c.label}
                      {active ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
                    </button>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        {groups.map((group) => {
          const symbol = group.underlying;
          const marks: MarkOf | undefined = data.marksAsOf.find((m) => m.symbol === symbol);
          const stale = marks?.stale === true;
          const mappable = marks !== undefined && !stale && group.rows.some((r) => r.isOption && r.quantity < 0);
          const open = mappable && openMaps.has(symbol);
          return (
            <tbody key={symbol} data-testid={`book-${symbol}`} aria-labelledby={`positions-${symbol}-title`}>
              <GroupHead group={group} marks={marks} currency={data.currency} span={cols.length} mapOpen={mappable ? open : null} onMap={() => onToggleMap(symbol)} />
              {group.rows.map((p) => (
                <tr key={`${p.accountId}|${p.symbol}`} data-testid="position-row" data-symbol={p.symbol}>
                  {cols.map((c) => (
                    <td key={c.key} className={colClass(c.hide, c.num === true ? 'num' : '')} data-col={c.key}>
                      {c.cell(p)}
                    </td>
                  ))}
                </tr>
              ))}
              {marks && stale && (
                <tr className="note-row">
                  <td colSpan={cols.length} className="small" data-testid={`stale-${symbol}`}>
                    <span className="warn-text">Stale: {staleText(marks)}</span> (spot {fmtPrice(marks.spot)}). Its positions are left out of market value, unrealized and the totals: import a newer chain snapshot of {symbol}.
                  </td>
                </tr>
              )}
              {open && marks && (
                <tr className="map-row" id={`map-row-${symbol}`}>
                  <td colSpan={cols.length}>
                    <BookOnMap symbol={symbol} positions={group.rows} snapshotId={marks.snapshotId} levelsScope={data.levelsScope} />
                  </td>
                </tr>
              )}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
