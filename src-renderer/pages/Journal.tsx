import { useMemo, useState } from 'react';
import type { Period, SummaryResponseT } from '../../src-shared/api/schemas';
import { AccountSelect } from '../components/AccountSelect';
import { ImportOrDemo } from '../components/DemoButton';
import { EquityChart, MonthlyBars } from '../components/charts';
import { PnlCalendar, usesYearStrips } from '../components/PnlCalendar';
import { DemoBadge, EmptyState, UpdatingNote, ErrorBanner, InlineForm, Loading, Money, PageHead, Panel, Segmented, Stat } from '../components/ui';
import { addDays, addMonths } from '../../src-shared/calendar';
import { dateInTimeZone, fmtCount, fmtInt, fmtMoney, fmtPct, fmtRange, monthTitle, signClass, typeLabel } from '../format';
import { StrategyReport } from './trades/StrategyReport';
import { STATEMENT_VIEW_NOTE } from './trades/labels';
import { navigate, useApi, useAsync, useReloadWhileBuilding } from '../hooks';

type PeriodMode = 'weekly' | 'monthly' | 'custom';

const MODES = [
  { value: 'weekly', label: 'Week' },
  { value: 'monthly', label: 'Month' },
  { value: 'custom', label: 'Custom' },
] as const;

function SummaryCards({ period, currency }: { period: Period; currency: string }) {
  const s = period.summary;
  return (
    <div className="stats-grid stats-grid-8" data-testid="summary-cards">
      <Stat
        label="Realized P&L"
        value={<Money value={s.realizedPL} currency={currency} />}
        sub={s.unmatched.closes > 0 ? `${fmtCount(s.unmatched.closes, 'close')} without an opening: P&L unknown` : <>Options {fmtMoney(s.optionsPL, currency, true)}</>}
        title={s.unmatched.closes > 0 ? 'Closes, sales or settlements of positions opened before the imported history: their P&L is left out until an opening position is entered (Positions page)' : STATEMENT_VIEW_NOTE}
        testId="realized-card"
      />
      <Stat
        label="Total P&L"
        value={<Money value={s.totalPL} currency={currency} />}
        sub={s.marksAvailable ? 'incl. unrealized' : 'incl. dividends, fees'}
        title="Realized P&L + dividends + interest − standalone fees"
      />
      <Stat label="Premiums collected" value={<Money value={s.premiumsCollected} currency={currency} signed={false} colored={false} />} sub="sell-to-open credits" />
      <Stat label="Locked-in premiums" value={<Money value={s.lockedInPremiums} currency={currency} />} sub="short options closed" title="Realized P&L of short option lots closed in the period" />
      <Stat label="Rolls" value={fmtInt(s.rolls)} sub={<>credits <Money value={s.rollCredits} currency={currency} /></>} />
      <Stat label="Dividends" value={<Money value={s.dividends} currency={currency} />} sub={s.interest !== 0 ? <>interest {fmtMoney(s.interest, currency, true)}</> : 'net of withholding'} />
      <Stat label="Stock P&L" value={<Money value={s.stockPL} currency={currency} />} sub={fmtCount(s.trades, 'trade')} />
      <Stat
        label="Commissions"
        value={<Money value={-s.commissions} currency={currency} />}
        sub={<>fees {fmtMoney(-Math.abs(s.fees), currency, true)}</>}
        title="Commission and fees charged on trades (already inside realized P&L once a position closes); fees are standalone fee rows"
        testId="commissions-card"
      />
    </div>
  );
}

