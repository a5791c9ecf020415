/**
 * /journal/positions and /journal/chains (docs/journal.md §Positions, §Campaigns) on a hand-written wheel marked with
 * the real AMD chain of 2023-08-18's close (quoted 2023-08-20 22:35 New York). Every expected figure is computed by
 * hand in the comments, the greeks by finite differences of a Black–Scholes price written here, on the forward found
 * by put–call parity from the file's own quotes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDetailResponseT, CampaignsResponseT, PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { manualClock } from '../../../../clock';
import { useTestApp } from '../../../../helper';
import { expiryMs, parityForward, rawContracts, readChain, yearsBetween } from '../../../../quotedata';
import { AMD_WHEEL as JOURNAL } from '../../../../amd-wheel';

const AMD = 'AMD_quotedata_2023-08-18close_aryaman.csv';
const QUOTE_TIME = '2023-08-21T02:35:00Z';
/** The quote time as the store keeps it. */
const STORED_QUOTE_TIME = '2023-08-21T02:35:00.000Z';
const SPOT = 105.6;
const RATE = 0.04;



/** Black–Scholes on the forward, per share. */
function bsmPrice(right: 'C' | 'P', forward: number, strike: number, tYears: number, sigma: number, rate: number): number {
  const n = (x: number) => 0.5 * erfc(-x / Math.SQRT2);
  const s = sigma * Math.sqrt(tYears);
  const d1 = (Math.log(forward / strike) + 0.5 * s * s) / s;
  const d2 = d1 - s;
  const df = Math.exp(-rate * tYears);
  return right === 'C' ? df * (forward * n(d1) - strike * n(d2)) : df * (strike * n(-d2) - forward * n(-d1));
}

/** erfc by W. J. Cody's rational approximations is overkill here: Numerical Recipes' erfcc (error < 1.2e−7) suffices for 1e−4 checks. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

/** Finite-difference greeks of one short contract position of `quantity` × 100, with the carry b held constant. */
function fdGreeks(right: 'C' | 'P', strike: number, expiration: string, quantity: number) {
  const contracts = rawContracts(readChain(AMD));
  const group = contracts.filter((c) => c.expiration === expiration && c.root === 'AMD');
  const first = group[0];
  if (first === undefined) throw new Error(`no ${expiration} in the AMD file`);
  const tYears = yearsBetween(QUOTE_TIME, expiryMs(first));
  const forward = parityForward(group, SPOT, RATE, tYears);
  const contract = group.find((c) => c.right === right && c.strike === strike);
  if (contract === undefined) throw new Error('contract not in the file');
  const carry = Math.log(forward / SPOT) / tYears;
  const price = (spot: number, t: number, sigma: number) => bsmPrice(right, spot * Math.exp(carry * t), strike, t, sigma, RATE);
  const h = 0.01;
  const dt = 1 / 365 / 24;
  const size = quantity * 100;
  const sigma = contract.iv;
  return {
    mid: (contract.bid + contract.ask) / 2,
    iv: sigma,
    delta: ((price(SPOT + h, tYears, sigma) - price(SPOT - h, tYears, sigma)) / (2 * h)) * size,
    gamma: ((price(SPOT + h, tYears, sigma) - 2 * price(SPOT, tYears, sigma) + price(SPOT - h, tYears, sigma)) / (h * h)) * size,
    theta: ((price(SPOT, tYears - dt, sigma) - price(SPOT, tYears, sigma)) / dt / 365) * size,
    vega: ((price(SPOT, tYears, sigma + 0.0001) - price(SPOT, tYears, sigma - 0.0001)) / 0.0002 / 100) * size,
  };
}

const close = (actual: number | undefined | null, expected: number, relative = 2e-3) => {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual ?? Number.NaN) - expected)).toBeLessThanOrEqual(Math.abs(expected) * relative + 1e-9);
};

