/**
 * Trades: the legs of one underlying opened together and managed until flat (docs/journal.md §Trades and strategies),
 * newest opened first, filtered by strategy, status and tag; a row opens its detail (legs, entry on the dealers' map,
 * note and tags). Filters and the open trade live in the address (`#/trades?status=closed&trade=<id>`). docs/ui.md.
 */
import type { TradeJson } from '../../../src-shared/api/schemas';
import { PAGE_LIMIT_CAP } from '../../../src-shared/api/constants';
import { AccountSelect } from '../../components/AccountSelect';
import { ImportOrDemo } from '../../components/DemoButton';
import { Pager } from '../../components/Pager';
import { AsyncStatus, Badge, colClass, DataTable, EmptyState, InlineForm, Money, num, PageFigures, PageHead, Panel, StatusSegmented } from '../../components/ui';
import { fmtCount, fmtDte, fmtInt, fmtMoney, fmtNumber, fmtPct } from '../../format';
import { navigate, useApi, useAsync, useReloadWhileBuilding, useRoute } from '../../hooks';
import { OUTCOME_LABELS, STRATEGY_CODES, STRATEGY_LABELS, type StrategyCode } from './labels';
import { TradeDetail } from './TradeDetail';
import { listAddressQuery, readListAddress, type ListAddress } from '../list-address';
import { LevelsScopeControl, readLevelsScope } from '../../components/LevelsScope';

/** The list's state as it stands in the address (`#/trades?status=closed&strategy=iron_condor&tag=…&trade=…`). */
interface ListState extends ListAddress {
  strategy: StrategyCode | '';
  tag: string;
  /** The trade whose detail is open. */
  trade: string;
  /** The levels at entry (docs/journal.md §Levels scope): '' = own, the default. */
  levels: '' | 'nearest' | 'book';
}

function readList(params: URLSearchParams): ListState {
  const strategy = params.get('strategy') ?? '';
  return {
    ...readListAddress(params),
    strategy: (STRATEGY_CODES as string[]).includes(strategy) ? (strategy as StrategyCode) : '',
    tag: params.get('tag') ?? '',
    trade: params.get('trade') ?? '',
    levels: ((scope) => (scope === 'own' ? '' : scope))(readLevelsScope(params.get('levels'))),
  };
}

const listQuery = (state: ListState): Record<string, string> => listAddressQuery(state);

/** The P&L a row shows: realized, plus the marks' unrealized while open; an open trade without a mark has none (its realized part alone is no total). */
const shownPnl = (t: TradeJson): number | null => (t.pnl === null || (t.status === 'open' && t.unrealizedPL === null) ? null : t.pnl + (t.unrealizedPL ?? 0));

const UNKNOWN_TITLE = 'Opened before the imported history: its credit, risk and collateral are unknown';

/** A money figure of the list: "unknown" for a trade opened before the history, `none` (∞ for an unbounded loss) when null. */
function Figure({ t, value, currency, none = '' }: { t: TradeJson; value: number | null; currency: string; none?: string }) {
  if (t.openedBeforeHistory) {
    return (
      <span className="muted" title={UNKNOWN_TITLE}>
        unknown
      </span>
    );
  }
  return <>{value === null ? none : fmtMoney(value, currency)}</>;
}

/** "Options +2,951.40 · shares −11,025.26": an assigned or exercised trade's P&L in the broker statement's two parts. */
function pnlParts(t: TradeJson, currency: string): string | undefined {
  if (t.pnl === null || t.optionPL === null || t.pnl === t.optionPL) return undefined;
  return `Options ${fmtMoney(t.optionPL, currency, true)} · shares ${fmtMoney(t.pnl - t.optionPL, currency, true)} (the broker statement's option P&L is the first)`;
}

