/**
 * Campaigns: the wheel campaigns (chains, flat to flat per account and underlying) with their returns, and one
 * campaign's timeline of legs. Conventions: docs/journal.md §Campaigns.
 */
import { useMemo, useState } from 'react';
import type { CampaignJson } from '../../src-shared/api/schemas';
import { PAGE_LIMIT_CAP } from '../../src-shared/api/constants';
import { AccountSelect } from '../components/AccountSelect';
import { Pager } from '../components/Pager';
import { EquityChart } from '../components/charts';
import { ImportOrDemo } from '../components/DemoButton';
import { Badge, DataTable, EmptyState, ErrorBanner, Loading, Money, num, PageHead, Panel, Segmented, Stat } from '../components/ui';
import { fmtCount, fmtInt, fmtMoney, fmtNumber, fmtPct, fmtSymbol, typeLabel } from '../format';
import { navigate, useApi, useAsync, useRoute } from '../hooks';

type StatusFilter = 'open' | 'closed' | 'all';

function CampaignDetail({ id, currency }: { id: string; currency: string }) {
  const api = useApi();
  const detail = useAsync((signal) => api.campaign(id, signal), [api, id]);
  const data = detail.data;
  const basis = useMemo(() => {
    // Adjusted basis per share after each day's last leg that held shares.
    const byDay = new Map<string, number>();
    for (const step of data?.timeline ?? []) if (step.adjustedCostBasis !== null) byDay.set(step.date, step.adjustedCostBasis);
    return [...byDay].map(([date, value]) => ({ date, value }));
  }, [data]);
  if (detail.error) return <ErrorBanner error={detail.error} onRetry={detail.reload} />;
  if (!data) return <Loading label="Loading the campaign…" />;
  const c = data.chain;
  return (
    <div data-testid="campaign-detail">
      <div className="stats-grid">
        <Stat label="P&L" value={<Money value={c.pnl} currency={currency} />} sub={`realized ${fmtMoney(c.realizedPL, currency, true)} · dividends ${fmtMoney(c.dividends, currency)}`} />
        <Stat label="Premiums" value={fmtMoney(c.premiums, currency)} sub={`net option cash ${fmtMoney(c.netOptionCash, currency, true)}`} />
        <Stat label="Return on collateral" value={fmtPct(c.returnOnCollateral, 2)} sub={`${fmtPct(c.annualizedReturn, 1)} a year · peak ${fmtMoney(c.collateralPeak, currency)}`} />
        <Stat label="Shares" value={fmtNumber(c.sharesHeld, 0)} sub={c.adjustedCostBasis === null ? 'no shares held' : `adjusted basis ${fmtNumber(c.adjustedCostBasis, 2)}`} />
      </div>
      {basis.length > 1 && (
        <Panel title="Adjusted cost basis per share">
          <EquityChart points={basis} currency={currency} height={180} />
        </Panel>
      )}
      <Panel title={`Timeline · ${fmtCount(data.timeline.length, 'leg')}`}>
        <DataTable testId="campaign-timeline" columns={['Date', 'Leg', 'Instrument', num('Qty'), num('Cash'), num('Realized'), num('Shares'), num('Adj. basis'), num('Collateral')]}>
          {data.timeline.map((s) => (
            <tr key={s.transactionId}>
              <td className="num">{s.date}</td>
              <td>{typeLabel(s.type)}</td>
              <td>{fmtSymbol(s.symbol)}</td>
              <td className="num">{fmtNumber(s.quantity, Number.isInteger(s.quantity) ? 0 : 4)}</td>
              <td className="num">{fmtMoney(s.cash, currency, true)}</td>
              <td className="num">{s.realizedPL === 0 ? '' : <Money value={s.realizedPL} currency={currency} />}</td>
              <td className="num">{fmtNumber(s.sharesHeld, 0)}</td>
              <td className="num">{s.adjustedCostBasis === null ? '' : fmtNumber(s.adjustedCostBasis, 2)}</td>
              <td className="num">{fmtMoney(s.collateral, currency)}</td>
            </tr>
          ))}
        </DataTable>
      </Panel>
    </div>
  );
}

