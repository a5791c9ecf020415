/**
 * One trade: its figures, its entry against the dealers' levels (and on their map when a snapshot at entry exists),
 * its timeline (GET /journal/trades/{id}: each row in the order it was booked, with its price, the cash booked on the
 * trade's units and the realized P&L so far; the list row's legs until it arrives), and its note and tags, editable
 * (PUT …/annotation).
 */
import { useEffect, useRef, useState } from 'react';
import type { TimelineEntryJson, TradeJson } from '../../../src-shared/api/schemas';
import { Badge, DataTable, Money, num, Panel, Stat } from '../../components/ui';
import { fmtDateTime, fmtDte, fmtMoney, fmtNumber, fmtPct, fmtPrice, fmtQuantity, fmtSymbol, typeLabel } from '../../format';
import { routeHash, useApi, useAsync } from '../../hooks';
import type { LevelsScope } from '../../../src-shared/api/constants';
import { scopeText } from '../../components/LevelsScope';
import { AnnotationEditor } from './AnnotationEditor';
import { EntryOnMap } from './EntryOnMap';
import { RollsPanel } from './RollsPanel';
import { entryPlaceText, OUTCOME_LABELS, roleWord, STATEMENT_VIEW_NOTE, STRATEGY_LABELS } from './labels';

/** A figure of the trade: "unknown" when it was opened before the history, else `none` when null. */
const figure = (trade: TradeJson, value: number | null, currency: string, none = '—') => (trade.openedBeforeHistory ? 'unknown' : value === null ? none : fmtMoney(value, currency));
/** 0: the first structure; n: the n-th rolled into the trade (or sold against its shares). */
const structureText = (roll: number) => (roll === 0 ? 'first' : `no. ${roll + 1}`);

