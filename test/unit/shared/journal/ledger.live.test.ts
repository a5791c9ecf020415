/**
 * A live ledger (docs/journal.md §Staying current) extended with rows dated after its last day is, bit for bit, the
 * ledger built from all the rows at once: day figures, positions and their lots, realized P&L per row, campaigns and
 * their legs, rolls, unmatched closes, dividends outside campaigns, warnings and checkpoints. Rows of its last day or
 * before are refused (the caller builds again), and the ledgers published before an extension do not change.
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { buildLedger, LiveLedger, type Ledger } from '../../../../src-shared/journal/ledger';
import type { Transaction } from '../../../../src-shared/journal/model';
import { instantMs } from '../../../../src-shared/journal/order';
import { stored } from '../../../journal-helpers';

const OPTIONS = { reportingCurrency: 'USD', checkpointEvery: 150 };

/** The rows sorted by instant, cut at the first day boundary at or after `index`. */
function cutAt(rows: readonly Transaction[], index: number): { head: Transaction[]; tail: Transaction[] } {
  const sorted = [...rows].sort((a, b) => instantMs(a.tradeDate, a.tradeDay) - instantMs(b.tradeDate, b.tradeDay));
  let at = Math.min(index, sorted.length);
  while (at > 0 && at < sorted.length && sorted[at - 1]?.tradeDay === sorted[at]?.tradeDay) at += 1;
  return { head: sorted.slice(0, at), tail: sorted.slice(at) };
}

/** The ledger without its checkpoints' codec (the same object on both sides of a comparison is not compared). */
function comparable(ledger: Ledger) {
  const { checkpoints, ...rest } = ledger;
  return { ...rest, checkpoints: checkpoints === undefined ? undefined : { ...checkpoints, codec: null } };
}

describe('live ledger', () => {
  const rows = stored(syntheticTransactions(4_000, 7), { fastDay: true });
  const whole = LiveLedger.build(rows, OPTIONS).ledger;

  it('publishes what buildLedger builds (the codec aside: a live build never seals it)', () => {
    const built = buildLedger(rows, OPTIONS);
    const { checkpoints: a, ...restA } = whole;
    const { checkpoints: b, ...restB } = built;
    expect(restA).toEqual(restB);
    expect(a?.ids).toEqual(b?.ids);
    expect(a?.samplesMs).toEqual(b?.samplesMs);
    expect(a?.checkpoints.map((c) => ({ ...c, positions: a.codec.positionsOf(c.positions) }))).toEqual(b?.checkpoints.map((c) => ({ ...c, positions: b.codec.positionsOf(c.positions) })));
    expect(whole.checkpoints?.checkpoints.length).toBeGreaterThan(10);
  });

  for (const fraction of [0, 0.3, 0.5, 0.9, 0.999]) {
    it(`extended at ${fraction} of the rows (a day boundary), in one step and in three, equals the whole build`, () => {
      const { head, tail } = cutAt(rows, Math.floor(rows.length * fraction));
      const { live, ledger: before } = LiveLedger.build(head, OPTIONS);
      const frozen = structuredClone(comparable(before));
      const extended = live.extend(tail);
      expect(extended).not.toBeNull();
      expect(comparable(extended as Ledger)).toEqual(comparable(whole));
      // The ledger published before is untouched by the extension.
      expect(comparable(before)).toEqual(frozen);

      const steps = LiveLedger.build(head, OPTIONS).live;
      const third = cutAt(tail, Math.floor(tail.length / 3));
      const second = cutAt(third.tail, Math.floor(third.tail.length / 2));
      let last: Ledger | null = null;
      for (const part of [third.head, second.head, second.tail]) last = steps.extend(part);
      expect(comparable(last as Ledger)).toEqual(comparable(whole));
    });
  }

  it('refuses rows of its last day or before, and changes nothing then', () => {
    const { head, tail } = cutAt(rows, 2_000);
    const { live } = LiveLedger.build(head, OPTIONS);
    const lastOfHead = head[head.length - 1] as Transaction;
    expect(live.extend([...tail, { ...lastOfHead, id: 'same-day' }])).toBeNull();
    expect(live.extend([{ ...lastOfHead, id: 'same-day' }])).toBeNull();
    expect(comparable(live.extend(tail) as Ledger)).toEqual(comparable(whole));
  });
});
