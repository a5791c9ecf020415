import { describe, expect, it } from 'vitest';
import { asAccountId, storedTicker } from '../../../../src-shared/ids';
import { closeLotsFifo, fifoSlice, PositionBook, prorate, QTY_EPSILON, tradeValueMinor, type FifoSlice, type SlotSink } from '../../../../src-shared/journal/lots';
import type { CampaignSlot } from '../../../../src-shared/journal/records';
import { allTime, ledgerOf, tx } from '../../../journal-helpers';

const ACCT = asAccountId('acct');

const CALL = { expiration: '2024-06-21', strike: 50, right: 'C' as const };
const PUT = { expiration: '2024-06-21', strike: 45, right: 'P' as const };

describe('FIFO lots and realized P&L', () => {
  it('nets both legs of a long stock round trip', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 20, commission: 1, fees: 0.05, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 100, price: 21.5, commission: 1, fees: 0.07, at: '2024-05-03T10:00' }),
    ]);
    const s = allTime(ledger).summary;
    // (21.50 − 20.00) × 100 = 150.00; − 1.05 entry − 1.07 exit = 147.88
    expect(s.stockPL, '150 gross − 1.05 entry − 1.07 exit costs').toBe(147.88);
    expect(s.optionsPL, 'no option traded').toBe(0);
    expect(s.realizedPL, 'realized = options + stock').toBe(147.88);
    expect(s.trades, 'two fills').toBe(2);
  });

  it('prorates entry costs over partial closes (both legs net)', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY_TO_OPEN', ticker: 'ABC', option: CALL, quantity: 3, price: 2, commission: 3, fees: 0.36, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'ABC', option: CALL, quantity: 1, price: 3, fees: 0.12, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL_TO_CLOSE', ticker: 'ABC', option: CALL, quantity: 2, price: 1.5, fees: 0.24, at: '2024-05-03T10:00' }),
    ]);
    const days = allTime(ledger).breakdown.byDay;
    // Exit 1: 300 − 200 (1/3 of 600) − 1.12 (1/3 of 3.36) − 0.12 = 98.76
    expect(days.find((d) => d.date === '2024-05-02')?.realizedPL, '300 − 200 − 3.36/3 − 0.12').toBe(98.76);
    // Exit 2: 300 − 400 − 2.24 − 0.24 = −102.48
    expect(days.find((d) => d.date === '2024-05-03')?.realizedPL, '300 − 400 − 3.36×2/3 − 0.24').toBe(-102.48);
    // The opening day realizes nothing: its costs wait in the lot.
    expect(days.find((d) => d.date === '2024-05-01')?.realizedPL, 'opening fill realizes nothing').toBe(0);
    expect(allTime(ledger).summary.optionsPL, 'gross 0, all costs 3.36 + 0.36').toBe(-3.72);
  });

  it('splits an indivisible entry cost exactly across three closes', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 3, price: 10, commission: 1, at: '2024-05-01T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-03T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 1, price: 10, at: '2024-05-06T10:00' }),
    ]);
    // 1.0000 over thirds in 1/10,000 units: 0.3333, 0.3333, 0.3334 — the pieces add back to exactly 1.00.
    expect(allTime(ledger).summary.stockPL, 'flat price: P&L is exactly −commission').toBe(-1);
    const days = allTime(ledger).breakdown.byDay.map((d) => d.realizedPL);
    expect(days, 'per-close share of 1.00 rounded to cents').toEqual([0, -0.33, -0.33, -0.33]);
  });

  it('expires a short option at zero with its own costs', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: PUT, quantity: 2, price: 0.85, commission: 2, fees: 0.24, at: '2024-05-20T10:00' }),
      tx({ type: 'EXPIRATION', ticker: 'ABC', option: PUT, quantity: 2, fees: 0.01, at: '2024-06-21T17:00' }),
    ]);
    const s = allTime(ledger).summary;
    // 0.85 × 2 × 100 = 170 credit; − 2.24 entry − 0.01 expiration = 167.75
    expect(s.optionsPL, '170 − 2.24 − 0.01').toBe(167.75);
    expect(s.lockedInPremiums, 'a short option lot closed: all of it is locked in').toBe(167.75);
    expect(s.premiumsCollected, 'gross STO credit 0.85 × 2 × 100').toBe(170);
    expect(s.trades, 'the expiration is not a trade execution').toBe(1);
    expect(ledger.warnings.unmatchedSettlements).toBe(0);
  });

  it('opens a short stock lot with SELL_SHORT; a BUY while short covers it', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, commission: 0.5, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 10, price: 27.25, commission: 0.5, at: '2024-05-02T10:00' }),
    ]);
    // (30 − 27.25) × 10 = 27.50 − 1.00
    expect(allTime(ledger).summary.stockPL, 'short: entry − exit − costs').toBe(26.5);
    expect(ledger.warnings.unmatchedCloses).toBe(0);
    expect(ledger.positions).toEqual([]);
  });

  it('BUY_TO_COVER closes a short sale', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY_TO_COVER', ticker: 'ABC', quantity: 4, price: 31, commission: 1, at: '2024-05-02T10:00' }),
    ]);
    // 4 × (30 − 31) − 1 = −5; 6 shares stay short.
    expect(allTime(ledger).summary.stockPL, '4 × (30 − 31) − 1').toBe(-5);
    expect(ledger.positions.map((p) => [p.symbol, p.quantity, p.entryGrossMinor])).toEqual([['ABC', -6, 1_800_000]]);
  });

  it('a BUY larger than the short position closes it and opens the rest long', () => {
    const ledger = ledgerOf([
      tx({ type: 'SELL_SHORT', ticker: 'ABC', quantity: 10, price: 30, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 15, price: 28, commission: 1.5, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 5, price: 29, at: '2024-05-03T10:00' }),
    ]);
    const days = allTime(ledger).breakdown.byDay;
    // Day 2: 10 × (30 − 28) − 1.00 (10/15 of 1.50) = 19.00; day 3: 5 × (29 − 28) − 0.50 = 4.50
    expect(days.find((d) => d.date === '2024-05-02')?.realizedPL, '20 − 10/15 × 1.50').toBe(19);
    expect(days.find((d) => d.date === '2024-05-03')?.realizedPL, '5 − 5/15 × 1.50').toBe(4.5);
  });

  it('counts an expiration with no open lot as a warning', () => {
    const ledger = ledgerOf([tx({ type: 'EXPIRATION', ticker: 'ABC', option: PUT, quantity: 1, at: '2024-06-21T17:00' })]);
    expect(ledger.warnings.unmatchedSettlements).toBe(1);
    expect(allTime(ledger).summary.optionsPL).toBe(0);
  });

  it('handles fractional shares FIFO', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 0.5, price: 100.01, at: '2024-05-01T10:00' }),
      tx({ type: 'BUY', ticker: 'ABC', quantity: 0.25, price: 99, at: '2024-05-02T10:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 0.6, price: 101, at: '2024-05-03T10:00' }),
    ]);
    // Lot 1: 0.5 × (101 − 100.01) = 0.495; lot 2 (0.1 of 0.25): 0.1 × (101 − 99) = 0.20 → 0.695 → 0.70 in cents
    expect(allTime(ledger).summary.stockPL, '0.495 + 0.200 rounded to cents').toBe(0.7);
    const open = ledger.positions.find((p) => p.symbol === 'ABC');
    expect(open?.quantity, '0.25 − 0.1 shares left').toBeCloseTo(0.15, 12);
    expect(open?.entryGrossMinor, '0.15 × 99 = 14.85').toBe(148_500);
  });

  it('SPLIT scales the open lots and keeps the basis', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 50, at: '2024-05-01T10:00' }),
      tx({ type: 'SPLIT', ticker: 'ABC', quantity: 100, at: '2024-05-10T08:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 200, price: 26, at: '2024-05-13T10:00' }),
    ]);
    // Basis 5,000 for 200 shares after a 2:1 split; sold for 5,200.
    expect(allTime(ledger).summary.stockPL, '200 × 26 − 5,000').toBe(200);
    expect(ledger.positions).toEqual([]);
  });

  it('a reverse split (negative share change) keeps the basis too', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'ABC', quantity: 100, price: 5, at: '2024-05-01T10:00' }),
      tx({ type: 'SPLIT', ticker: 'ABC', quantity: -90, at: '2024-05-10T08:00' }),
      tx({ type: 'SELL', ticker: 'ABC', quantity: 10, price: 49, at: '2024-05-13T10:00' }),
    ]);
    expect(allTime(ledger).summary.stockPL, '10 × 49 − 500 (1:10)').toBe(-10);
  });

  it('SYMBOL_CHANGE carries the lots to the new ticker', () => {
    const ledger = ledgerOf([
      tx({ type: 'BUY', ticker: 'FB', quantity: 10, price: 300, at: '2022-06-01T10:00' }),
      tx({ type: 'SYMBOL_CHANGE', ticker: 'META', previousSymbol: 'FB', quantity: 10, at: '2022-06-09T08:00' }),
      tx({ type: 'SELL', ticker: 'META', quantity: 10, price: 310, commission: 1, at: '2022-06-10T10:00' }),
    ]);
    expect(allTime(ledger).summary.stockPL, '10 × (310 − 300) − 1').toBe(99);
    expect(ledger.warnings.unmatchedCloses + ledger.warnings.corporateActionsWithoutLots).toBe(0);
    expect(ledger.campaigns.length, 'one story: the chain moves with the rename').toBe(1);
    expect(ledger.campaigns[0]?.underlying).toBe('META');
    expect(ledger.campaigns[0]?.closeDay).toBe('2022-06-10');
  });
});