/** The timeline's rows; the list row's legs (no price, cash or running P&L) until the detail has answered. */
function Timeline({ trade, timeline, currency }: { trade: TradeJson; timeline: TimelineEntryJson[] | null; currency: string }) {
  const rolled = trade.rolls > 0 || trade.legs.some((leg) => leg.role === 'open');
  return (
    <DataTable
      testId="trade-legs"
      columns={[
        'Date',
        { label: 'Role', hide: 'mid' },
        ...(rolled ? [{ label: 'Structure', hide: 'mid' as const, title: 'first: the trade’s first structure; then each rolled into it or sold against its shares, in the order they opened' }] : []),
        { label: 'Type', hide: 'mid' },
        'Symbol',
        num('Qty'),
        num('Price', 'Per share, as the row reads', 'lo'),
        num('Cash', 'Booked on the trade’s units, commission and fees included (+ received, − paid)', 'lo'),
        num('Realized'),
        num('P&L so far', 'The trade’s realized P&L after this row', 'mid'),
      ]}
    >
      {(timeline ?? trade.legs.map((leg) => ({ ...leg, tradeDate: null, roll: null, price: null, cash: null, costs: null, rowQuantity: null, runningRealizedPL: null }))).map((row, index) => (
        <tr key={`${row.transactionId}-${index}`} data-testid="timeline-row">
          <td className="num">
            {row.date}
            {/* The time goes on narrow windows: the key columns (what, how many, its P&L) stay in view. */}
            {row.tradeDate !== null && <span className="col-mid"> {fmtDateTime(row.tradeDate).slice(11)}</span>}
          </td>
          <td className="col-mid">{roleWord(row.role, row.type)}</td>
          {rolled && <td className="col-mid">{row.roll === null ? '' : structureText(row.roll)}</td>}
          <td className="col-mid">{typeLabel(row.type)}</td>
          <td className="sym">{fmtSymbol(row.symbol)}</td>
          <td className="num" title={row.rowQuantity !== null && row.rowQuantity !== row.quantity ? `of a row of ${fmtQuantity(row.rowQuantity)} shared with another trade` : undefined}>
            {fmtQuantity(row.quantity)}
            {row.rowQuantity !== null && row.rowQuantity !== row.quantity && <span className="muted small"> of {fmtQuantity(row.rowQuantity)}</span>}
          </td>
          <td className="num col-lo">{row.price === null ? '' : row.price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 })}</td>
          <td className="num col-lo">{row.cash === null ? '' : <Money value={row.cash} currency={currency} colored={false} />}</td>
          <td className="num">{row.realizedPL === null ? '' : <Money value={row.realizedPL} currency={currency} />}</td>
          <td className="num col-mid" data-testid="timeline-running">
            {row.runningRealizedPL === null ? '' : <Money value={row.runningRealizedPL} currency={currency} />}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

export function TradeDetail({
  trade,
  currency,
  onClose,
  onSaved,
  levelsScope = 'own',
  showRolls = false,
}: {
  trade: TradeJson;
  currency: string;
  onClose: () => void;
  onSaved: () => void;
  levelsScope?: LevelsScope;
  /** Opened from Today's "Rolls": the roll assistant shown at once, in view. */
  showRolls?: boolean;
}) {
  const api = useApi();
  const [rollsOpen, setRollsOpen] = useState(showRolls);
  const rollsRef = useRef<HTMLElement>(null);
  // Read again when the list row changes (a note saved, a reload): the detail is the same row plus its timeline.
  const detail = useAsync((signal) => api.call('GET /journal/trades/{id}', { params: { id: trade.id }, query: levelsScope === 'own' ? {} : { levelsScope } }, { signal }), [api, trade, levelsScope]);
  const levels = trade.levelsAtEntry;
  const place = entryPlaceText(trade);
  // Unmarked open legs leave the total unknown ("—"); the realized part is said beneath it.
  const total = trade.pnl === null || (trade.status === 'open' && trade.unrealizedPL === null) ? null : trade.pnl + (trade.unrealizedPL ?? 0);
  const closeButton = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // Opened, the detail takes the focus (a keyboard or screen-reader user lands on it, above the list) and Escape closes
  // it; closed, the focus goes back to what opened it (the row's strategy button).
  useEffect(() => {
    const opener = document.activeElement;
    closeButton.current?.focus({ preventScroll: true });
    closeButton.current?.closest('.trade-detail')?.scrollIntoView({ block: 'nearest' });
    const onKey = (event: KeyboardEvent) => {
      // Escape in the note's fields leaves the typing alone.
      if (event.key !== 'Escape' || event.defaultPrevented || (event.target instanceof HTMLElement && event.target.closest('input, textarea, select') !== null)) return;
      close.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    };
  }, [trade.id]);
  // After the focus's scroll (effects run in order): opened from Today's "Rolls", the roll assistant is what is in view.
  useEffect(() => {
    if (showRolls) {
      setRollsOpen(true);
      rollsRef.current?.scrollIntoView({ block: 'start' });
    }
  }, [showRolls, trade.id]);
  return (
    <Panel
      className="trade-detail"
      id="trade-detail"
      title={
        <>
          {trade.underlying} · {STRATEGY_LABELS[trade.strategy]} {trade.status === 'open' ? <Badge tone="info">open</Badge> : <Badge tone={trade.pnl !== null && trade.pnl <= 0 && trade.outcome === 'assigned' ? 'warn' : 'neutral'}>{OUTCOME_LABELS[trade.outcome].toLowerCase()}</Badge>}
        </>
      }
      actions={
        <button ref={closeButton} type="button" className="btn btn-small" onClick={onClose} aria-label="Close the trade" aria-keyshortcuts="Escape" data-testid="trade-detail-close">
          Close
        </button>
      }
    >
      <div data-testid="trade-detail" data-trade-id={trade.id}>
        <p className="muted small">
          {trade.accountName} · opened {trade.openedAt === null ? 'before the history' : fmtDateTime(trade.openedAt)}
          {trade.closedAt !== null && <> · closed {fmtDateTime(trade.closedAt)}</>}
          {trade.rolls > 0 && <> · {trade.rolls} roll{trade.rolls === 1 ? '' : 's'}</>}
          {trade.campaignId !== null && (
            <>
              {' '}
              · <a href={routeHash('campaigns', {}, trade.campaignId)}>its campaign</a>
            </>
          )}
        </p>
        <div className="stats-grid stats-grid-8">
          <Stat
            label="P&L"
            value={total === null ? '—' : <Money value={total} currency={currency} />}
            sub={trade.status === 'open' ? `realized ${trade.pnl === null ? '—' : fmtMoney(trade.pnl, currency, true)} + unrealized ${trade.unrealizedPL === null ? 'unmarked' : fmtMoney(trade.unrealizedPL, currency, true)}` : undefined}
          />
          <Stat
            label="Options P&L"
            value={trade.optionPL === null ? 'unknown' : <Money value={trade.optionPL} currency={currency} />}
            sub={trade.pnl !== null && trade.optionPL !== null && trade.pnl !== trade.optionPL ? `shares ${fmtMoney(trade.pnl - trade.optionPL, currency, true)}` : 'the broker statement’s view'}
            title={STATEMENT_VIEW_NOTE}
            testId="trade-option-pl"
          />
          <Stat label="Credit" value={trade.credit === null ? (trade.openedBeforeHistory ? 'unknown' : '—') : <Money value={trade.credit} currency={currency} />} sub="net cash at open" />
          <Stat label="Max profit" value={figure(trade, trade.maxProfit, currency)} sub={trade.rolls > 0 ? 'every credit less roll debits' : undefined} />
          <Stat label="Max loss" value={figure(trade, trade.maxLoss, currency, 'unbounded')} testId="trade-max-loss" />
          <Stat label="Collateral" value={figure(trade, trade.collateral, currency)} {...(trade.collateralRule === null ? {} : { title: trade.collateralRule })} />
          <Stat label="Return on collateral" value={fmtPct(trade.returnOnCollateral, 1)} />
          <Stat label="% of max profit" value={fmtPct(trade.pctOfMaxProfit, 0)} />
          <Stat label="At entry" value={`${fmtDte(trade.dteAtEntry) || '—'} DTE`} sub={trade.deltaAtEntry === null ? 'Δ unknown' : `Δ ${fmtNumber(trade.deltaAtEntry, 2)}`} />
        </div>
        <section className="trade-entry" aria-label="The entry against the dealers' levels" data-testid="trade-entry">
          {levels === null ? (
            <p className="muted small">
              {trade.entrySnapshot === null
                ? `No chain snapshot of ${trade.underlying} from the day of the open or the trading day before: the levels at entry are unknown.`
                : `The snapshot at entry does not list the expiration of the main leg: no levels of its own expiration (choose 3 nearest or 0–45 DTE).`}
            </p>
          ) : (
            <p>
              <strong data-testid="entry-place">{place ?? 'Levels at entry'}</strong>{' '}
              <span className="muted small">
                {levels.gammaZone === 'positive' ? 'positive' : 'negative'} gamma · put wall {levels.putWall === null ? '—' : fmtPrice(levels.putWall)} · flip {levels.gammaFlip === null ? '—' : fmtPrice(levels.gammaFlip)} · call wall{' '}
                {levels.callWall === null ? '—' : fmtPrice(levels.callWall)} <span data-testid="entry-scope">({scopeText(levels)})</span>
                {trade.entrySnapshot && <> · spot {fmtPrice(trade.entrySnapshot.spot)}</>}
                {levels.shortStrikes.length > 1 ? (
                  <> · short {levels.shortStrikes.map((leg) => `${fmtPrice(leg.strike)}${leg.right}`).join(', ')}</>
                ) : (
                  trade.mainLeg && (
                    <>
                      {' '}
                      · {trade.mainLeg.side === 'short' ? 'short' : 'long'} {fmtPrice(trade.mainLeg.strike)}
                      {trade.mainLeg.right}
                    </>
                  )
                )}
              </span>
            </p>
          )}
          {trade.entrySnapshot !== null && <EntryOnMap trade={trade} />}
        </section>
        {trade.status === 'open' && (
          <section className="trade-rolls" aria-label="Rolls" ref={rollsRef} data-testid="trade-rolls">
            <h3 className="subhead">
              Rolls{' '}
              <button type="button" className="btn btn-small" onClick={() => setRollsOpen((open) => !open)} aria-expanded={rollsOpen} data-testid="rolls-toggle">
                {rollsOpen ? 'Hide' : 'Find rolls'}
              </button>
            </h3>
            {rollsOpen && <RollsPanel tradeId={trade.id} />}
          </section>
        )}
        <h3 className="subhead">Timeline</h3>
        <Timeline trade={trade} timeline={detail.data?.trade.id === trade.id ? detail.data.timeline : null} currency={currency} />
        <h3 className="subhead">Note and tags</h3>
        <AnnotationEditor kind="trades" id={trade.id} note={trade.note} tags={trade.tags} onSaved={onSaved} />
      </div>
    </Panel>
  );
}
