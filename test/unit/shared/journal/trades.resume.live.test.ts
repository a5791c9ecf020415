/**
 * Trades whose walk is resumed at one of its checkpoints (docs/journal.md §Staying current) after a write in the middle
 * of the journal — rows of a day removed, added back, changed — are, bit for bit, the trades built from the new rows at
 * once: each trade's legs, outcome, P&L, max profit and loss, collateral, campaign, the open parts and the P&L outside
 * every trade. The walk resumes at the latest checkpoint at or before the write's day (fewer rows walked than the
 * journal's), and a book given before keeps its trades. Random sequences of such writes too.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { seededRandom } from '../../../../src-shared/demo/random';
import { buildLedger } from '../../../../src-shared/journal/ledger';
import type { Transaction } from '../../../../src-shared/journal/model';
import { instantMs } from '../../../../src-shared/journal/order';
import { LiveTrades, type TradeBook } from '../../../../src-shared/journal/trades';
import { stored } from '../../../journal-helpers';

const EVERY = 150;
const sortedRows = (rows: readonly Transaction[]) => [...rows].sort((a, b) => instantMs(a.tradeDate, a.tradeDay) - instantMs(b.tradeDate, b.tradeDay) || (a.id < b.id ? -1 : 1));
const campaignsOf = (rows: readonly Transaction[]) => buildLedger(rows, { reportingCurrency: 'USD' }).campaigns;

/** The walk of `live` resumed for the journal `after`, whose rows differ from `day` on; null when it cannot resume there. */
function resumed(live: LiveTrades, after: readonly Transaction[], day: string): { live: LiveTrades; book: TradeBook; position: number; replayed: number } | null {
  const point = live.resumePoint(day);
  if (point === null) return null;
  const rows = after.filter((t) => t.tradeDay >= point.day);
  const done = live.resume(point.at, rows, { campaigns: campaignsOf(after) });
  if (done === null) throw new Error('the resume was refused');
  return { ...done, position: point.position, replayed: rows.length };
}

describe('live trades resumed at a checkpoint', () => {
  const rows = sortedRows(stored(syntheticTransactions(4_000, 9), { fastDay: true }));
  const days = [...new Set(rows.map((t) => t.tradeDay))];
  const { live, book: whole } = LiveTrades.build(rows, { campaigns: campaignsOf(rows) }, EVERY);

  const fresh = (journal: readonly Transaction[]) => LiveTrades.build(journal, { campaigns: campaignsOf(journal) }).book;
  const checkpointDays = days.filter((_, i) => i % 7 === 3);
  const busiest = days.reduce((best, day) => (rows.filter((t) => t.tradeDay === day).length > rows.filter((t) => t.tradeDay === best).length ? day : best), days[0] ?? '');
  const picks: Array<[string, string]> = [
    ['the first day', days[0] ?? ''],
    ['a day a third in', days[Math.floor(days.length / 3)] ?? ''],
    ['the busiest day', busiest],
    ['a day in the middle', days[Math.floor(days.length / 2)] ?? ''],
    ['a day near the end', days[Math.floor(days.length * 0.9)] ?? ''],
    ['the last day', days[days.length - 1] ?? ''],
  ];

  it('keeps checkpoints, with open trades, rolls and covered calls to resume', () => {
    expect(live.resumePoint(days[days.length - 1] ?? '')?.at ?? 0).toBeGreaterThan(15);
    expect(whole.trades.filter((t) => t.status === 'open').length).toBeGreaterThan(0);
    expect(whole.trades.filter((t) => t.rolls > 0).length).toBeGreaterThan(0);
    expect(checkpointDays.length).toBeGreaterThan(3);
  });

  for (const [name, day] of picks) {
    it(`rows of ${name} removed, added back, one changed: each equals a fresh build`, () => {
      const frozen = structuredClone(whole);
      const without = rows.filter((t) => t.tradeDay !== day);
      const removed = resumed(live, without, day);
      if (day === days[0]) {
        expect(removed).toBeNull();
        return;
      }
      if (removed === null) throw new Error('no checkpoint before');
      expect(removed.book).toEqual(fresh(without));
      expect(removed.replayed).toBeLessThan(without.length);
      expect(removed.position).toBeGreaterThan(0);
      const back = resumed(removed.live, rows, day);
      expect(back?.book).toEqual(whole);
      const target = rows.find((t) => t.tradeDay === day && t.quantity !== 0);
      if (target !== undefined) {
        const edited = rows.map((t) => (t === target ? { ...t, quantity: t.quantity + 1 } : t));
        expect(resumed(live, edited, day)?.book).toEqual(fresh(edited));
      }
      expect(whole).toEqual(frozen);
    });
  }

  it('random sequences of writes at random days always equal a fresh build; extended after one too', () => {
    const random = seededRandom(33);
    let journal = rows.slice();
    let current = live;
    const pool = sortedRows(stored(syntheticTransactions(600, 10), { fastDay: true })).map((t) => ({ ...t, id: `extra:${t.id}` }));
    for (let step = 0; step < 10; step += 1) {
      const kind = Math.floor(random() * 3);
      const day = days[1 + Math.floor(random() * (days.length - 1))] ?? '';
      let next: Transaction[];
      if (kind === 0) next = journal.filter((t) => t.tradeDay !== day);
      else if (kind === 1) next = sortedRows([...journal, ...pool.filter((t) => t.tradeDay === day)]);
      else next = journal.map((t) => (t.tradeDay === day && t.quantity !== 0 ? { ...t, quantity: t.quantity + 1 } : t));
      const done = resumed(current, next, day);
      journal = next;
      if (done === null) {
        current = LiveTrades.build(journal, { campaigns: campaignsOf(journal) }, EVERY).live;
        continue;
      }
      current = done.live;
      expect(done.book, `step ${step}`).toEqual(fresh(journal));
    }
    const later = sortedRows(stored(syntheticTransactions(200, 13), { fastDay: true }))
      .filter((t) => t.tradeDay > (days[days.length - 1] ?? ''))
      .map((t) => ({ ...t, id: `later:${t.id}` }));
    const all = [...journal, ...later];
    if (later.length > 0) expect(current.extend(later, { campaigns: campaignsOf(all) })).toEqual(fresh(all));
  });
});