function BySymbolTable({ rows, currency }: { rows: Period['breakdown']['bySymbol']; currency: string }) {
  const [sortKey, setSortKey] = useState<'symbol' | 'pl' | 'premiumsCollected' | 'trades'>('pl');
  const sorted = useMemo(() => {
    const list = [...rows];
    list.sort((a, b) => (sortKey === 'symbol' ? a.symbol.localeCompare(b.symbol) : Math.abs(b[sortKey]) - Math.abs(a[sortKey]) || a.symbol.localeCompare(b.symbol)));
    return list;
  }, [rows, sortKey]);
  if (rows.length === 0) return <p className="muted pad">No activity in this period.</p>;
  const header = (key: typeof sortKey, label: string, numeric = true) => (
    <th className={numeric ? 'num' : ''} aria-sort={sortKey === key ? (key === 'symbol' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="th-button" onClick={() => setSortKey(key)}>
        {label}
      </button>
    </th>
  );
  return (
    <div className="table-wrap">
      <table className="table table-tight" data-testid="by-symbol">
        <thead>
          <tr>
            {header('symbol', 'Symbol', false)}
            {header('pl', 'Total P&L')}
            <th className="num" title={STATEMENT_VIEW_NOTE}>
              Options
            </th>
            <th className="num" title={STATEMENT_VIEW_NOTE}>
              Stock
            </th>
            {header('premiumsCollected', 'Premiums')}
            <th className="num">Div.</th>
            <th className="num">Rolls</th>
            {header('trades', 'Trades')}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.symbol}>
              <td>
                <a href={`#/transactions?symbol=${encodeURIComponent(row.symbol)}`} className="sym">
                  {row.symbol}
                </a>
              </td>
              <td className="num">
                <Money value={row.pl} currency={currency} />
              </td>
              <td className={`num ${signClass(row.optionsPL)}`}>{fmtMoney(row.optionsPL, currency, true)}</td>
              <td className={`num ${signClass(row.stockPL)}`}>{fmtMoney(row.stockPL, currency, true)}</td>
              <td className="num">{fmtMoney(row.premiumsCollected, currency)}</td>
              <td className="num">{row.dividends === 0 ? '—' : fmtMoney(row.dividends, currency)}</td>
              <td className="num">{row.rolls === 0 ? '—' : fmtInt(row.rolls)}</td>
              <td className="num">{fmtInt(row.trades)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function YearView({ summary, accountId }: { summary: SummaryResponseT; accountId: string }) {
  const s = summary.stats;
  // The summary's `open` counts what is open at the end of its year: now, for the current year (docs/journal.md).
  const pastYear = summary.year < Number(dateInTimeZone(Date.now()).slice(0, 4));
  const c = summary.currency;
  const equity = useMemo(() => s.equity.series.map((p) => ({ date: p.date, value: p.equity })), [s.equity.series]);
  const types = Object.entries(s.tradesByType)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const maxType = Math.max(1, ...types.map(([, n]) => n));
  return (
    <>
      <div className="stats-grid" data-testid="year-stats">
        <Stat label="Total P&L" value={<Money value={s.totalPL} currency={c} />} sub={<>realized {fmtMoney(s.totalRealizedPnl, c, true)}</>} />
        <Stat label="Premium collected" value={fmtMoney(s.totalPremium, c)} sub={<>locked in {fmtMoney(s.lockedInPremiums, c, true)}</>} />
        <Stat
          label="Win rate"
          value={fmtPct(s.chains.winRate)}
          sub={`${fmtInt(s.chains.wins)} W · ${fmtInt(s.chains.losses)} L · ${fmtInt(s.chains.closed)} closed`}
          title="Closed chains (flat to flat per account and underlying) with P&L > 0"
        />
        <Stat
          label="Chains"
          value={fmtInt(s.chains.opened)}
          title={`Campaigns opened in ${summary.year}; the open ones are all those still open ${pastYear ? `on 31 December ${summary.year}` : 'now'}, whichever year they opened`}
          sub={
            <>
              opened · {fmtInt(s.chains.closed)} closed ·{' '}
              <button
                type="button"
                className="btn-link"
                data-testid="open-chains"
                onClick={() => navigate('campaigns', { status: 'open', ...(accountId === '' ? {} : { accountId }), ...(pastYear ? { asOf: `${summary.year}-12-31` } : {}) })}
              >
                {fmtInt(s.chains.open)} open {pastYear ? 'on 31 Dec' : 'now'}
              </button>
            </>
          }
        />
        <Stat label="Expired options" value={fmtInt(s.expiredOptions)} sub={fmtCount(s.expiredContracts, 'contract')} />
        <Stat label="Rolls" value={fmtInt(s.rolls)} sub={`${fmtInt(s.assignments)} assigned · ${fmtCount(s.trades, 'trade')}`} />
        <Stat label="Max drawdown" value={<span className={s.equity.maxDrawdown > 0 ? 'neg' : ''}>{fmtMoney(-s.equity.maxDrawdown, c)}</span>} sub="peak to trough" />
      </div>
      <div className="grid-2-1">
        <Panel title="Equity curve" actions={<span className="muted small">cumulative P&L, {summary.year}</span>}>
          {equity.length > 1 ? <EquityChart points={equity} currency={c} /> : <p className="muted pad">Not enough days with P&L in {summary.year} to draw a curve.</p>}
        </Panel>
        <Panel title="Trading days">
          <dl className="kv">
            <dt>Active days</dt>
            <dd className="num">{fmtInt(s.tradingDays.active)}</dd>
            <dt>Winning / losing</dt>
            <dd className="num">
              <span className="pos">{fmtInt(s.tradingDays.winning)}</span> / <span className="neg">{fmtInt(s.tradingDays.losing)}</span>
            </dd>
            <dt>Day win rate</dt>
            <dd className="num">{s.tradingDays.winning + s.tradingDays.losing > 0 ? fmtPct(s.tradingDays.winning / (s.tradingDays.winning + s.tradingDays.losing)) : '—'}</dd>
            <dt>Best day</dt>
            <dd className="num">{s.tradingDays.bestDay ? <><Money value={s.tradingDays.bestDay.pl} currency={c} /> <span className="muted small">{s.tradingDays.bestDay.date}</span></> : '—'}</dd>
            <dt>Worst day</dt>
            <dd className="num">{s.tradingDays.worstDay ? <><Money value={s.tradingDays.worstDay.pl} currency={c} /> <span className="muted small">{s.tradingDays.worstDay.date}</span></> : '—'}</dd>
            <dt title={STATEMENT_VIEW_NOTE}>Options / stock (statement view)</dt>
            <dd className="num">
              <Money value={s.optionsPL} currency={c} /> / <Money value={s.stockPL} currency={c} />
            </dd>
            <dt>Dividends / fees</dt>
            <dd className="num">
              <Money value={s.dividends} currency={c} /> / <Money value={-Math.abs(s.fees)} currency={c} />
            </dd>
            <dt title="Commission and fees charged on trades (inside realized P&L once a position closes)">Commissions</dt>
            <dd className="num" data-testid="year-commissions">
              <Money value={-s.commissions} currency={c} />
            </dd>
          </dl>
        </Panel>
      </div>
      <div className="grid-2-1">
        <Panel title="Monthly P&L">
          {summary.chartData.monthly.length > 0 ? <MonthlyBars months={summary.chartData.monthly} currency={c} /> : <p className="muted pad">No monthly P&L yet.</p>}
        </Panel>
        <Panel title="Trades by type">
          {types.length === 0 ? (
            <p className="muted pad">No trades in {summary.year}.</p>
          ) : (
            <ul className="bars" data-testid="trades-by-type">
              {types.map(([type, n]) => (
                <li key={type}>
                  <span className="bar-label">{typeLabel(type)}</span>
                  <span className="bar-track">
                    <span className="bar-fill" style={{ width: `${(100 * n) / maxType}%` }} />
                  </span>
                  <span className="num bar-value">{fmtInt(n)}</span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}

export function JournalPage() {
  const api = useApi();
  const [mode, setMode] = useState<PeriodMode>('monthly');
  const [date, setDate] = useState(() => dateInTimeZone(Date.now()));
  const [custom, setCustom] = useState(() => ({ from: addMonths(dateInTimeZone(Date.now()), -3), to: dateInTimeZone(Date.now()) }));
  const [draft, setDraft] = useState(custom);
  const [year, setYear] = useState(() => Number(dateInTimeZone(Date.now()).slice(0, 4)));
  const [accountId, setAccountId] = useState('');
  const account = accountId === '' ? {} : { accountId };

  const perf = useAsync(
    (signal) => (mode === 'custom' ? api.call('GET /journal/performance', { query: { from: custom.from, to: custom.to, ...account } }, { signal }) : api.call('GET /journal/performance', { query: { period: mode, date, ...account } }, { signal })),
    [api, mode, date, custom, accountId],
  );
  const summary = useAsync((signal) => api.call('GET /journal/summary', { query: { year, accountId: accountId === '' ? undefined : accountId } }, { signal }), [api, year, accountId]);
  const latest = useAsync((signal) => api.call('GET /journal/transactions', { query: { limit: 1 } }, { signal }), [api]);

  const reloadAll = () => {
    perf.reload();
    summary.reload();
    latest.reload();
  };

  // A journal being rebuilt answers the figures from before the change: asked again until the new ones come.
  useReloadWhileBuilding(perf.data?.building === true, perf.reload);
  useReloadWhileBuilding(summary.data?.building === true, summary.reload);

  if (perf.error && !perf.data) return <ErrorBanner error={perf.error} onRetry={perf.reload} />;
  if (!perf.data) return <Loading label="Loading journal…" />;

  const data = perf.data;
  const current: Period = mode === 'custom' ? (data.custom ?? data.monthly) : mode === 'weekly' ? data.weekly : data.monthly;
  const currency = current.currency;
  const journalEmpty = latest.data !== undefined && latest.data.pagination.total === 0;
  const latestDay = latest.data?.transactions[0]?.tradeDay;

  const step = (direction: 1 | -1) => setDate((d) => (mode === 'weekly' ? addDays(d, 7 * direction) : addMonths(d, direction)));
  const title = mode === 'monthly' ? monthTitle(current.from) : fmtRange(current.from, current.to);

  return (
    <div className="page" data-testid="page-journal">
      <PageHead
        title="Journal"
        meta={
          <>
            {data.demo && <DemoBadge />}
            {(data.building || summary.data?.building === true) && <UpdatingNote />}
            {data.accounts.length === 1 && <span className="muted small">{data.accounts.map((a) => a.name).join(' · ')}</span>}
            <AccountSelect accounts={data.accounts} value={accountId} onChange={setAccountId} />
          </>
        }
        toolbar={
          <>
            <Segmented label="Period" value={mode} options={MODES} onChange={setMode} />
            {mode !== 'custom' ? (
              <div className="stepper" role="group" aria-label="Move period">
                <button type="button" className="btn btn-icon" onClick={() => step(-1)} aria-label={`Previous ${mode === 'weekly' ? 'week' : 'month'}`}>
                  ‹
                </button>
                <span className="stepper-label" aria-live="polite">
                  {title}
                </span>
                <button type="button" className="btn btn-icon" onClick={() => step(1)} aria-label={`Next ${mode === 'weekly' ? 'week' : 'month'}`}>
                  ›
                </button>
                <button type="button" className="btn btn-small" onClick={() => setDate(dateInTimeZone(Date.now()))}>
                  Today
                </button>
              </div>
            ) : (
              <InlineForm
                onSubmit={() => {
                  if (draft.from <= draft.to) setCustom(draft);
                }}
              >
                <label className="field-inline">
                  From
                  <input type="date" value={draft.from} max={draft.to} onChange={(e) => setDraft({ ...draft, from: e.target.value })} required />
                </label>
                <label className="field-inline">
                  To
                  <input type="date" value={draft.to} min={draft.from} onChange={(e) => setDraft({ ...draft, to: e.target.value })} required />
                </label>
                <button type="submit" className="btn btn-small">
                  Apply
                </button>
              </InlineForm>
            )}
          </>
        }
      />

      {journalEmpty ? (
        <EmptyState
          title="Your journal is empty"
          actions={<ImportOrDemo onLoaded={reloadAll} />}
        >
          Export your transaction history from tastytrade, Schwab/thinkorswim, Interactive Brokers, Fidelity, Robinhood, E*TRADE or Webull as CSV and drop it on the Import page.
          Or load the demo wheel journal to look around.
        </EmptyState>
      ) : (
        <>
          {perf.error && <ErrorBanner error={perf.error} onRetry={perf.reload} />}
          {current.summary.trades === 0 && current.breakdown.byDay.length === 0 && latestDay !== undefined && latestDay < current.from && (
            <div className="alert alert-info">
              No trades between {current.from} and {current.to}. Your latest trade is on {latestDay}.{' '}
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  setMode(mode === 'custom' ? 'monthly' : mode);
                  setDate(latestDay);
                  setYear(Number(latestDay.slice(0, 4)));
                }}
              >
                Jump to {latestDay}
              </button>
            </div>
          )}
          <SummaryCards period={current} currency={currency} />
          {Object.keys(current.byCurrency).length > 0 && (
            <p className="muted small">
              Other currencies (not included above):{' '}
              {Object.entries(current.byCurrency)
                .map(([cur, sum]) => `${cur} ${fmtMoney(sum.totalPL, cur, true)}`)
                .join(' · ')}
            </p>
          )}
          {/* A multi-year strip needs the full width; a month calendar shares the row with the by-symbol table. */}
          <div className={usesYearStrips(data.calendar) ? 'journal-stack' : 'journal-split'}>
            <Panel title="Daily P&L" actions={<span className="muted small">{fmtRange(data.calendar.from, data.calendar.to)}</span>}>
              <PnlCalendar calendar={data.calendar} currency={currency} weekly={mode === 'weekly'} />
            </Panel>
            <Panel title="By symbol" actions={<span className="muted small">{fmtCount(current.breakdown.bySymbol.length, 'symbol')}</span>}>
              <BySymbolTable rows={current.breakdown.bySymbol} currency={currency} />
            </Panel>
          </div>

          <header className="section-head">
            <h2>Year {year}</h2>
            <div className="stepper" role="group" aria-label="Year">
              <button type="button" className="btn btn-icon" onClick={() => setYear((y) => y - 1)} aria-label="Previous year">
                ‹
              </button>
              <span className="stepper-label num">{year}</span>
              <button type="button" className="btn btn-icon" onClick={() => setYear((y) => y + 1)} aria-label="Next year">
                ›
              </button>
            </div>
          </header>
          {summary.error && <ErrorBanner error={summary.error} onRetry={summary.reload} />}
          {summary.data ? <YearView summary={summary.data} accountId={accountId} /> : !summary.error && <Loading label="Loading year…" />}
          <StrategyReport accountId={accountId} />
        </>
      )}
    </div>
  );
}
