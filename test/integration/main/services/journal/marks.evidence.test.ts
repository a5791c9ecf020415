/**
 * Marks with an age, expiry evidence and unmatched closes through /v1 (docs/journal.md §Positions, §Unmatched
 * closes), on a self-written journal and self-written snapshots of XYZ, every figure by hand in the comments:
 * - marks older than `markMaxAgeDays` New York trading days are stale (Juneteenth 2024, a Wednesday, is no trading day);
 * - an option left open past its expiry is inferred expired only from a snapshot quoted within one trading day of the
 *   expiry (after it here; before it: expiry-settlement.test.ts), from the instant that snapshot was quoted; a snapshot
 *   of four days later decides nothing;
 * - a sale of shares never held is listed as an opening the history lacks until an opening is entered by hand.
 */
import { describe, expect, it } from 'vitest';
import type { CampaignsResponseT, PerformanceResponseT, PositionsResponseT, SummaryResponseT } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { openingRow, storeManualRows } from './manual-rows';

const JOURNAL = [
  'date,account,type,symbol,quantity,price,commission,fees,amount,currency',
  '2024-05-01T14:00:00Z,Book,BUY,XYZ,100,50,0,0,-5000,USD',
  '2024-05-20T14:00:00Z,Book,SELL_TO_OPEN,XYZ240621P00045000,1,1.00,1,0,99,USD',
  '2024-05-20T14:00:00Z,Book,SELL_TO_OPEN,XYZ240621C00055000,1,0.80,1,0,79,USD',
  // 10:00 New York: 30 shares sold that the file never bought.
  '2024-05-02T14:00:00Z,Cut,SELL,ABC,30,20,1,0,599,USD',
].join('\n');

function contract(expiration: string, strike: number, right: 'C' | 'P', bid: number, ask: number): OptionContract {
  return { root: 'XYZ', expiration, strike, right, openInterest: 100, iv: 0.3, bid, ask, multiplier: 100 };
}

/** A snapshot of XYZ: the June contracts (bid/ask as given) and a July pair that is never expired. */
function snapshot(quoteTime: string, spot: number, put: [number, number], call: [number, number]) {
  return {
    symbol: 'XYZ',
    spot,
    quoteTime,
    source: 'generic' as const,
    contracts: [
      contract('2024-06-21', 45, 'P', ...put),
      contract('2024-06-21', 55, 'C', ...call),
      contract('2024-07-19', 45, 'P', 0.5, 0.6),
      contract('2024-07-19', 55, 'C', 0.5, 0.6),
    ],
  };
}

/** A mid such as (0.10 + 0.20) / 2 in floating point, to the 4 decimals prices have. */
const price4 = (price: number | undefined) => (price === undefined ? undefined : Math.round(price * 10_000) / 10_000);