function TradeRow({ t, currency, selected, onOpen }: { t: TradeJson; currency: string; selected: boolean; onOpen: () => void }) {
  const pnl = shownPnl(t);
  const parts = pnlParts(t, currency);
  return (
    <tr className={`clickable ${selected ? 'selected' : ''}`} onClick={onOpen} data-testid="trade-row" data-trade-id={t.id} aria-selected={selected}>
      <td className="trade-what">
        <button type="button" className="linklike" onClick={(e) => (e.stopPropagation(), onOpen())}>
          {STRATEGY_LABELS[t.strategy]}
        </button>{' '}
        {t.rolls > 0 && (
          <span className="muted small" title={`Rolled ${t.rolls} time${t.rolls === 1 ? '' : 's'}: max profit counts every credit less the debits paid to roll`}>
            ↻{t.rolls}{' '}
          </span>
        )}
        {t.status === 'open' && <Badge tone="info">open</Badge>}
        {(t.outcome === 'assigned' || t.outcome === 'exercised') && (
          <Badge tone={t.pnl !== null && t.pnl <= 0 ? 'warn' : 'neutral'} {...(parts === undefined ? {} : { title: parts })}>
            {OUTCOME_LABELS[t.outcome].toLowerCase()}
          </Badge>
        )}
        {t.tags.length > 0 && <span className="muted small narrow-hide"> #{t.tags.join(' #')}</span>}
      </td>
      <td className="sym">{t.underlying}</td>
      <td className={colClass('mid', 'num')}>{t.openedAt === null ? 'before history' : t.openedAt.slice(0, 10)}</td>
      <td className={colClass('lo', 'num')}>{fmtDte(t.dteAtEntry)}</td>
      <td className={colClass('lo', 'num')}>{t.deltaAtEntry === null ? '' : fmtNumber(t.deltaAtEntry, 2)}</td>
      <td className={colClass('lo', 'num')}>
        <Figure t={t} value={t.credit} currency={currency} />
      </td>
      <td className={colClass('lo', 'num')}>
        <Figure t={t} value={t.maxProfit} currency={currency} none="—" />
      </td>
      <td className={colClass('lo', 'num')} title={!t.openedBeforeHistory && t.maxLoss === null ? 'Unbounded: a naked short call or short shares' : undefined}>
        <Figure t={t} value={t.maxLoss} currency={currency} none="∞" />
      </td>
      <td className={colClass('lo', 'num')} title={t.collateralRule ?? undefined}>
        <Figure t={t} value={t.collateral} currency={currency} />
      </td>
      <td className="num" title={t.status === 'open' && t.unrealizedPL === null ? `No fresh mark of the open legs: realized so far ${t.pnl === null ? '—' : fmtMoney(t.pnl, currency, true)}` : parts} data-testid="trade-pnl">
        {pnl === null ? '—' : <Money value={pnl} currency={currency} />}
        {t.status === 'open' && t.unrealizedPL === null && <span className="muted small narrow-hide"> unmarked</span>}
      </td>
      <td className={colClass('mid', 'num')}>{fmtPct(t.pctOfMaxProfit, 0)}</td>
      <td className={colClass('mid', 'num')}>{fmtPct(t.returnOnCollateral, 1)}</td>
      <td className={colClass('lo', 'num')}>{t.daysHeld === null ? '' : fmtInt(t.daysHeld)}</td>
    </tr>
  );
}

export function TradesPage() {
  const api = useApi();
  const route = useRoute();
  const state = readList(route.params);
  const { status, strategy, tag, accountId, page, levels } = state;
  const result = useAsync(
    (signal) =>
      api.call(
        'GET /journal/trades',
        {
          query: {
            ...(status === 'all' ? {} : { status }),
            ...(strategy === '' ? {} : { strategy }),
            ...(tag === '' ? {} : { tag }),
            ...(accountId === '' ? {} : { accountId }),
            ...(levels === '' ? {} : { levelsScope: levels }),
            page,
            limit: PAGE_LIMIT_CAP,
          },
        },
        { signal },
      ),
    [api, status, strategy, tag, accountId, page, levels],
  );
  const data = result.data;
  useReloadWhileBuilding(data?.building === true, result.reload);
  const go = (next: Partial<ListState>) => navigate('trades', listQuery({ ...state, page: 1, trade: '', ...next }));
  // A trade named in the address but not on this page (Today links to any open trade): read on its own.
  const onPage = data?.trades.find((t) => t.id === state.trade) ?? null;
  const away = state.trade !== '' && data !== undefined && onPage === null;
  const fetched = useAsync((signal) => (away ? api.call('GET /journal/trades/{id}', { params: { id: state.trade }, query: levels === '' ? {} : { levelsScope: levels } }, { signal }) : Promise.resolve(null)), [api, state.trade, away, levels]);
  const selected = onPage ?? (away && fetched.data?.trade.id === state.trade ? fetched.data.trade : null);
  const showRolls = route.params.get('rolls') === '1';
  return (
    <div className="page" data-testid="page-trades">
      <PageHead
        title="Trades"
        meta={data && <PageFigures building={data.building}>{fmtCount(data.pagination.total, 'trade')}</PageFigures>}
        toolbar={
          <>
            <StatusSegmented value={status} onChange={(value) => go({ status: value })} />
            <label className="field-inline">
              Strategy
              <select value={strategy} onChange={(e) => go({ strategy: e.target.value === '' ? '' : (e.target.value as StrategyCode) })} data-testid="strategy-filter">
                <option value="">All</option>
                {STRATEGY_CODES.map((code) => (
                  <option key={code} value={code}>
                    {STRATEGY_LABELS[code]}
                  </option>
                ))}
              </select>
            </label>
            <InlineForm
              onSubmit={(fields) => {
                const value = fields.get('tag');
                go({ tag: typeof value === 'string' ? value.trim() : '' });
              }}
            >
              <label className="field-inline">
                Tag
                <input key={tag} name="tag" type="search" defaultValue={tag} maxLength={40} size={10} placeholder="any" data-testid="tag-filter" />
              </label>
            </InlineForm>
            {data && <AccountSelect accounts={data.accounts} value={accountId} onChange={(value) => go({ accountId: value })} />}
            <LevelsScopeControl value={levels === '' ? 'own' : levels} onChange={(value) => navigate('trades', listQuery({ ...state, levels: value === 'own' ? '' : value }))} />
          </>
        }
      />
      <AsyncStatus state={result} label="Loading trades…" />
      {data && data.trades.length === 0 && (
        <EmptyState title={status === 'all' && strategy === '' && tag === '' ? 'No trades yet' : 'No trades match'} actions={status === 'all' && strategy === '' && tag === '' ? <ImportOrDemo onLoaded={result.reload} /> : undefined}>
          A trade is the legs of one underlying opened together and managed together until flat: a short put, a spread, an iron condor with its rolls.
        </EmptyState>
      )}
      {away && fetched.error && <p className="alert alert-error">Trade {state.trade}: {fetched.error.message}</p>}
      {selected && (
        <TradeDetail
          trade={selected}
          currency={data?.currency ?? 'USD'}
          levelsScope={levels === '' ? 'own' : levels}
          showRolls={showRolls}
          onClose={() => navigate('trades', listQuery({ ...state, trade: '' }))}
          onSaved={() => {
            result.reload();
            fetched.reload();
          }}
        />
      )}
      {data && data.trades.length > 0 && (
        <Panel>
          <DataTable
            testId="trades-table"
            columns={[
              'Strategy',
              'Underlying',
              num('Opened', undefined, 'mid'),
              num('DTE', 'Days to the nearest expiration at entry', 'lo'),
              num('Δ', "The main leg's delta at entry", 'lo'),
              num('Credit', 'Net cash at open (+ credit)', 'lo'),
              num('Max profit', 'Every credit of the trade (rolls and calls sold against its shares) less the debits paid to roll', 'lo'),
              num('Max loss', 'The largest risk it held less those credits; ∞ only for a naked call or short shares', 'lo'),
              num('Collateral', 'Spreads at their width, short puts at the strike, shares at cost, naked calls Reg T: the figure of Campaigns and Positions', 'lo'),
              num('P&L', 'Realized, plus unrealized from the marks while open; an assigned trade’s includes its shares'),
              num('% of max', undefined, 'mid'),
              num('ROC', 'Return on collateral', 'mid'),
              num('Days', undefined, 'lo'),
            ]}
          >
            {data.trades.map((t) => (
              <TradeRow key={t.id} t={t} currency={data.currency} selected={t.id === state.trade} onOpen={() => navigate('trades', listQuery({ ...state, trade: t.id }))} />
            ))}
          </DataTable>
          {data.pagination.pages > 1 && <Pager label="Trade pages" page={page} pages={data.pagination.pages} shownPage={data.pagination.page} onPage={(p) => navigate('trades', listQuery({ ...state, page: p, trade: '' }))} ends />}
        </Panel>
      )}
    </div>
  );
}
