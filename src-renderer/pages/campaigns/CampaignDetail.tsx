/**
 * One campaign on its own page, `#/campaigns/<id>` (issue 18: the detail used to render below a 100-row table, where
 * nobody saw it): a back link to the list it came from, its figures, the adjusted basis per share over the days that
 * held shares, and the timeline of its legs. Deep-linkable; the browser's Back works too.
 */
import { useEffect, useMemo, useRef } from 'react';
import { createChart, LineSeries, type Time } from 'lightweight-charts';
import { fixedOptions, useChart } from '../../components/charts';
import { Badge, colClass, DataTable, ErrorBanner, Loading, Money, num, PageHead, Panel, Stat } from '../../components/ui';
import { fmtCount, fmtMoney, fmtNumber, fmtPct, fmtQuantity, fmtSymbol, typeLabel } from '../../format';
import { routeHash, useApi, useAsync } from '../../hooks';
import { basisAxisLabel } from './figures';
import { AnnualizedText } from './returns';
import { CampaignNote } from '../trades/AnnotationEditor';

/** The adjusted basis per share by day, on an axis labelled to the cent (figures.ts basisAxisLabel). */
function BasisChart({ points, currency }: { points: ReadonlyArray<{ date: string; value: number }>; currency: string }) {
  const ref = useChart(
    (container, palette) => {
      const fixed = fixedOptions(palette);
      const chart = createChart(container, {
        ...fixed,
        localization: { priceFormatter: (value: number) => basisAxisLabel(value, currency) },
        timeScale: { ...fixed.timeScale, lockVisibleTimeRangeOnResize: true },
      });
      const series = chart.addSeries(LineSeries, { color: palette.accent, lineWidth: 2, priceLineVisible: false, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
      series.setData(points.map((p) => ({ time: p.date as Time, value: p.value })));
      chart.timeScale().fitContent();
      return chart;
    },
    [points, currency],
  );
  return <div className="chart" ref={ref} style={{ height: 180 }} role="img" aria-label="Adjusted cost basis per share by day" data-testid="basis-chart" />;
}

export function CampaignDetail({ id, listQuery }: { id: string; listQuery: Record<string, string> }) {
  const api = useApi();
  const detail = useAsync((signal) => api.call('GET /journal/chains/{id}', { params: { id } }, { signal }), [api, id]);
  const data = detail.data;
  const heading = useRef<HTMLHeadingElement>(null);
  const basis = useMemo(() => {
    // Adjusted basis per share after each day's last leg that held shares.
    const byDay = new Map<string, number>();
    for (const step of data?.timeline ?? []) if (step.adjustedCostBasis !== null) byDay.set(step.date, step.adjustedCostBasis);
    return [...byDay].map(([date, value]) => ({ date, value }));
  }, [data]);
  // The detail opens where the user looks: at the top, its title focused for keyboard and screen-reader users.
  useEffect(() => {
    window.scrollTo(0, 0);
    heading.current?.focus();
  }, [id, data !== undefined]);
  const back = (
    <a className="btn btn-small" href={routeHash('campaigns', listQuery)} data-testid="campaign-back">
      ‹ All campaigns
    </a>
  );
  if (detail.error) {
    return (
      <div className="page" data-testid="page-campaigns">
        <PageHead title="Campaign" toolbar={back} />
        <ErrorBanner error={detail.error} onRetry={detail.reload} />
      </div>
    );
  }
  if (!data) {
    return (
      <div className="page" data-testid="page-campaigns">
        <PageHead title="Campaign" toolbar={back} />
        <Loading label="Loading the campaign…" />
      </div>
    );
  }
  const c = data.chain;
  const currency = c.currency;
  return (
    <div className="page" data-testid="page-campaigns">
      <header className="page-head">
        <div className="page-title">
          <h1 ref={heading} tabIndex={-1} data-testid="campaign-title">
            {c.underlying} campaign
          </h1>
          {c.status === 'open' ? <Badge tone="info">open</Badge> : <Badge>closed</Badge>}
          <span className="muted small">
            {c.accountName} · {c.openedAt} → {c.closedAt ?? 'now'} · {fmtCount(c.days, 'day')}
          </span>
        </div>
        <div className="toolbar">{back}</div>
      </header>
      <div className="page-section" data-testid="campaign-detail">
        <div className="stats-grid">
          <Stat label="P&L" value={<Money value={c.pnl} currency={currency} />} sub={`realized ${fmtMoney(c.realizedPL, currency, true)} · dividends ${fmtMoney(c.dividends, currency)}`} />
          <Stat label="Premiums" value={fmtMoney(c.premiums, currency)} sub={`net option cash ${fmtMoney(c.netOptionCash, currency, true)}`} />
          <Stat
            label="Return on collateral"
            value={fmtPct(c.returnOnCollateral, 2)}
            sub={
              <>
                <AnnualizedText campaign={c} long /> · peak {fmtMoney(c.collateralPeak, currency)}
                <span data-testid="collateral-rule"> · {c.collateralRule}</span>
              </>
            }
          />
          <Stat label="Shares" value={fmtQuantity(c.sharesHeld)} sub={c.adjustedCostBasis === null ? 'no shares held' : `adjusted basis ${fmtNumber(c.adjustedCostBasis, 2)}`} />
        </div>
        {basis.length > 1 && (
          <Panel title="Adjusted cost basis per share">
            <BasisChart points={basis} currency={currency} />
          </Panel>
        )}
        <Panel title={`Timeline · ${fmtCount(data.timeline.length, 'leg')}`}>
          <DataTable testId="campaign-timeline" columns={['Date', 'Leg', 'Instrument', num('Qty', undefined, 'mid'), num('Cash'), num('Realized'), num('Shares', undefined, 'lo'), num('Adj. basis', undefined, 'lo'), num('Collateral', undefined, 'mid')]}>
            {data.timeline.map((s) => (
              <tr key={s.transactionId}>
                <td className="num">{s.date}</td>
                <td>{typeLabel(s.type)}</td>
                <td>{fmtSymbol(s.symbol)}</td>
                <td className={colClass('mid', 'num')}>{fmtQuantity(s.quantity)}</td>
                <td className="num">{fmtMoney(s.cash, currency, true)}</td>
                <td className="num">{s.realizedPL === 0 ? '' : <Money value={s.realizedPL} currency={currency} />}</td>
                <td className={colClass('lo', 'num')}>{fmtQuantity(s.sharesHeld)}</td>
                <td className={colClass('lo', 'num')}>{s.adjustedCostBasis === null ? '' : fmtNumber(s.adjustedCostBasis, 2)}</td>
                <td className={colClass('mid', 'num')}>{fmtMoney(s.collateral, currency)}</td>
              </tr>
            ))}
          </DataTable>
        </Panel>
        <CampaignNote id={c.id} />
      </div>
    </div>
  );
}
