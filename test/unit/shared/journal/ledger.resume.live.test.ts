/**
 * A live ledger resumed at a checkpoint (docs/journal.md §Staying current) after a write in the middle of the journal —
 * rows added, removed or changed on some day — is, bit for bit, the ledger built from the new rows at once: day figures,
 * positions and their lots, realized P&L per row, campaigns, rolls, unmatched closes, dividends outside campaigns,
 * warnings and checkpoints (their books decoded: a resumed build packs them into the codec it shares). The resume starts
 * at the latest checkpoint at or before the write's first day, and the ledgers published before it do not change.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { LiveLedger, type Ledger } from '../../../../src-shared/journal/ledger';
import type { Transaction } from '../../../../src-shared/journal/model';
import { instantMs } from '../../../../src-shared/journal/order';
import { seededRandom } from '../../../../src-shared/demo/random';
import { asMinor } from '../../../../src-shared/money';
import { decoded, stored } from '../../../journal-helpers';

const OPTIONS = { reportingCurrency: 'USD', checkpointEvery: 150 };

/** A resume that must happen (the synthetic journal has no corporate action). */
function resume(live: LiveLedger, before: Ledger, at: number, rows: readonly Transaction[]): { live: LiveLedger; ledger: Ledger } {
  const resumed = live.resume(before, at, rows);
  if (resumed === null) throw new Error('the resume was refused');
  return resumed;
}

const sortedRows = (rows: readonly Transaction[]) => [...rows].sort((a, b) => instantMs(a.tradeDate, a.tradeDay) - instantMs(b.tradeDate, b.tradeDay) || (a.id < b.id ? -1 : 1));

/** Resumes `live` (whose last ledger is `before`) for the journal `after`, whose rows differ from day `day` on. */
function resumed(live: LiveLedger, before: Ledger, after: readonly Transaction[], day: string): { ledger: Ledger; at: number; replayed: number } {
  const at = LiveLedger.resumePoint(before, day);
  if (at < 0) return { ledger: LiveLedger.build(after, OPTIONS).ledger, at, replayed: after.length };
  const from = before.checkpoints?.checkpoints[at]?.day ?? '';
  const rows = after.filter((t) => t.tradeDay >= from);
  return { ledger: resume(live, before, at, rows).ledger, at, replayed: rows.length };
}

