/**
 * Campaigns: the wheel campaigns (flat to flat per account and underlying) with their returns; a row opens the
 * campaign on its own page (`#/campaigns/<id>`, pages/campaigns/CampaignDetail.tsx). The list's filters live in the
 * address, so the detail's back link and the browser's Back return to the same list. Conventions: docs/journal.md
 * §Campaigns; the page: docs/ui.md.
 */
import { useEffect } from 'react';
import type { CampaignJson } from '../../src-shared/api/schemas';
import { PAGE_LIMIT_CAP } from '../../src-shared/api/constants';
import { AccountSelect } from '../components/AccountSelect';
import { Pager } from '../components/Pager';
import { ImportOrDemo } from '../components/DemoButton';
import { AsyncStatus, Badge, colClass, DataTable, EmptyState, Money, num, PageFigures, PageHead, Panel, StatusSegmented } from '../components/ui';
import { fmtCount, fmtInt, fmtMoney, fmtPct } from '../format';
import { navigate, routeHash, useApi, useAsync, useRoute } from '../hooks';
import { CampaignDetail } from './campaigns/CampaignDetail';
import { AnnualizedText } from './campaigns/returns';
import { listAddressQuery, readListAddress, type ListAddress } from './list-address';

/** The list's state as it stands in the address (`#/campaigns?status=open&accountId=…&page=2&asOf=…`). */
interface ListState extends ListAddress {
  asOf: string;
}

function readList(params: URLSearchParams): ListState {
  return { ...readListAddress(params), asOf: params.get('asOf') ?? '' };
}

const listQuery = (state: ListState): Record<string, string> => listAddressQuery(state);

function CampaignRow({ c, currency, list }: { c: CampaignJson; currency: string; list: Record<string, string> }) {
  const href = routeHash('campaigns', list, c.id);
  const open = () => {
    window.location.hash = href;
  };
  return (
    <tr className="clickable" onClick={open} data-testid="campaign-row">
      <td>
        {/* A real link: keyboard, middle-click and "copy link" work; the row's click does the same. */}
        <a className="sym" href={href} onClick={(e) => e.stopPropagation()}>
          {c.underlying}
        </a>{' '}
        <span className="muted small narrow-hide">{c.accountName}</span>
      </td>
      <td>{c.status === 'open' ? <Badge tone="info">open</Badge> : <Badge>closed</Badge>}</td>
      <td className={colClass('mid', 'num')}>{c.openedAt}</td>
      <td className={colClass('lo', 'num')}>{c.closedAt ?? ''}</td>
      <td className={colClass('mid', 'num')}>{fmtInt(c.days)}</td>
      <td className={colClass('lo', 'num')}>{fmtMoney(c.premiums, currency)}</td>
      <td className="num">
        <Money value={c.pnl} currency={currency} />
      </td>
      <td className={colClass('lo', 'num')}>{c.unrealizedPL === null ? '' : <Money value={c.unrealizedPL} currency={currency} />}</td>
      <td className={colClass('lo', 'num')}>{fmtMoney(c.collateralPeak, currency)}</td>
      <td className="num">{fmtPct(c.returnOnCollateral, 2)}</td>
      <td className={colClass('mid', 'num')}>
        <AnnualizedText campaign={c} />
      </td>
      <td className={colClass('lo', 'num')}>{fmtInt(c.rolls)}</td>
      <td className={colClass('lo', 'num')}>{fmtInt(c.assignments)}</td>
    </tr>
  );
}

/**
 * Dividends paid while no campaign held the shares (docs/journal.md §Campaigns): in the Journal's dividends, in no
 * campaign's P&L; said here so that the campaigns' dividends and the Journal's are seen to differ by them.
 */
function DividendsOutside({ accountId }: { accountId: string }) {
  const api = useApi();
  const result = useAsync((signal) => api.call('GET /journal/accounts', {}, { signal }), [api]);
  const lines = (result.data?.accounts ?? [])
    .filter((a) => accountId === '' || a.id === accountId)
    .flatMap((a) => a.dividendsOutsideCampaigns.filter((d) => d.amount !== 0).map((d) => ({ key: `${a.id}|${d.currency}`, name: a.name, amount: d.amount, currency: d.currency })));
  if (lines.length === 0) return null;
  return (
    <p className="muted small pad" data-testid="dividends-outside">
      Dividends paid while no campaign held the shares (in the Journal&apos;s dividends, in no campaign):{' '}
      {lines.map((line, i) => (
        <span key={line.key}>
          {i > 0 && ' · '}
          {line.name} {fmtMoney(line.amount, line.currency)}
        </span>
      ))}
      .
    </p>
  );
}

