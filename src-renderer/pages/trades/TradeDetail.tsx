/**
 * One trade: its figures, its entry against the dealers' levels (and on their map when a snapshot at entry exists),
 * its legs in the order they were booked (its timeline), and its note and tags, editable (PUT …/annotation).
 */
import type { TradeJson } from '../../../src-shared/api/schemas';
import { Badge, DataTable, Money, num, Panel, Stat } from '../../components/ui';
import { fmtDateTime, fmtDte, fmtMoney, fmtNumber, fmtPct, fmtPrice, fmtSymbol, typeLabel } from '../../format';
import { routeHash } from '../../hooks';
import { AnnotationEditor } from './AnnotationEditor';
import { EntryOnMap } from './EntryOnMap';
import { entryPlaceText, STRATEGY_LABELS } from './labels';

const orDash = (value: number | null, currency: string) => (value === null ? '—' : fmtMoney(value, currency));

export function TradeDetail({ trade, currency, onClose, onSaved }: { trade: TradeJson; currency: string; onClose: () => void; onSaved: () => void }) {
  const levels = trade.levelsAtEntry;
  const place = entryPlaceText(trade);
  const total = trade.pnl === null ? null : trade.pnl + (trade.unrealizedPL ?? 0);
  return (
    <Panel
      className="trade-detail"
      id="trade-detail"
      title={
        <>
          {trade.underlying} · {STRATEGY_LABELS[trade.strategy]} {trade.status === 'open' ? <Badge tone="info">open</Badge> : <Badge>closed</Badge>}
        </>
      }
      actions={
        <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close the trade">
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
            sub={trade.status === 'open' ? `realized ${fmtMoney(trade.pnl ?? 0, currency, true)} + unrealized ${trade.unrealizedPL === null ? 'unmarked' : fmtMoney(trade.unrealizedPL, currency, true)}` : undefined}
          />
          <Stat label="Credit" value={trade.credit === null ? '—' : <Money value={trade.credit} currency={currency} />} sub="net cash at open" />
          <Stat label="Max profit" value={orDash(trade.maxProfit, currency)} />
          <Stat label="Max loss" value={trade.maxLoss === null ? 'unbounded' : fmtMoney(trade.maxLoss, currency)} />
          <Stat label="Collateral" value={orDash(trade.collateral, currency)} />
          <Stat label="Return on collateral" value={fmtPct(trade.returnOnCollateral, 1)} />
          <Stat label="% of max profit" value={fmtPct(trade.pctOfMaxProfit, 0)} />
          <Stat label="At entry" value={`${fmtDte(trade.dteAtEntry) || '—'} DTE`} sub={trade.deltaAtEntry === null ? 'Δ unknown' : `Δ ${fmtNumber(trade.deltaAtEntry, 2)}`} />
        </div>
        <section className="trade-entry" aria-label="The entry against the dealers' levels" data-testid="trade-entry">
          {levels === null ? (
            <p className="muted small">No chain snapshot of {trade.underlying} from the day of the open or the trading day before: the levels at entry are unknown.</p>
          ) : (
            <p>
              <strong data-testid="entry-place">{place ?? 'Levels at entry'}</strong>{' '}
              <span className="muted small">
                {levels.gammaZone === 'positive' ? 'positive' : 'negative'} gamma · put wall {levels.putWall === null ? '—' : fmtPrice(levels.putWall)} · flip {levels.gammaFlip === null ? '—' : fmtPrice(levels.gammaFlip)} · call wall{' '}
                {levels.callWall === null ? '—' : fmtPrice(levels.callWall)}
                {trade.entrySnapshot && <> · spot {fmtPrice(trade.entrySnapshot.spot)}</>}
                {trade.mainLeg && (
                  <>
                    {' '}
                    · {trade.mainLeg.side === 'short' ? 'short' : 'long'} {fmtPrice(trade.mainLeg.strike)}
                    {trade.mainLeg.right}
                  </>
                )}
              </span>
            </p>
          )}
          {trade.entrySnapshot !== null && <EntryOnMap trade={trade} />}
        </section>
        <h3 className="subhead">Legs</h3>
        <DataTable testId="trade-legs" columns={['Date', { label: 'Role', hide: 'mid' }, { label: 'Type', hide: 'mid' }, 'Symbol', num('Qty'), num('Realized')]}>
          {trade.legs.map((leg, index) => (
            <tr key={`${leg.transactionId}-${index}`}>
              <td className="num">{leg.date}</td>
              <td className="col-mid">{leg.role === 'entry' ? 'Entry' : leg.role === 'open' ? 'Opened' : 'Closed'}</td>
              <td className="col-mid">{typeLabel(leg.type)}</td>
              <td className="sym">{fmtSymbol(leg.symbol)}</td>
              <td className="num">{fmtNumber(leg.quantity, 0)}</td>
              <td className="num">{leg.realizedPL === null ? '' : <Money value={leg.realizedPL} currency={currency} />}</td>
            </tr>
          ))}
        </DataTable>
        <h3 className="subhead">Note and tags</h3>
        <AnnotationEditor kind="trades" id={trade.id} note={trade.note} tags={trade.tags} onSaved={onSaved} />
      </div>
    </Panel>
  );
}