describe('positions and campaigns on the real AMD chain', () => {
  // Monday 08:00 New York, after the Sunday-evening quote.
  const clock = manualClock('2023-08-21T12:00:00Z');
  const app = useTestApp({ clock });

  // The book every it reads (it was an it of its own: shuffled, the /gex levels test ran first and found no account).
  beforeAll(async () => {
    const t = app;
    const imported = await t.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: JOURNAL });
    expect(imported.statusCode, imported.body).toBe(201);
    const chain = await t.request({ method: 'POST', url: '/v1/chains?symbol=AMD', headers: { 'content-type': 'text/csv' }, payload: readChain(AMD) });
    expect(chain.statusCode, chain.body).toBe(201);
  });

  const accountId = async (name: string) => {
    const { body } = await app.get<PositionsResponseT>('/v1/journal/positions');
    const found = body.accounts.find((a) => a.name === name);
    if (found === undefined) throw new Error(`no account ${name}`);
    return found.id;
  };

  it('marks the open wheel: cost basis, mid, market value and unrealized to the cent, dte, greeks', async () => {
    const ira = await accountId('IRA');
    const { status, body } = await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${ira}`);
    expect(status).toBe(200);
    expect(body.asOf).toBe('2023-08-21T12:00:00.000Z');
    const rows = body.positions.map((p) => [p.symbol, p.quantity, p.costBasis, p.mark?.price, p.marketValue, p.unrealizedPL, p.dte]);
    expect(rows).toEqual([
      // 100 shares at the strike: 11,000.00; spot 105.60 → 10,560.00, −440.00.
      ['AMD', 100, 11000, 105.6, 10560, -440, null],
      // Sold 2.00 − 1.10 costs: −198.90; mid (1.60 + 1.70)/2 = 1.65 → −165.00; +33.90; 08-21 → 09-01 = 11 days.
      ['AMD230901P00100000', -1, -198.9, 1.65, -165, 33.9, 11],
      // Sold 2.40 − 1.10: −238.90; mid (2.09 + 2.18)/2 = 2.135 → −213.50; +25.40.
      ['AMD230901C00110000', -1, -238.9, 2.135, -213.5, 25.4, 11],
      // Sold 2 × 1.50 − 2.20: −297.80; mid (1.38 + 1.45)/2 = 1.415 → −283.00; +14.80; 25 days.
      ['AMD230915P00095000', -2, -297.8, 1.415, -283, 14.8, 25],
    ]);
    // 11,000 − 198.90 − 238.90 − 297.80; 10,560 − 165 − 213.50 − 283; −440 + 33.90 + 25.40 + 14.80.
    expect(body.totals).toMatchObject({ costBasis: 10264.4, marketValue: 9898.5, unrealizedPL: -365.9, unmarked: 0 });
    // Collateral (docs/journal.md §Collateral): the shares at cost 11,000 (the call they cover adds nothing), the
    // 100 put 100 × 100 = 10,000, the two 95 puts 95 × 100 × 2 = 19,000: 40,000.
    expect(body.positions.map((p) => p.collateral)).toEqual([11000, 10000, 0, 19000]);
    expect(body.totals.byAccount).toEqual([{ accountId: ira, accountName: 'IRA', costBasis: 10264.4, collateral: 40000, marketValue: 9898.5, unrealizedPL: -365.9, unmarked: 0, unmarkedCount: 0, staleCount: 0 }]);
    // Quoted Sunday 22:35 New York: Monday is the first trading day after it, so the mark is 1 trading day old (≤ 2).
    expect(body.marksAsOf).toEqual([{ symbol: 'AMD', snapshotId: expect.any(Number) as number, quoteTime: STORED_QUOTE_TIME, spot: SPOT, ageDays: 1, stale: false }]);
    expect(body.positions.map((p) => [p.mark?.ageDays, p.mark?.stale])).toEqual([[1, false], [1, false], [1, false], [1, false]]);
    expect(body.positions[0]?.greeks).toEqual({ delta: 100, gamma: 0, theta: 0, vega: 0, iv: null });
    for (const [index, right, strike, expiration, quantity] of [
      [1, 'P', 100, '2023-09-01', -1],
      [2, 'C', 110, '2023-09-01', -1],
      [3, 'P', 95, '2023-09-15', -2],
    ] as const) {
      const expected = fdGreeks(right, strike, expiration, quantity);
      const greeks = body.positions[index]?.greeks;
      expect(greeks?.iv).toBe(expected.iv);
      close(greeks?.delta, expected.delta);
      close(greeks?.gamma, expected.gamma, 5e-3);
      close(greeks?.theta, expected.theta, 5e-3);
      close(greeks?.vega, expected.vega);
      // The mark is the file's own mid.
      expect(body.positions[index]?.mark?.price).toBeCloseTo(expected.mid, 10);
    }
  });

  it('joins each strike to the dealer levels of /gex on the same snapshot: its own expiration by default, the nearest three or the book on request', async () => {
    const t = app;
    type Gex = { callWall: { strike: number } | null; putWall: { strike: number } | null; gammaInflection: number | null; gammaZone: string; meta: { expirations: string[] } };
    const levelsOf = async (query: string) => {
      const gex = (await t.get<Gex>(`/v1/gex?symbol=AMD${query}`)).body;
      return { callWall: gex.callWall?.strike ?? null, putWall: gex.putWall?.strike ?? null, gammaFlip: gex.gammaInflection, gammaZone: gex.gammaZone, expirations: gex.meta.expirations };
    };
    const ira = await accountId('IRA');
    for (const scope of ['own', 'nearest', 'book'] as const) {
      const { body } = await t.get<PositionsResponseT>(`/v1/journal/positions?accountId=${ira}${scope === 'own' ? '' : `&levelsScope=${scope}`}`);
      expect(body.levelsScope, 'echoed (own when not asked)').toBe(scope);
      for (const position of body.positions) {
        // own: /gex of its expiration alone; shares have none, so the nearest three, said so. book: 0–45 dte as /gex?minDte=0&maxDte=45.
        const used = scope === 'own' && position.isOption ? 'own' : scope === 'book' ? 'book' : 'nearest';
        const levels = await levelsOf(used === 'own' ? `&expirations=${position.expiration ?? ''}` : used === 'book' ? '&minDte=0&maxDte=45' : '');
        expect(levels.callWall).not.toBeNull();
        expect(position.levels, `${scope}: ${position.symbol}`).toEqual({ ...levels, scope: used });
        if (!position.isOption) {
          expect(position.strikeVs).toBeNull();
          continue;
        }
        const strike = position.strike ?? 0;
        const pct = (level: number | null) => (level === null ? null : ((strike - level) / level) * 100);
        expect(position.strikeVs).toEqual({ callWall: pct(levels.callWall), putWall: pct(levels.putWall), gammaFlip: pct(levels.gammaFlip) });
      }
    }
    const own = (await t.get<PositionsResponseT>(`/v1/journal/positions?accountId=${ira}`)).body.positions.filter((p) => p.isOption);
    expect(own.map((p) => p.levels?.expirations), 'each option its own expiration').toEqual([['2023-09-01'], ['2023-09-01'], ['2023-09-15']]);
  });

  it('settles options past expiry: out of the money inferred, in the money under needsAttention', async () => {
    const misc = await accountId('Misc');
    const { body } = await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${misc}`);
    // Spot 105.60 on the first snapshot after 2023-08-18 16:00: the 100 put expired worthless, the 100 call is in the money.
    expect(body.positions).toEqual([]);
    expect(body.inferredExpirations).toEqual([{ accountId: misc, accountName: 'Misc', symbol: 'AMD230818P00100000', quantity: 1, tradeDate: '2023-08-18T20:00:00.000Z', spot: SPOT, quoteTime: STORED_QUOTE_TIME }]);
    expect(body.needsAttention).toMatchObject([{ symbol: 'AMD230818C00100000', quantity: -1, reason: 'in-the-money', spot: SPOT, quoteTime: STORED_QUOTE_TIME }]);
    // The inferred expiration realizes the put's premium (1.00 × 100 − 1.00 commission) in the account's campaign.
    const chains = (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${misc}`)).body.chains;
    expect(chains.map((c) => [c.status, c.realizedPL, c.premiums])).toEqual([['open', 99, 400]]);
    // Before any snapshot shows the expiry, nothing can be decided: both wait under needsAttention.
    const before = (await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${misc}&asOf=2023-08-19`)).body;
    expect(before.needsAttention.map((n) => [n.symbol, n.reason]).sort()).toEqual([
      ['AMD230818C00100000', 'no-snapshot-after-expiry'],
      ['AMD230818P00100000', 'no-snapshot-after-expiry'],
    ]);
  });

  it('reports the open campaign: premiums, net option cash, realized, adjusted basis, peak collateral, returns', async () => {
    const ira = await accountId('IRA');
    const { body } = await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${ira}&status=open`);
    expect(body.chains).toHaveLength(1);
    const chain = body.chains[0];
    // Premiums 250 + 120 + 150 + 200 + 240 + 300; option cash 248.90 + 118.90 + 148.90 − 80.10 + 198.90 + 238.90 + 297.80.
    // Realized: put assigned 248.90, call expired 118.90, put bought back 150 − 80 − 1.10 − 0.10 = 68.80.
    // Collateral at a close: 100 shares (11,000) + the 100 put (10,000) + two 95 puts (19,000) = 40,000 on 08-18.
    // 2023-07-03 → 2023-08-21: 49 days.
    expect(chain).toMatchObject({
      underlying: 'AMD',
      status: 'open',
      openedAt: '2023-07-03',
      closedAt: null,
      days: 49,
      premiums: 1260,
      netOptionCash: 1172.2,
      realizedPL: 436.6,
      pnl: 436.6,
      unrealizedPL: -365.9,
      sharesHeld: 100,
      // (11,000 − 1,172.20) / 100
      adjustedCostBasis: 98.278,
      collateralPeak: 40000,
      rolls: 1,
      assignments: 1,
    });
    expect(chain?.returnOnCollateral).toBeCloseTo(436.6 / 40000, 12);
    expect(chain?.annualizedReturn).toBeCloseTo(((436.6 / 40000) * 365) / 49, 12);
    expect(chain?.legs).toHaveLength(10);
  });

  it('reports the closed campaign by hand, and its timeline', async () => {
    const taxable = await accountId('Taxable');
    const { body } = await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${taxable}&status=closed`);
    const chain = body.chains[0];
    // Put 100 − 1 = 99; call 80 − 1 = 79; shares 5,200 − 5,000 = 200; dividend 25. Collateral: 5,000 throughout.
    // 2023-01-03 → 2023-02-17: 45 days.
    expect(chain).toMatchObject({ status: 'closed', openedAt: '2023-01-03', closedAt: '2023-02-17', days: 45, premiums: 180, netOptionCash: 178, realizedPL: 378, dividends: 25, pnl: 403, unrealizedPL: null, sharesHeld: 0, adjustedCostBasis: null, collateralPeak: 5000, rolls: 0, assignments: 2 });
    expect(chain?.returnOnCollateral).toBeCloseTo(403 / 5000, 12);
    expect(chain?.annualizedReturn).toBeCloseTo((403 / 5000 / 45) * 365, 12);
    const response = await app.get<CampaignDetailResponseT>(`/v1/journal/chains/${encodeURIComponent(chain?.id ?? '')}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const detail = response.body;
    // Rows of one day keep the file's event order (docs/journal.md §Event order): the file lists each assignment
    // before the delivery of its shares, so the put closes before the shares arrive and the call before they leave.
    expect(detail.timeline.map((s) => [s.type, s.cash, s.realizedPL, s.sharesHeld, s.adjustedCostBasis])).toEqual([
      ['SELL_TO_OPEN', 99, 0, 0, null],
      ['ASSIGNMENT', 0, 99, 0, null],
      ['BUY', -5000, 0, 100, 49.01],
      ['SELL_TO_OPEN', 79, 0, 100, 48.22],
      ['DIVIDEND', 25, 0, 100, 48.22],
      ['ASSIGNMENT', 0, 79, 100, 48.22],
      ['SELL', 5200, 200, 0, null],
    ]);
    expect((await app.get(`/v1/journal/chains/${encodeURIComponent('nope:USD:XYZ:2023-01-03')}`)).status).toBe(404);
    // /journal/campaigns is the alias of /journal/chains: the same list (its JSON keeps `chains`) and the same detail.
    const alias = await app.get<CampaignsResponseT>(`/v1/journal/campaigns?accountId=${taxable}&status=closed`);
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(body);
    expect((await app.get<CampaignDetailResponseT>(`/v1/journal/campaigns/${encodeURIComponent(chain?.id ?? '')}`)).body).toEqual(detail);
    expect((await app.get(`/v1/journal/campaigns/${encodeURIComponent('nope:USD:XYZ:2023-01-03')}`)).status).toBe(404);
  });

  it('replays a past instant: before and after the roll', async () => {
    const ira = await accountId('IRA');
    const before = (await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${ira}&asOf=2023-08-17T14:00:00Z`)).body;
    // No snapshot yet: every mark is null, and so are market value and unrealized.
    expect(before.positions.map((p) => [p.symbol, p.quantity, p.costBasis, p.mark, p.unrealizedPL])).toEqual([
      ['AMD', 100, 11000, null, null],
      ['AMD230818P00100000', -1, -148.9, null, null],
      ['AMD230818C00115000', -1, -118.9, null, null],
    ]);
    expect(before.totals).toMatchObject({ costBasis: 10732.2, marketValue: 0, unrealizedPL: 0, unmarked: 3 });
    const chainBefore = (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${ira}&asOf=2023-08-17T14:00:00Z`)).body.chains[0];
    expect(chainBefore).toMatchObject({ realizedPL: 248.9, rolls: 0, premiums: 520, unrealizedPL: null, collateralPeak: 21000 });
    const after = (await app.get<PositionsResponseT>(`/v1/journal/positions?accountId=${ira}&asOf=2023-08-17T16:00:00-04:00`)).body;
    expect(after.positions.map((p) => p.symbol)).toEqual(['AMD', 'AMD230818C00115000', 'AMD230901P00100000']);
    const chainAfter = (await app.get<CampaignsResponseT>(`/v1/journal/chains?accountId=${ira}&asOf=2023-08-17T16:00:00-04:00`)).body.chains[0];
    expect(chainAfter).toMatchObject({ realizedPL: 317.7, rolls: 1, premiums: 720 });
  });

  it('filters performance and summary by account, and refuses an unknown one', async () => {
    const t = app;
    const taxable = await accountId('Taxable');
    const summary = await t.get<{ stats: { totalRealizedPnl: number; dividends: number } }>(`/v1/journal/summary?year=2023&accountId=${taxable}`);
    expect(summary.body.stats).toMatchObject({ totalRealizedPnl: 378, dividends: 25 });
    const performance = await t.get<{ custom: { summary: { realizedPL: number } } }>(`/v1/journal/performance?from=2023-01-01&to=2023-12-31&accountId=${taxable}`);
    expect(performance.body.custom.summary.realizedPL).toBe(378);
    for (const url of ['/v1/journal/summary?accountId=acc_nope', '/v1/journal/performance?accountId=acc_nope', '/v1/journal/positions?accountId=acc_nope', '/v1/journal/chains?accountId=acc_nope']) {
      const response = await t.get<{ code: string }>(url);
      expect(response.status, url).toBe(404);
      expect(response.body.code).toBe('UNKNOWN_ACCOUNT');
    }
  });

  it('lists transactions with the realized P&L each row booked, sorted server-side over the whole set, by type', async () => {
    const t = app;
    const taxable = await accountId('Taxable');
    type Page = { transactions: Array<{ type: string; symbol: string; amount: number; price: number; realizedPL: number | null }>; pagination: { total: number } };
    const all = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}`)).body.transactions;
    // Put assigned: 100 − 1 = 99; call assigned: 80 − 1 = 79; shares 5,200 − 5,000 = 200; the opening rows realize nothing.
    // (Rows of one instant are listed by id: compared as a set.)
    const byRow = (rows: Array<[string, number | null]>) => rows.map((row) => JSON.stringify(row)).sort();
    expect(byRow(all.map((r) => [r.type, r.realizedPL]))).toEqual(byRow([
      ['ASSIGNMENT', 79],
      ['SELL', 200],
      ['DIVIDEND', null],
      ['SELL_TO_OPEN', null],
      ['ASSIGNMENT', 99],
      ['BUY', null],
      ['SELL_TO_OPEN', null],
    ]));
    const assignments = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}&type=ASSIGNMENT`)).body;
    expect(assignments.pagination.total).toBe(2);
    expect(assignments.transactions.map((r) => r.symbol)).toEqual(['XYZ230217C00052000', 'XYZ230120P00050000']);
    const byAmount = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}&sort=amount`)).body.transactions;
    expect(byAmount.map((r) => r.amount)).toEqual([-5000, 0, 0, 25, 79, 99, 5200]);
    const byRealized = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}&sort=-realizedPL`)).body.transactions;
    expect(byRealized.map((r) => r.realizedPL)).toEqual([200, 99, 79, null, null, null, null]);
    // Sorted over every row before paging: page 2 of 2 is the 3rd and 4th price of the whole account in order.
    const prices = all.map((r) => r.price).sort((a, b) => b - a);
    const page2 = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}&sort=-price&limit=2&page=2`)).body.transactions;
    expect(page2.map((r) => r.price)).toEqual(prices.slice(2, 4));
    const oldest = (await t.get<Page>(`/v1/journal/transactions?accountId=${taxable}&sort=tradeDate&limit=1`)).body.transactions;
    expect(oldest.map((r) => r.type)).toEqual(['SELL_TO_OPEN']);
  });
});