function CampaignList({ state }: { state: ListState }) {
  const api = useApi();
  const { status, accountId, page, asOf } = state;
  const result = useAsync(
    (signal) => api.call('GET /journal/chains', { query: { ...(status === 'all' ? {} : { status }), ...(accountId === '' ? {} : { accountId }), ...(asOf === '' ? {} : { asOf }), page, limit: PAGE_LIMIT_CAP } }, { signal }),
    [api, status, accountId, page, asOf],
  );
  const data = result.data;
  // A new filter starts again from the first page.
  const go = (next: Partial<ListState>) => navigate('campaigns', listQuery({ ...state, page: 1, ...next }));
  const list = listQuery(state);
  return (
    <div className="page" data-testid="page-campaigns">
      <PageHead
        title="Campaigns"
        meta={
          data && (
            <PageFigures>
              {fmtCount(data.pagination.total, 'campaign')}
              {asOf !== '' && <> · as of {asOf}</>}
            </PageFigures>
          )
        }
        toolbar={
          <>
            <StatusSegmented value={status} onChange={(value) => go({ status: value })} />
            {asOf !== '' && (
              <button type="button" className="btn btn-small" onClick={() => go({ asOf: '' })} title="The campaigns as they stand now">
                Now
              </button>
            )}
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={(value) => go({ accountId: value })} />}
          </>
        }
      />
      <AsyncStatus state={result} label="Loading campaigns…" />
      {data && data.chains.length === 0 && (
        <EmptyState title={status === 'open' ? 'No open campaigns' : 'No campaigns yet'} actions={<ImportOrDemo onLoaded={result.reload} />}>
          A campaign runs from the first trade on an underlying until the account is flat on it again: puts sold, rolls, assigned shares, covered calls, called away.
        </EmptyState>
      )}
      {data && data.chains.length > 0 && (
        <Panel>
          <DataTable
            testId="campaigns-table"
            columns={[
              'Underlying',
              'Status',
              num('Opened', undefined, 'mid'),
              num('Closed', undefined, 'lo'),
              num('Days', undefined, 'mid'),
              num('Premiums', undefined, 'lo'),
              num('P&L'),
              num('Unrealized', undefined, 'lo'),
              num('Peak collateral', "The largest collateral at a day's close: shares at cost, spreads at their width, short puts at strike × 100, naked calls Reg T (the rule of Trades and Positions)", 'lo'),
              num('Return'),
              num('Annualized', 'Return × 365 / days; not shown for campaigns under 7 days', 'mid'),
              num('Rolls', undefined, 'lo'),
              num('Assigned', undefined, 'lo'),
            ]}
          >
            {data.chains.map((c) => (
              <CampaignRow key={c.id} c={c} currency={data.currency} list={list} />
            ))}
          </DataTable>
          {data.pagination.pages > 1 && <Pager label="Campaign pages" page={page} pages={data.pagination.pages} shownPage={data.pagination.page} onPage={(p) => navigate('campaigns', listQuery({ ...state, page: p }))} ends />}
        </Panel>
      )}
      {data && asOf === '' && <DividendsOutside accountId={accountId} />}
    </div>
  );
}

export function CampaignsPage() {
  const route = useRoute();
  const state = readList(route.params);
  const legacyId = route.path === null ? route.params.get('id') : null;
  // The detail's old address (`#/campaigns?id=…`, in bookmarks) moves to its own page without a history entry.
  useEffect(() => {
    if (legacyId !== null) {
      const rest = new URLSearchParams(route.params);
      rest.delete('id');
      window.location.replace(routeHash('campaigns', Object.fromEntries(rest), legacyId));
    }
  }, [legacyId]);
  if (route.path !== null) return <CampaignDetail id={route.path} listQuery={listQuery(state)} />;
  return <CampaignList state={state} />;
}
