/**
 * Today: the morning's list of what to manage (GET /journal/manage, docs/journal.md §Managing open trades): every open
 * trade that hits a management rule on its fresh marks, most urgent first, each with the rules it hits in words, its
 * figures, and links to its detail and its rolls (Trades page); the trades whose marks are too old to judge apart,
 * with what to do. The rules are set in Settings. docs/ui.md §Today.
 */
import { useState } from 'react';
import type { ManageItemJson, ManageResponseT } from '../../../src-shared/api/schemas';
import { AccountSelect } from '../../components/AccountSelect';
import { ImportOrDemo } from '../../components/DemoButton';
import { useRefreshNow } from '../../components/RefreshNow';
import { AsyncStatus, Badge, colClass, DataTable, EmptyState, Money, num, PageFigures, PageHead, Panel, Stat } from '../../components/ui';
import { fmtCount, fmtDateTime, fmtDte, fmtInt, fmtPct, fmtPrice, fmtSymbol } from '../../format';
import { useApi, useAsync, useReloadWhileBuilding, useRoute } from '../../hooks';
import { STRATEGY_LABELS } from '../trades/labels';
import { RULE_LABELS, RULE_TONES, rollsHref, rulesLine, tradeHref } from './rules';

/** The leg a row speaks of: the first rule's, else the nearest short option. */
function keyLeg(item: ManageItemJson) {
  const about = item.rules.find((r) => r.leg !== null)?.leg ?? null;
  return item.legs.find((l) => l.symbol === about) ?? item.legs.filter((l) => l.isOption && l.quantity < 0).sort((a, b) => (a.dte ?? 0) - (b.dte ?? 0))[0] ?? item.legs[0] ?? null;
}

function ItemRow({ item }: { item: ManageItemJson }) {
  const leg = keyLeg(item);
  const hasShort = item.legs.some((l) => l.isOption && l.quantity < 0);
  const [first, ...rest] = item.rules;
  return (
    <tr data-testid="today-item" data-trade-id={item.tradeId} data-rules={item.rules.map((r) => r.rule).join(',')}>
      <td className="today-trade">
        <div>
          <strong className="sym">{item.symbol}</strong> <span className="muted small">{STRATEGY_LABELS[item.strategy]}</span>
        </div>
        <div className="muted small">{item.accountName}</div>
      </td>
      <td className="today-rules">
        <div className="today-badges">
          {item.rules.map((r, i) => (
            <Badge key={`${r.rule}-${i}`} tone={RULE_TONES[r.rule]} title={r.message}>
              {RULE_LABELS[r.rule]}
            </Badge>
          ))}
        </div>
        {first && (
          <p className="today-message small" data-testid="today-message">
            {first.message}
          </p>
        )}
        {rest.length > 0 && (
          <details className="today-more small">
            <summary>
              {rest.length} more rule{rest.length === 1 ? '' : 's'}
            </summary>
            <ul>
              {rest.map((r, i) => (
                <li key={`${r.rule}-${i}`}>{r.message}</li>
              ))}
            </ul>
          </details>
        )}
      </td>
      <td className="num today-pnl">
        <Money value={item.pnl} currency={item.currency} />
        <div className="muted small">{item.pctOfMaxProfit === null ? 'debit' : `${fmtPct(item.pctOfMaxProfit, 0)} of max`}</div>
      </td>
      <td className={colClass('mid', 'num')}>
        {leg === null ? '—' : (
          <>
            <span className="sym">{fmtSymbol(leg.symbol)}</span>
            <div className="muted small">
              {leg.dte === null ? '' : `${fmtDte(leg.dte)} DTE · `}mark {fmtPrice(leg.mark, 4)}
            </div>
          </>
        )}
      </td>
      <td className={colClass('lo', 'num')}>
        {leg?.extrinsic === null || leg?.extrinsic === undefined ? '—' : fmtPrice(leg.extrinsic, 4)}
        {leg?.distancePct !== null && leg?.distancePct !== undefined && (
          <div className="muted small" title="How far the strike is out of the money, in % of spot (negative: in the money)">
            {leg.distancePct >= 0 ? `${leg.distancePct.toFixed(1)}% OTM` : `${(-leg.distancePct).toFixed(1)}% ITM`}
          </div>
        )}
      </td>
      <td className="today-actions">
        <a className="btn btn-small" href={tradeHref(item.tradeId)} data-testid="today-trade-link">
          Trade
        </a>
        {hasShort && (
          <a className="btn btn-small btn-primary" href={rollsHref(item.tradeId)} data-testid="today-rolls-link">
            Rolls
          </a>
        )}
      </td>
    </tr>
  );
}

