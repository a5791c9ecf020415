/**
 * One trade: its figures, its entry against the dealers' levels (and on their map when a snapshot at entry exists),
 * its legs in the order they were booked (its timeline), and its note and tags, editable (PUT …/annotation).
 */
import { useEffect, useState } from 'react';
import type { TradeJson } from '../../../src-shared/api/schemas';
import type { ApiError } from '../../api/client';
import { Badge, DataTable, ErrorBanner, Money, num, Panel, Stat } from '../../components/ui';
import { fmtDateTime, fmtDte, fmtMoney, fmtNumber, fmtPct, fmtPrice, fmtSymbol, typeLabel } from '../../format';
import { routeHash, useApi } from '../../hooks';
import { EntryOnMap } from './EntryOnMap';
import { entryPlaceText, STRATEGY_LABELS } from './labels';

const orDash = (value: number | null, currency: string) => (value === null ? '—' : fmtMoney(value, currency));

/** Tags as typed: commas or new lines between them. */
function parseTags(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

function AnnotationEditor({ trade, onSaved }: { trade: TradeJson; onSaved: () => void }) {
  const api = useApi();
  const [note, setNote] = useState(trade.note);
  const [tags, setTags] = useState(trade.tags.join(', '));
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setNote(trade.note);
    setTags(trade.tags.join(', '));
    setSaved(false);
    setError(null);
  }, [trade.id, trade.note, trade.tags]);
  return (
    <form
      className="annotation"
      data-testid="trade-annotation"
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        api
          .annotate('trades', trade.id, { note, tags: parseTags(tags) })
          .then(() => {
            setError(null);
            setSaved(true);
            onSaved();
          })
          .catch((e: unknown) => setError(e as ApiError))
          .finally(() => setSaving(false));
      }}
    >
      <label className="field">
        <span>Note</span>
        <textarea value={note} maxLength={10_000} rows={3} onChange={(e) => (setNote(e.target.value), setSaved(false))} placeholder="Why you took it, how you managed it" />
      </label>
      <label className="field">
        <span>Tags</span>
        <input type="text" value={tags} onChange={(e) => (setTags(e.target.value), setSaved(false))} placeholder="earnings, wheel" aria-describedby="tags-help" />
      </label>
      <p id="tags-help" className="muted small">
        Separated by commas; up to 20 of 40 characters, kept in lower case. Notes stay with the trade when its file is undone and imported again.
      </p>
      {error && <ErrorBanner error={error} />}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={saving}>
          {saving ? 'Saving…' : 'Save note'}
        </button>
        {saved && <span className="muted small" role="status">Saved</span>}
      </div>
    </form>
  );
}

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
        <AnnotationEditor trade={trade} onSaved={onSaved} />
      </div>
    </Panel>
  );
}