function CampaignRow({ c, currency, selected }: { c: CampaignJson; currency: string; selected: boolean }) {
  const open = () => navigate('campaigns', { id: c.id });
  return (
    <tr className={selected ? 'selected clickable' : 'clickable'} onClick={open} onKeyDown={(e) => e.key === 'Enter' && open()} tabIndex={0} aria-selected={selected}>
      <td>
        <strong>{c.underlying}</strong> <span className="muted small">{c.accountName}</span>
      </td>
      <td>{c.status === 'open' ? <Badge tone="info">open</Badge> : <Badge>closed</Badge>}</td>
      <td className="num">{c.openedAt}</td>
      <td className="num">{c.closedAt ?? ''}</td>
      <td className="num">{fmtInt(c.days)}</td>
      <td className="num">{fmtMoney(c.premiums, currency)}</td>
      <td className="num">
        <Money value={c.pnl} currency={currency} />
      </td>
      <td className="num">{c.unrealizedPL === null ? '' : <Money value={c.unrealizedPL} currency={currency} />}</td>
      <td className="num">{fmtMoney(c.collateralPeak, currency)}</td>
      <td className="num">{fmtPct(c.returnOnCollateral, 2)}</td>
      <td className="num">{fmtPct(c.annualizedReturn, 1)}</td>
      <td className="num">{fmtInt(c.rolls)}</td>
      <td className="num">{fmtInt(c.assignments)}</td>
    </tr>
  );
}

export function CampaignsPage() {
  const api = useApi();
  const route = useRoute();
  const selected = route.params.get('id');
  const [status, setStatus] = useState<StatusFilter>(route.params.get('status') === 'open' ? 'open' : route.params.get('status') === 'closed' ? 'closed' : 'all');
  const [accountId, setAccountId] = useState(route.params.get('accountId') ?? '');
  const [page, setPage] = useState(1);
  const result = useAsync(
    (signal) => api.campaigns({ ...(status === 'all' ? {} : { status }), ...(accountId === '' ? {} : { accountId }), page, limit: PAGE_LIMIT_CAP }, signal),
    [api, status, accountId, page],
  );
  const data = result.data;
  // A new filter starts again from the first page.
  const filterBy = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setPage(1);
  };
  return (
    <div className="page" data-testid="page-campaigns">
      <PageHead
        title="Campaigns"
        meta={data && <span className="muted small num">{fmtCount(data.pagination.total, 'campaign')}</span>}
        toolbar={
          <>
            <Segmented
              label="Status"
              value={status}
              onChange={filterBy(setStatus)}
              options={[
                { value: 'all', label: 'All' },
                { value: 'open', label: 'Open' },
                { value: 'closed', label: 'Closed' },
              ]}
            />
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={filterBy(setAccountId)} />}
          </>
        }
      />
      {result.error && <ErrorBanner error={result.error} onRetry={result.reload} />}
      {!data && !result.error && <Loading label="Loading campaigns…" />}
      {data && data.chains.length === 0 && (
        <EmptyState
          title={status === 'open' ? 'No open campaigns' : 'No campaigns yet'}
          actions={<ImportOrDemo onLoaded={result.reload} />}
        >
          A campaign runs from the first trade on an underlying until the account is flat on it again: puts sold, rolls, assigned shares, covered calls, called away.
        </EmptyState>
      )}
      {data && data.chains.length > 0 && (
        <Panel>
          <DataTable testId="campaigns-table" columns={['Underlying', 'Status', num('Opened'), num('Closed'), num('Days'), num('Premiums'), num('P&L'), num('Unrealized'), num('Peak collateral', 'Largest cost of shares held + strike × 100 × open short puts, at a day\'s close'), num('Return'), num('Annualized'), num('Rolls'), num('Assigned')]}>
            {data.chains.map((c) => (
              <CampaignRow key={c.id} c={c} currency={data.currency} selected={c.id.toLowerCase() === selected?.toLowerCase()} />
            ))}
          </DataTable>
          {data.pagination.pages > 1 && <Pager label="Campaign pages" page={page} pages={data.pagination.pages} shownPage={data.pagination.page} onPage={setPage} ends />}
        </Panel>
      )}
      {data && selected !== null && <CampaignDetail id={selected} currency={data.currency} />}
    </div>
  );
}
