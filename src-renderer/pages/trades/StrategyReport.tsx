/**
 * The Strategy report on the Journal page: the closed trades' results by strategy, DTE or delta at entry, the dealers'
 * regime and the short strike's place against the levels at entry, or tag (GET /journal/stats): a bar chart of P&L
 * and win rate, and the table. docs/ui.md "Strategy report".
 */
import { useState } from 'react';
import { StatBars } from '../../components/charts';
import { AsyncStatus, DataTable, EmptyState, Money, num, Panel, Segmented } from '../../components/ui';
import { fmtInt, fmtNumber, fmtPct } from '../../format';
import { useApi, useAsync } from '../../hooks';
import { GROUP_OPTIONS, groupKeyLabel, STATEMENT_VIEW_NOTE, type GroupCode } from './labels';

export function StrategyReport({ accountId }: { accountId: string }) {
  const api = useApi();
  const [groupBy, setGroupBy] = useState<GroupCode>('strategy');
  const stats = useAsync((signal) => api.call('GET /journal/stats', { query: { groupBy, ...(accountId === '' ? {} : { accountId }) } }, { signal }), [api, groupBy, accountId]);
  const data = stats.data;
  const rows = data?.rows ?? [];
  return (
    <Panel
      title="Strategy report"
      id="strategy-report"
      actions={
        <div className="report-groups">
          <Segmented label="Group trades by" value={groupBy} options={GROUP_OPTIONS} onChange={setGroupBy} />
        </div>
      }
    >
      <div data-testid="strategy-report" data-group={data?.groupBy ?? ''}>
        <AsyncStatus state={stats} label="Loading trade statistics…" />
        {data && rows.length === 0 && (
          <EmptyState title="No closed trades yet">A trade counts here once it is closed: its legs bought back, expired, assigned or exercised.</EmptyState>
        )}
        {data && rows.length > 0 && (
          <div className="report-split">
            <StatBars
              label={`P&L and win rate of the closed trades by ${GROUP_OPTIONS.find((o) => o.value === groupBy)?.label ?? groupBy}`}
              currency={data.currency}
              rows={rows.map((r) => ({ key: r.key ?? 'untagged', label: groupKeyLabel(groupBy, r.key), pnl: r.pnl, winRate: r.winRate, trades: r.trades }))}
            />
            <DataTable
              testId="strategy-table"
              columns={[
                'Group',
                num('Trades'),
                num('Win rate', 'Wins / trades (the bars show it too)', 'mid'),
                num('P&L'),
                num('Avg P&L', undefined, 'mid'),
                num('Avg win', undefined, 'lo'),
                num('Avg loss', undefined, 'lo'),
                num('Profit factor', 'Σ wins / |Σ losses|', 'lo'),
                num('Avg days', undefined, 'lo'),
                num('Avg ROC', 'Mean return on collateral', 'mid'),
                num('Largest loss', undefined, 'lo'),
              ]}
            >
              {rows.map((r) => (
                <tr key={r.key ?? 'untagged'} data-key={r.key ?? ''}>
                  <td>{groupKeyLabel(groupBy, r.key)}</td>
                  <td className="num">{fmtInt(r.trades)}</td>
                  <td className="num col-mid">{fmtPct(r.winRate, 0)}</td>
                  <td className="num">
                    <Money value={r.pnl} currency={data.currency} />
                  </td>
                  <td className="num col-mid">
                    <Money value={r.avgPnl} currency={data.currency} />
                  </td>
                  <td className="num col-lo">{r.avgWin === null ? '—' : <Money value={r.avgWin} currency={data.currency} />}</td>
                  <td className="num col-lo">{r.avgLoss === null ? '—' : <Money value={r.avgLoss} currency={data.currency} />}</td>
                  <td className="num col-lo">{r.profitFactor === null ? '—' : fmtNumber(r.profitFactor, 2)}</td>
                  <td className="num col-lo">{r.avgDaysHeld === null ? '—' : fmtNumber(r.avgDaysHeld, 1)}</td>
                  <td className="num col-mid">{fmtPct(r.avgReturnOnCollateral, 1)}</td>
                  <td className="num col-lo">{r.largestLoss === null ? '—' : <Money value={r.largestLoss} currency={data.currency} />}</td>
                </tr>
              ))}
            </DataTable>
          </div>
        )}
        {data && rows.length > 0 && (
          <p className="muted small" data-testid="strategy-report-note" title={STATEMENT_VIEW_NOTE}>
            A trade’s P&L includes the shares an assignment delivered until they are sold or called away: a losing wheel cycle is a loss here, while the summary’s option P&L keeps the put’s premium (the broker statement’s view).
          </p>
        )}
      </div>
    </Panel>
  );
}
