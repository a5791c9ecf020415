import { describe, expect, it } from 'vitest';
import { demoMarket } from '../../../../src-shared/demo/market';
import { evaluateEvents, type ConfirmedState, type EventDraft } from '../../../../src-shared/exposure/events';
import { prepareChain } from '../../../../src-shared/exposure/prepare';

describe('demo market', () => {
  const started = performance.now();
  const market = demoMarket();
  const elapsedMs = performance.now() - started;

  it('is deterministic for a seed and differs between seeds', () => {
    console.log(`demo market: ${market.length} snapshots, ${market.reduce((n, s) => n + s.contracts.length, 0)} contracts in ${elapsedMs.toFixed(0)} ms`);
    expect(JSON.stringify(demoMarket()) === JSON.stringify(market), 'same default seed, same market').toBe(true);
    const other = demoMarket(7);
    expect(other[0]?.contracts.map((c) => c.openInterest), 'another seed draws other open interest').not.toEqual(market[0]?.contracts.map((c) => c.openInterest));
  });

  it('covers an index, an ETF and two stocks over a day, labelled demo', () => {
    expect([...new Set(market.map((s) => s.symbol))].sort()).toEqual(['AAPL', 'SPX', 'SPY', 'TSLA']);
    const times = [...new Set(market.map((s) => s.quoteTime))];
    expect(times[0], '09:30 New York (EST) on 2026-11-20').toBe('2026-11-20T14:30:00Z');
    expect(times.at(-1), '16:00 New York').toBe('2026-11-20T21:00:00Z');
    expect(times, 'every 30 minutes').toHaveLength(14);
    for (const s of market) {
      expect(s.source).toBe('demo');
      expect(s.spot).toBeGreaterThan(0);
      for (const c of s.contracts.slice(0, 50)) {
        expect(c.iv, 'IV is a decimal').toBeGreaterThan(0);
        expect(c.iv).toBeLessThanOrEqual(3);
        expect(c.ask).toBeGreaterThanOrEqual(c.bid);
      }
    }
    const spx = market.find((s) => s.symbol === 'SPX');
    const roots = new Set(spx?.contracts.map((c) => c.root));
    expect(roots, 'SPXW weeklies and the AM-settled SPX monthly').toEqual(new Set(['SPXW', 'SPX']));
    const expirations = [...new Set(spx?.contracts.map((c) => c.expiration))].sort();
    expect(expirations.at(-1) ?? '', 'expirations out to about 60 days').toMatch(/^2027-01-(1|2)\d$/);
  });

  it('has a skewed smile and open interest on round strikes', () => {
    const spx = market.find((s) => s.symbol === 'SPX' && s.quoteTime === '2026-11-20T14:30:00Z');
    const dec = spx?.contracts.filter((c) => c.expiration === '2026-12-18' && c.root === 'SPXW' && c.right === 'P') ?? [];
    const ivAt = (k: number) => dec.find((c) => c.strike === k)?.iv ?? Number.NaN;
    expect(ivAt(5500), 'puts 7% below spot are priced richer than at the money').toBeGreaterThan(ivAt(5950));
    const round = dec.filter((c) => c.strike % 100 === 0 && c.strike < 5950 && c.strike > 5500);
    const other = dec.filter((c) => c.strike % 50 !== 0 && c.strike < 5950 && c.strike > 5500);
    const mean = (xs: typeof dec) => xs.reduce((s, c) => s + c.openInterest, 0) / xs.length;
    expect(mean(round), 'round hundreds hold more open interest').toBeGreaterThan(1.5 * mean(other));
  });

  it('produces flip and wall events under evaluateEvents', () => {
    const states = new Map<string, Map<string, ConfirmedState>>();
    const events: EventDraft[] = [];
    for (const s of market) {
      const result = evaluateEvents(s.symbol, prepareChain(s, { rate: 0.04 }), states.get(s.symbol) ?? new Map());
      states.set(s.symbol, result.states);
      events.push(...result.events);
    }
    expect(events.filter((e) => e.eventType === 'flip').length, 'the midday sell-off flips some books').toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.eventType === 'wall').length, 'and moves walls').toBeGreaterThanOrEqual(1);
    expect(new Set(events.filter((e) => e.eventType === 'flip').map((e) => e.ticker)).has('SPX'), 'SPX flips').toBe(true);
  });
});