function StaleList({ data }: { data: ManageResponseT }) {
  if (data.stale.length === 0) return null;
  return (
    <Panel title={`Marks too old to judge (${fmtInt(data.stale.length)})`} className="today-stale">
      <p className="muted small pad">
        No rule is read on these: their newest chain snapshot is older than the mark age setting, or none marks them. Refresh now (online source) or
        import a chain of each underlying on the Import page.
      </p>
      <DataTable testId="today-stale" columns={['Trade', 'Leg', { label: 'Snapshot', hide: 'mid' }, 'Why']}>
        {data.stale.map((s) => (
          <tr key={s.tradeId} data-testid="today-stale-row" data-trade-id={s.tradeId}>
            <td>
              <a href={tradeHref(s.tradeId)}>
                <strong className="sym">{s.symbol}</strong> <span className="muted small">{STRATEGY_LABELS[s.strategy]}</span>
              </a>
              <div className="muted small">{s.accountName}</div>
            </td>
            <td className="sym">{fmtSymbol(s.leg)}</td>
            <td className="col-mid num">{s.quoteTime === null ? '—' : fmtDateTime(s.quoteTime)}</td>
            <td>{s.reason === 'stale' ? <Badge tone="warn">{`stale · ${fmtCount(s.ageDays ?? 0, 'trading day')} old`}</Badge> : <Badge>no mark</Badge>}</td>
          </tr>
        ))}
      </DataTable>
    </Panel>
  );
}

export function TodayPage() {
  const api = useApi();
  const route = useRoute();
  const [accountId, setAccountId] = useState(route.params.get('accountId') ?? '');
  const result = useAsync((signal) => api.call('GET /journal/manage', { query: accountId === '' ? {} : { accountId } }, { signal }), [api, accountId]);
  const data = result.data;
  useReloadWhileBuilding(data?.building === true, result.reload);
  // New snapshots mark the book anew: the list is read again when a pass stored one.
  const refresh = useRefreshNow(result.reload);
  const urgent = data?.items.filter((i) => i.rules[0] !== undefined && RULE_TONES[i.rules[0].rule] === 'neg').length ?? 0;
  return (
    <div className="page" data-testid="page-today">
      <PageHead
        title="Today"
        meta={data && <PageFigures demo={data.demo} building={data.building}>as of {fmtDateTime(data.asOf)}</PageFigures>}
        toolbar={
          <>
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={setAccountId} />}
            {refresh.button}
          </>
        }
      />
      {refresh.progress}
      <AsyncStatus state={result} label="Reading the rules…" />
      {data && (
        <>
          <div className="stats-grid">
            <Stat label="To manage" value={fmtInt(data.items.length)} sub={`of ${fmtCount(data.open, 'open trade')}`} testId="today-count" />
            <Stat label="Urgent" value={fmtInt(urgent)} sub="in the money near expiry, or at the loss stop" tone={urgent > 0 ? 'neg' : undefined} />
            <Stat label="Profit to take" value={fmtInt(data.items.filter((i) => i.rules.some((r) => r.rule === 'profit_target')).length)} sub="at the profit target" />
            <Stat label="Not judged" value={fmtInt(data.stale.length)} sub="stale or missing marks" />
          </div>
          <p className="muted small" data-testid="today-rules-line">
            Rules: {rulesLine(data.rules)} · <a href="#/settings">change in Settings</a>
          </p>
          {data.open === 0 ? (
            <EmptyState title="No open trades" actions={<ImportOrDemo onLoaded={result.reload} />}>
              Today lists the open trades that need managing by your rules: a profit to take, a trade at its DTE or its loss stop, a short option in the money near expiry or before a dividend, a dealer level at your strike.
            </EmptyState>
          ) : data.items.length === 0 ? (
            <div className="alert alert-info" role="status" data-testid="today-nothing">
              Nothing to manage today: {fmtCount(data.open - data.stale.length, 'open trade')} with fresh marks, none at a rule.
            </div>
          ) : (
            <Panel>
              <DataTable
                testId="today-table"
                className="table table-cards today-list"
                columns={[
                  'Trade',
                  'Why',
                  num('P&L', 'Realized so far + unrealized at the marks; % of the max profit (every credit less what the rolls paid)'),
                  num('Leg', 'The leg the first rule is about: days to expiry and its mark (mid)', 'mid'),
                  num('Extrinsic', 'Per share: the mark less the intrinsic value; how far the strike is out of the money', 'lo'),
                  '',
                ]}
              >
                {data.items.map((item) => (
                  <ItemRow key={item.tradeId} item={item} />
                ))}
              </DataTable>
            </Panel>
          )}
          <StaleList data={data} />
        </>
      )}
    </div>
  );
}