describe('the FIFO walk by hand (lots.ts): cases the mutation run found untested (issue 31 item 5)', () => {
  it('prorate: the whole pool for the whole (or what is within the quantity tolerance of it), else the share rounded', () => {
    expect(prorate(1_000_000_000_000, 1, 1), 'all of it').toBe(1_000_000_000_000);
    // At exactly the tolerance below the whole the pool is still all taken: a share of 1 − 1e-9 would be 1,000 short.
    expect(prorate(1_000_000_000_000, 1 - QTY_EPSILON, 1), 'within the tolerance: all of it').toBe(1_000_000_000_000);
    expect(prorate(1_000_000_000_000, 1 - 2 * QTY_EPSILON, 1), 'beyond it: the share, 1e12 × (1 − 2e-9)').toBe(999_999_998_000);
    expect(prorate(10_000, 1, 3), '1/3 of 1.0000 rounds to 0.3333').toBe(3_333);
    expect(prorate(20_000, 1, 3), '1/3 of 2.0000 rounds up to 0.6667').toBe(6_667);
    expect(prorate(-10_000, 2, 3), 'a negative pool: 2/3 of −1.0000').toBe(-6_667);
  });

  it('fifoSlice: a long slice earns exit − entry, a short one entry − exit, both net of both legs\' prorated costs', () => {
    const lot = { qty: 4, grossMinor: 400_000, costsMinor: 4_000 };
    // 1 of 4 units: entry 100,000 + 1,000; exit 1 of 2 units left of 300,000 gross and 2,000 costs: 150,000 + 1,000.
    const expected = (pnlMinor: number): FifoSlice => ({ entryGross: 100_000, entryCosts: 1_000, exitGross: 150_000, exitCosts: 1_000, pnlMinor });
    expect(fifoSlice(lot, 1, 1, 2, 300_000, 2_000), 'long: 150,000 − 100,000 − 1,000 − 1,000').toEqual(expected(48_000));
    expect(fifoSlice(lot, -1, 1, 2, 300_000, 2_000), 'short: 100,000 − 150,000 − 1,000 − 1,000').toEqual(expected(-52_000));
  });

  it('closeLotsFifo: takes the oldest lot first, moves the head past an emptied lot, prorates what is left of the exit', () => {
    const pos = { side: 1, head: 0, lots: [{ qty: 2, grossMinor: 200, costsMinor: 20 }, { qty: 3, grossMinor: 360, costsMinor: 30 }] };
    const slices: Array<[number, number]> = [];
    const rest = closeLotsFifo(pos, 4, 600, 40, (_lot, take, slice) => slices.push([take, slice.pnlMinor]));
    // Lot 1 whole: exit 2/4 of 600 and of 40 → 300 − 200 − 20 − 20 = 60. Lot 2, 2 of 3: entry 240 + 20, exit the
    // remaining 300 + 20 → 300 − 240 − 20 − 20 = 20.
    expect(slices, 'one slice a lot, oldest first').toEqual([[2, 60], [2, 20]]);
    expect(rest, 'the exit fully used').toEqual({ qty: 0, grossMinor: 0, costsMinor: 0, closedQty: 4 });
    expect(pos.head, 'past the emptied first lot, not the second').toBe(1);
    expect(pos.lots[1], 'the second lot keeps 1 unit, 120 of its value and 10 of its costs').toEqual({ qty: 1, grossMinor: 120, costsMinor: 10 });
    // More than is open: the last unit closes against 1/3 of the exit, the rest is returned unmatched.
    const more: number[] = [];
    const left = closeLotsFifo(pos, 3, 90, 9, (_lot, _take, slice) => more.push(slice.pnlMinor));
    expect(more, '30 − 120 − 10 − 3').toEqual([-103]);
    expect(left, '2 units, 60 and 6 left unmatched; 1 closed').toEqual({ qty: 2, grossMinor: 60, costsMinor: 6, closedQty: 1 });
    expect(pos.head, 'past both lots').toBe(2);
    expect(closeLotsFifo(pos, 1, 50, 5, () => expect.unreachable('no lot is open')), 'nothing open: the exit comes back whole').toEqual({ qty: 1, grossMinor: 50, costsMinor: 5, closedQty: 0 });
  });

  it('closeLotsFifo: a remainder within the quantity tolerance is none (float dust of fractional shares)', () => {
    const pos = { side: -1, head: 0, lots: [{ qty: 0.1 + 0.2, grossMinor: 3_000, costsMinor: 0 }] };
    // 0.1 + 0.2 is 0.30000000000000004: closing 0.3 leaves 4e-17 in the lot, which is empty for the walk.
    const rest = closeLotsFifo(pos, 0.3, 2_000, 0, () => undefined);
    expect(rest.qty, 'nothing left of the exit').toBe(0);
    expect(pos.head, 'the lot counts as emptied').toBe(1);
    const dust = { side: 1, head: 0, lots: [{ qty: 1, grossMinor: 100, costsMinor: 0 }] };
    expect(closeLotsFifo(dust, 1 + QTY_EPSILON / 2, 100, 0, () => undefined).qty, 'an exit over by dust leaves nothing unmatched').toBe(0);
  });

  it('tradeValueMinor: the booked cash when it is within half a minor unit a share (+ 1 cent) of price × quantity, else the price', () => {
    // 300 shares sold at 2.8460 (price × qty 853.80) for 853.81 of cash: within 150 + 100 minor units, the cash.
    const sell = (amount: number, costs = 0) => tradeValueMinor(tx({ type: 'SELL', quantity: 300, price: 2.846, amount, at: '2024-05-01T10:00' }), -1, 300, costs * 10_000);
    expect(sell(853.81), 'the broker\'s cash').toBe(8_538_100);
    expect(sell(853.825), '250 minor units over: still the cash').toBe(8_538_250);
    expect(sell(853.8251), '251 over: the price').toBe(8_538_000);
    expect(sell(853.775), '250 under: the cash').toBe(8_537_750);
    expect(sell(853.7749), '251 under: the price').toBe(8_538_000);
    expect(sell(852.81, 1), 'a sell\'s cash is net of its costs: 852.81 + 1.00').toBe(8_538_100);
    // A buy: the cash paid less its costs. 100 shares at 20 for −2,001.50 with 1.50 of costs is 2,000.00.
    const buy = tradeValueMinor(tx({ type: 'BUY', quantity: 100, price: 20, amount: -2_001.5, at: '2024-05-01T10:00' }), 1, 100, 15_000);
    expect(buy, '2,001.50 − 1.50').toBe(20_000_000);
    // A buy whose cash is a cent off its price × quantity (853.81 paid for 300 at 2.8460): the cash, read with its sign.
    const paid = tradeValueMinor(tx({ type: 'BUY', quantity: 300, price: 2.846, amount: -853.81, at: '2024-05-01T10:00' }), 1, 300, 0);
    expect(paid, 'the 853.81 paid, not the 853.80 of the price').toBe(8_538_100);
    // No cash on the row (an importer without amounts): the price, even where it is within the tolerance of zero.
    const cheap = tradeValueMinor(tx({ type: 'SELL', quantity: 1, price: 0.01, amount: 0, at: '2024-05-01T10:00' }), -1, 1, 0);
    expect(cheap, 'no cash: 0.01 × 1').toBe(100);
    // A 10-lot option: tolerance 0.5 × 10 × 100 + 100 = 600.
    const option = (amount: number) => tradeValueMinor(tx({ type: 'SELL_TO_OPEN', ticker: 'ABC', option: { expiration: '2024-06-21', strike: 45, right: 'P' }, quantity: 10, price: 1.25, amount, at: '2024-05-01T10:00' }), -1, 10, 0);
    expect(option(1_250.06), '600 over: the cash').toBe(12_500_600);
    expect(option(1_250.0601), '601 over: the price').toBe(12_500_000);
  });
});