describe('marks with an age, expiry evidence, unmatched closes', () => {
  const clock = manualClock('2024-06-27T12:00:00Z');
  // An app each, the book imported by each it (shuffled, the stale-mark and the no-evidence tests read the third
  // snapshot a later test stores, or no book at all).
  const app = useTestApp({ clock }, 'each');
  const positions = async (query: string) => {
    const response = await app.get<PositionsResponseT>(`/v1/journal/positions?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const accountId = async (name: string) => (await positions('')).accounts.find((a) => a.name === name)?.id ?? '';

  /** The journal and two snapshots: Monday 17 June 16:30 and Tuesday 25 June 16:30 New York. */
  const importBook = async () => {
    const imported = await app.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    expect((await app.ctx.exposure.ingest({ snapshot: snapshot('2024-06-17T20:30:00Z', 52, [0.1, 0.2], [0.3, 0.4]) })).ok).toBe(true);
    expect((await app.ctx.exposure.ingest({ snapshot: snapshot('2024-06-25T20:30:00Z', 58, [0, 0.05], [2.9, 3.1]) })).ok).toBe(true);
  };

  it('imports the journal and two snapshots: Monday 17 June 16:30 and Tuesday 25 June 16:30 New York', importBook);

  it('marks from a snapshot two trading days old (Juneteenth closed): values and totals by hand', async () => {
    await importBook();
    // Thursday 20 June 12:00 New York: after Monday's quote came Tuesday and Thursday (the 19th is a holiday): age 2.
    const book = await positions(`accountId=${await accountId('Book')}&asOf=2024-06-20T16:00:00Z`);
    expect(book.positions.map((p) => [p.symbol, p.costBasis, price4(p.mark?.price), p.mark?.ageDays, p.mark?.stale, p.marketValue, p.unrealizedPL])).toEqual([
      // 100 × 52 = 5,200 against 5,000.
      ['XYZ', 5000, 52, 2, false, 5200, 200],
      // Sold 1.00 − 1.00 commission: −99; mid 0.15 → −15; +84.
      ['XYZ240621P00045000', -99, 0.15, 2, false, -15, 84],
      // Sold 0.80 − 1.00: −79; mid 0.35 → −35; +44.
      ['XYZ240621C00055000', -79, 0.35, 2, false, -35, 44],
    ]);
    expect(book.totals).toMatchObject({ costBasis: 4822, marketValue: 5150, unrealizedPL: 328, unmarked: 0, unmarkedCount: 0, staleCount: 0 });
  });

  it('a third trading day makes the mark stale: shown, left out of values, greeks and totals', async () => {
    await importBook();
    const asOf = `accountId=${await accountId('Book')}&asOf=2024-06-21T14:00:00Z`;
    const book = await positions(asOf);
    expect(book.positions.map((p) => [p.symbol, price4(p.mark?.price), p.mark?.ageDays, p.mark?.stale, p.marketValue, p.unrealizedPL, p.levels])).toEqual([
      ['XYZ', 52, 3, true, null, null, null],
      ['XYZ240621P00045000', 0.15, 3, true, null, null, null],
      ['XYZ240621C00055000', 0.35, 3, true, null, null, null],
    ]);
    expect(book.positions[1]?.greeks, 'no greeks from a stale snapshot').toBeNull();
    expect(book.totals).toMatchObject({ costBasis: 4822, marketValue: 0, unrealizedPL: 0, unmarked: 3, unmarkedCount: 0, staleCount: 3 });
    expect(book.marksAsOf.map((m) => [m.symbol, m.ageDays, m.stale])).toEqual([['XYZ', 3, true]]);
    const campaign = (await app.get<CampaignsResponseT>(`/v1/journal/chains?${asOf}`)).body.chains[0];
    expect(campaign?.unrealizedPL, 'a campaign with a stale mark has no unrealized P&L').toBeNull();
    // The setting moves the line: three trading days are fresh when three are allowed.
    expect((await app.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ markMaxAgeDays: 3 }) })).statusCode).toBe(200);
    expect((await positions(asOf)).totals).toMatchObject({ marketValue: 5150, staleCount: 0 });
    expect((await app.request({ method: 'PUT', url: '/v1/settings', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ markMaxAgeDays: 2 }) })).statusCode).toBe(200);
  });

  it('a snapshot four days after the expiry is no evidence: both options need attention, nothing is inferred', async () => {
    await importBook();
    const book = await positions(`accountId=${await accountId('Book')}&asOf=2024-06-26`);
    // Expired Friday 21 June 16:00; the window ends with Monday 24 June; Tuesday's snapshot (spot 58) decides nothing.
    expect(book.inferredExpirations).toEqual([]);
    expect(book.needsAttention.map((n) => [n.kind, n.reason, n.symbol, n.quantity, n.spot])).toEqual([
      ['expiry_unknown', 'no-snapshot-after-expiry', 'XYZ240621P00045000', -1, null],
      ['expiry_unknown', 'no-snapshot-after-expiry', 'XYZ240621C00055000', -1, null],
    ]);
    // The shares are marked from Tuesday's snapshot, one trading day old on Wednesday: 5,800.
    expect(book.positions.map((p) => [p.symbol, p.marketValue])).toEqual([['XYZ', 5800]]);
  });

  it('a snapshot within one trading day decides, from the instant it was quoted', async () => {
    await importBook();
    // Monday 24 June 10:00 New York, spot 57: the 45 put expired worthless, the 55 call is in the money.
    expect((await app.ctx.exposure.ingest({ snapshot: snapshot('2024-06-24T14:00:00Z', 57, [0, 0.05], [1.9, 2.1]) })).ok).toBe(true);
    const book = await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${await accountId('Book')}&asOf=2024-06-26`);
    expect(book.body.inferredExpirations).toMatchObject([{ symbol: 'XYZ240621P00045000', quantity: 1, tradeDate: '2024-06-21T20:00:00.000Z', spot: 57 }]);
    expect(book.body.needsAttention.map((n) => [n.kind, n.reason, n.symbol, n.spot])).toEqual([['in_the_money', 'in-the-money', 'XYZ240621C00055000', 57]]);
    // An hour before that quote nothing was known yet: both wait.
    const before = await positions(`accountId=${await accountId('Book')}&asOf=2024-06-24T13:00:00Z`);
    expect(before.needsAttention.map((n) => [n.kind, n.symbol])).toEqual([
      ['expiry_unknown', 'XYZ240621P00045000'],
      ['expiry_unknown', 'XYZ240621C00055000'],
    ]);
    const chain = async (asOf: string) => (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${await accountId('Book')}&asOf=${asOf}`)).body.chains[0]?.realizedPL;
    expect(await chain('2024-06-24T13:00:00Z'), 'nothing realized yet').toBe(0);
    expect(await chain('2024-06-26'), 'the put premium: 100 − 1').toBe(99);
    // Now (27 June) the expiration realizes the premium on its day, 21 June.
    const june = (await app.get<PerformanceResponseT>('/v1/journal/performance?date=2024-06-21')).body.monthly;
    expect(june.breakdown.byDay.find((d) => d.date === '2024-06-21')?.realizedPL).toBe(99);
  });

  it('lists the shares sold but never bought as an opening the history lacks, then matches the opening entered by hand', async () => {
    await importBook();
    const cut = await accountId('Cut');
    const book = await positions(`accountId=${cut}`);
    expect(book.positions, 'no phantom short').toEqual([]);
    expect(book.needsAttention).toEqual([
      {
        kind: 'opened_before_history',
        reason: 'opened-before-history',
        accountId: cut,
        accountName: 'Cut',
        currency: 'USD',
        symbol: 'ABC',
        underlying: 'ABC',
        isOption: false,
        expiration: null,
        strike: null,
        right: null,
        multiplier: 1,
        quantity: 30,
        sideKnown: true,
        firstDate: '2024-05-02',
        firstTradeDate: '2024-05-02T14:00:00.000Z',
        closes: 1,
        closedBy: ['SELL'],
        spot: null,
        quoteTime: null,
        lastSnapshot: null,
      },
    ]);
    const may = async () => (await app.get<PerformanceResponseT>(`/v1/journal/performance?accountId=${cut}&from=2024-05-01&to=2024-05-31&date=2024-05-02`)).body.custom?.summary;
    expect(await may()).toMatchObject({ stockPL: 0, commissions: 1, unmatched: { closes: 1, quantity: 30 } });
    const year = (await app.get<SummaryResponseT>(`/v1/journal/summary?year=2024&accountId=${cut}`)).body.stats;
    expect(year).toMatchObject({ totalRealizedPnl: 0, commissions: 1, unmatched: { closes: 1, quantity: 30 } });

    // The opening, as the Positions page would enter it: 30 shares at 15.00 dated on firstDate (16:00, after the
    // 10:00 sale: a manual opening counts from the start of its day), in the account of the sale.
    storeManualRows(app.ctx.db, cut, [openingRow({ accountName: 'Cut', symbol: 'ABC', quantity: 30, price: 15, tradeDate: '2024-05-02T20:00:00.000Z', id: 'opening-abc' })]);
    // Written on the server's connection, as another process would: the journal worker sees it at its next look at
    // PRAGMA data_version, which it reads at most every 25 ms (db/open.ts dataVersionReader), and rebuilds; reads
    // meanwhile answer the version before it with building: true (docs/journal.md §Reads during a build).
    await new Promise((resolve) => setTimeout(resolve, 30));
    let after = await positions(`accountId=${cut}`);
    for (let reads = 0; after.building && reads < 1_000; reads += 1) {
      expect(after.needsAttention, 'while building: the version before the opening').toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await positions(`accountId=${cut}`);
    }
    expect(after.building, 'the rebuild after the other connection\'s write ends').toBe(false);
    expect(after.needsAttention).toEqual([]);
    expect(after.positions).toEqual([]);
    // 30 × (20 − 15) − 1 = 149.
    expect(await may()).toMatchObject({ stockPL: 149, commissions: 1, unmatched: { closes: 0, quantity: 0 } });
  });
});