describe('live ledger resumed at a checkpoint', () => {
  const rows = sortedRows(stored(syntheticTransactions(4_000, 11), { fastDay: true }));
  const days = [...new Set(rows.map((t) => t.tradeDay))];
  const { live, ledger: whole } = LiveLedger.build(rows, OPTIONS);
  const checkpoints = whole.checkpoints?.checkpoints ?? [];

  it('has checkpoints to resume from', () => {
    expect(checkpoints.length).toBeGreaterThan(15);
  });

  // Days around checkpoints (the day of one, the day before it), the first day, the busiest day, some days in between.
  const busiest = days.reduce((best, day) => (rows.filter((t) => t.tradeDay === day).length > rows.filter((t) => t.tradeDay === best).length ? day : best), days[0] ?? '');
  const cpDay = (n: number) => checkpoints[n]?.day ?? '';
  const dayBefore = (day: string) => days[Math.max(0, days.indexOf(day) - 1)] ?? '';
  const picks: Array<[string, string]> = [
    ['the first day', days[0] ?? ''],
    ['the day of a checkpoint', cpDay(5)],
    ['the day before a checkpoint', dayBefore(cpDay(9))],
    ['the day after a checkpoint', days[days.indexOf(cpDay(12)) + 1] ?? ''],
    ['the busiest day', busiest],
    ['the last day', days[days.length - 1] ?? ''],
    ['a day in the middle', days[Math.floor(days.length / 2)] ?? ''],
  ];

  for (const [name, day] of picks) {
    it(`rows of ${name} removed, then added back, then one changed: each equals a fresh build`, () => {
      const before = structuredClone(decoded(whole));
      const without = rows.filter((t) => t.tradeDay !== day);
      const removed = resumed(live, whole, without, day);
      expect(decoded(removed.ledger)).toEqual(decoded(LiveLedger.build(without, OPTIONS).ledger));
      const expected = LiveLedger.resumePoint(whole, day);
      expect(removed.at).toBe(expected);
      if (day !== days[0] && day >= cpDay(0)) {
        expect((checkpoints[removed.at]?.day ?? '') <= day).toBe(true);
        expect(checkpoints[removed.at + 1] === undefined || (checkpoints[removed.at + 1]?.day ?? '') > day).toBe(true);
        expect(removed.replayed).toBeLessThan(without.length);
      }
      // The write undone: the rows come back (the live build of `without` resumed).
      const builtWithout = LiveLedger.build(without, OPTIONS);
      const back = resumed(builtWithout.live, builtWithout.ledger, rows, day);
      expect(decoded(back.ledger)).toEqual(decoded(whole));
      // One row of the day changed (a manual edit): another quantity.
      const target = rows.find((t) => t.tradeDay === day && t.quantity !== 0);
      if (target !== undefined) {
        const edited = rows.map((t) => (t === target ? { ...t, quantity: t.quantity * 2, amountMinor: asMinor(t.amountMinor * 2) } : t));
        expect(decoded(resumed(live, whole, edited, day).ledger)).toEqual(decoded(LiveLedger.build(edited, OPTIONS).ledger));
      }
      expect(decoded(whole)).toEqual(before);
    });
  }

  it('a resumed build goes on: extended, and resumed again, it still equals a fresh build', () => {
    const day = days[Math.floor(days.length * 0.6)] ?? '';
    const cut = days[Math.floor(days.length * 0.9)] ?? '';
    const head = rows.filter((t) => t.tradeDay < cut);
    const built = LiveLedger.build(head.filter((t) => t.tradeDay !== day), OPTIONS);
    const at = LiveLedger.resumePoint(built.ledger, day);
    const from = built.ledger.checkpoints?.checkpoints[at]?.day ?? '';
    const step = resume(built.live, built.ledger, at, head.filter((t) => t.tradeDay >= from));
    const extended = step.live.extend(rows.filter((t) => t.tradeDay >= cut));
    expect(extended).not.toBeNull();
    expect(decoded(extended as Ledger)).toEqual(decoded(whole));
    const again = resumed(step.live, extended as Ledger, rows.filter((t) => t.tradeDay !== day), day);
    expect(decoded(again.ledger)).toEqual(decoded(LiveLedger.build(rows.filter((t) => t.tradeDay !== day), OPTIONS).ledger));
  });

  it('random sequences of writes at random days always equal a fresh build', () => {
    const random = seededRandom(32);
    let journal = rows.slice();
    let current = LiveLedger.build(journal, OPTIONS);
    const pool = sortedRows(stored(syntheticTransactions(600, 12), { fastDay: true })).map((t) => ({ ...t, id: `extra:${t.id}` }));
    for (let step = 0; step < 12; step += 1) {
      const kind = Math.floor(random() * 3);
      const day = days[Math.floor(random() * days.length)] ?? '';
      let next: Transaction[];
      if (kind === 0) next = journal.filter((t) => t.tradeDay !== day);
      else if (kind === 1) next = sortedRows([...journal, ...pool.filter((t) => t.tradeDay === day)]);
      else next = journal.map((t) => (t.tradeDay === day && t.quantity !== 0 ? { ...t, quantity: t.quantity + 1 } : t));
      const at = LiveLedger.resumePoint(current.ledger, day);
      if (at < 0) current = LiveLedger.build(next, OPTIONS);
      else {
        const from = current.ledger.checkpoints?.checkpoints[at]?.day ?? '';
        current = resume(current.live, current.ledger, at, next.filter((t) => t.tradeDay >= from));
      }
      journal = next;
      expect(decoded(current.ledger)).toEqual(decoded(LiveLedger.build(journal, OPTIONS).ledger));
    }
  });
});