describe('the position book by hand (lots.ts PositionBook): cases the mutation run found untested (issue 31 item 5)', () => {
  /** A campaign sink that only keeps slots and counts what it is told. */
  function sink() {
    const slots = new Map<string, CampaignSlot>();
    const told: string[] = [];
    const campaigns: SlotSink = {
      slot(accountId, key, currency) {
        const id = `${accountId}|${key}|${currency}`;
        let slot = slots.get(id);
        if (slot === undefined) {
          slot = { accountId, underlying: storedTicker(key.split('\u0000')[0] ?? key), currency, key, openPositions: 0, members: new Set(), current: null, last: null, holder: null, holderLeftDay: null };
          slots.set(id, slot);
        }
        return slot;
      },
      touch: () => undefined,
      strandExpired: (slot, day) => told.push(`strand ${slot.key} ${day}`),
      active: (slot, day) => told.push(`active ${slot.key} ${day}`),
    };
    return { campaigns, slots, told };
  }
  const STOCK = { symbol: 'ABC', underlying: storedTicker('ABC'), isOption: false, expiration: null, strike: null, right: null, multiplier: 1 };
  const PUT = { symbol: 'ABC   240621P00045000', underlying: storedTicker('ABC'), isOption: true, expiration: '2024-06-21', strike: 45, right: 'P' as const, multiplier: 100 };
  const lotsOf = (pos: { lots: Array<{ qty: number; grossMinor: number; openDay: string }>; head: number }) => pos.lots.slice(pos.head).map((l) => [l.openDay, l.qty, l.grossMinor]);

  it('a new position is flat in its underlying\'s slot; no underlying: its own symbol; no multiplier: 1', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const pos = book.ofInstrument(ACCT, 'USD', { ...STOCK, underlying: storedTicker(''), multiplier: 0 });
    expect([pos.underlying, pos.multiplier, pos.side, pos.qty, pos.slot.key], 'ABC, ×1, flat').toEqual(['ABC', 1, 0, 0, 'ABC']);
    expect(book.ofInstrument(ACCT, 'USD', STOCK), 'the same position again').toBe(pos);
    expect(book.find(ACCT, 'ABC', 'USD')).toBe(pos);
    expect(book.find(ACCT, 'ABC', 'CAD'), 'another currency is another position').toBeUndefined();
    expect(book.created).toEqual([pos]);
  });

  it('opening and closing lots books each slice\'s P&L, keeps the open cost and counts the slot\'s open positions', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const pos = book.ofInstrument(ACCT, 'USD', PUT);
    book.openLot(pos, '2024-05-01', -1, 2, 17_000, 240);
    expect([pos.side, pos.qty, pos.openCostMinor, pos.slot.openPositions, pos.slot.members.has(pos)], 'short 2, cost 17,240, open in its slot').toEqual([-1, 2, 17_240, 1, true]);
    const booked: Array<[string, number, boolean]> = [];
    const rest = book.closeFifo(pos, '2024-05-10', 1, 5_000, 120, { bookRealized: (_p, day, pnl, short) => booked.push([day, pnl, short]) });
    // Short 1 of 2: entry 8,500 + 120 of costs; exit 5,000 + 120 → 8,500 − 5,000 − 120 − 120 = 3,260.
    expect(booked, 'one slice, short').toEqual([['2024-05-10', 3_260, true]]);
    expect(rest.closedQty).toBe(1);
    expect([pos.qty, pos.openCostMinor, pos.slot.openPositions], '1 left at 8,500 + 120').toEqual([1, 8_620, 1]);
    book.closeFifo(pos, '2024-05-11', 1, 0, 0, { bookRealized: () => undefined });
    expect([pos.side, pos.qty, pos.lots, pos.head, pos.openCostMinor, pos.slot.openPositions, pos.slot.members.size], 'flat: no side, no lots, out of the slot').toEqual([0, 0, [], 0, 0, 0, 0]);
  });

  it('a split scales every open lot and keeps the basis; a factor of 0 leaves the position flat; a flat one is left alone', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const pos = book.ofInstrument(ACCT, 'USD', STOCK);
    book.openLot(pos, '2024-05-01', 1, 10, 1_000_000, 0);
    book.openLot(pos, '2024-05-02', 1, 30, 3_300_000, 0);
    book.closeFifo(pos, '2024-05-03', 10, 1_200_000, 0, { bookRealized: () => undefined });
    book.scale(pos, 2);
    expect(lotsOf(pos), 'the closed first lot stays closed; the second doubled, its basis kept').toEqual([['2024-05-02', 60, 3_300_000]]);
    expect(pos.qty).toBe(60);
    book.scale(pos, 0);
    expect([pos.qty, pos.side, pos.lots.length, pos.slot.openPositions], 'gone').toEqual([0, 0, 0, 0]);
    book.scale(pos, 3);
    expect([pos.qty, pos.slot.openPositions], 'flat stays flat').toEqual([0, 0]);
  });

  it('a lot added by a corporate action takes its place by open day, same-day lots in FIFO order; on a flat position the old lots go', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const pos = book.ofInstrument(ACCT, 'USD', STOCK);
    book.openLot(pos, '2024-05-01', 1, 5, 500, 0);
    book.openLot(pos, '2024-05-03', 1, 5, 700, 0);
    book.addLot(pos, '2024-05-10', '2024-05-02', 1, 60, 0);
    book.addLot(pos, '2024-05-10', '2024-05-03', 2, 80, 0);
    expect(lotsOf(pos), 'by open day, the 05-03 lots in the order they came').toEqual([['2024-05-01', 5, 500], ['2024-05-02', 1, 60], ['2024-05-03', 5, 700], ['2024-05-03', 2, 80]]);
    expect([pos.qty, pos.openCostMinor, pos.side]).toEqual([13, 1_340, 1]);
    const flat = book.ofInstrument(ACCT, 'USD', { ...STOCK, symbol: 'NEW' });
    flat.lots = [{ qty: 0, grossMinor: 0, costsMinor: 0, openDay: '2024-01-01' }];
    flat.head = 1;
    book.addLot(flat, '2024-05-10', '2024-04-01', 3, 90, 0);
    expect([lotsOf(flat), flat.head], 'only the new lot').toEqual([[['2024-04-01', 3, 90]], 0]);
  });

  it('moved lots continue in the new position, merged with its own by open day; the old one is left flat', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const from = book.ofInstrument(ACCT, 'USD', STOCK);
    const to = book.ofInstrument(ACCT, 'USD', { ...STOCK, symbol: 'XYZ', underlying: storedTicker('XYZ') });
    book.openLot(from, '2024-05-01', 1, 4, 400, 4);
    book.openLot(from, '2024-05-05', 1, 6, 660, 6);
    book.openLot(to, '2024-05-03', 1, 1, 120, 1);
    book.closeFifo(from, '2024-05-06', 4, 500, 0, { bookRealized: () => undefined });
    book.moveLots(from, to);
    expect(lotsOf(to), 'the moved 05-05 lot after the 05-03 one; the closed 05-01 lot not moved').toEqual([['2024-05-03', 1, 120], ['2024-05-05', 6, 660]]);
    expect([to.qty, to.side, to.head, to.openCostMinor], '7 long at 120 + 1 + 660 + 6').toEqual([7, 1, 0, 787]);
    expect([from.qty, from.lots, from.openCostMinor, from.slot.openPositions], 'the old position flat').toEqual([0, [], 0, 0]);
  });

  it('open(): each open position with the value and costs of its open lots and its earliest open day; heldOf the shares and the options on them', () => {
    const { campaigns } = sink();
    const book = new PositionBook(campaigns);
    const shares = book.ofInstrument(ACCT, 'USD', STOCK);
    const put = book.ofInstrument(ACCT, 'USD', PUT);
    const other = book.ofInstrument(ACCT, 'USD', { ...STOCK, symbol: 'ABCD', underlying: storedTicker('ABCD') });
    book.openLot(shares, '2024-05-02', 1, 10, 1_000, 10);
    book.openLot(shares, '2024-05-03', 1, 10, 1_100, 10);
    book.closeFifo(shares, '2024-05-04', 5, 600, 0, { bookRealized: () => undefined });
    book.openLot(put, '2024-05-06', -1, 1, 300, 3);
    book.addLot(shares, '2024-05-07', '2024-04-30', 1, 90, 0);
    expect(book.open().map((p) => [p.symbol, p.quantity, p.entryGrossMinor, p.entryCostsMinor, p.openedDay]), 'the shares: 5 + 10 + 1 open; the short put').toEqual([
      // After the split lot's sort the open lots are 04-30 (1 at 90), 05-02 (5 left: 500 + 5) and 05-03 (1,100 + 10).
      ['ABC', 16, 1_690, 15, '2024-04-30'],
      [PUT.symbol, -1, 300, 3, '2024-05-06'],
    ]);
    expect(book.heldOf(ACCT, 'ABC'), 'the shares and the put on them, not ABCD').toEqual([shares, put]);
    expect(book.heldOf(ACCT, 'ABCD'), 'flat: nothing held').toEqual([]);
    expect(book.heldOf(asAccountId('other'), 'ABC')).toEqual([]);
    expect(other.qty).toBe(0);
  });

  it('a flat position left in a campaign\'s own slot opens in its underlying\'s slot again, after the sink is told', () => {
    const { campaigns, told } = sink();
    const book = new PositionBook(campaigns);
    const pos = book.ofInstrument(ACCT, 'USD', PUT);
    pos.slot = campaigns.slot(ACCT, 'ABC\u00002024-01-02', 'USD');
    book.openLot(pos, '2024-05-01', -1, 1, 100, 0);
    expect(pos.slot.key, 'the underlying\'s slot').toBe('ABC');
    expect(told, 'the expired campaign stranded, the slot active, on the lot\'s day').toEqual(['strand ABC 2024-05-01', 'active ABC 2024-05-01']);
    const open = book.ofInstrument(ACCT, 'USD', { ...PUT, symbol: 'ABC   240621P00040000', strike: 40 });
    book.openLot(open, '2024-05-02', -1, 1, 100, 0);
    open.slot = campaigns.slot(ACCT, 'ABC\u00002024-01-02', 'USD');
    book.openLot(open, '2024-05-03', -1, 1, 100, 0);
    expect(open.slot.key, 'an open position keeps its slot').toBe('ABC\u00002024-01-02');
  });
});

