/**
 * Builds fed in pieces (docs/journal.md §Reads during a build): a ledger or trades build walked a few rows at a time,
 * yielding between pieces, is bit for bit the build of every row at once (day figures, positions, realized P&L per
 * row, campaigns, checkpoints; each trade); so is a resume at a checkpoint. The pieces never split a day, keep every
 * row once, and the builds really yield between them (the worker answers reads there).
 */
import { describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../src-shared/demo/journal';
import { seededRandom } from '../../../../src-shared/demo/random';
import { buildLedger, LiveLedger } from '../../../../src-shared/journal/ledger';
import type { Transaction } from '../../../../src-shared/journal/model';
import { pieceRows, type Steps } from '../../../../src-shared/journal/pieces';
import { LiveTrades } from '../../../../src-shared/journal/trades';
import { decoded, stored } from '../../../journal-helpers';

const OPTIONS = { reportingCurrency: 'USD', checkpointEvery: 150 };
const PIECE = 97;

/** Runs a build to its end, counting the pieces it yielded after. */
function counted<T>(steps: Steps<T>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const next = steps.next();
    if (next.done === true) return { value: next.value, yields };
    yields += 1;
  }
}

/** The rows in a shuffled order (the builders sort them; the pieces must too). */
function shuffled(rows: readonly Transaction[], seed: number): Transaction[] {
  const random = seededRandom(seed);
  const out = rows.slice();
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const a = out[i];
    const b = out[j];
    if (a === undefined || b === undefined) continue;
    out[i] = b;
    out[j] = a;
  }
  return out;
}

describe('builds fed in pieces', () => {
  const rows = shuffled(stored(syntheticTransactions(3_000, 5), { fastDay: true }), 7);
  const rowids = rows.map((_, i) => i + 1);

  it('cuts the rows into pieces that keep every row once and never split a day', () => {
    const pieces = pieceRows(rows, rowids, PIECE);
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.flatMap((p) => p.rows.map((t) => t.id)).sort()).toEqual(rows.map((t) => t.id).sort());
    // Every rowid follows its row.
    const rowidOf = new Map(rows.map((t, i) => [t.id, rowids[i]]));
    for (const piece of pieces) piece.rows.forEach((t, i) => expect(piece.rowids?.[i]).toBe(rowidOf.get(t.id)));
    const dayPiece = new Map<string, number>();
    pieces.forEach((piece, n) => {
      for (const t of piece.rows) {
        expect(dayPiece.get(t.tradeDay) ?? n).toBe(n);
        dayPiece.set(t.tradeDay, n);
      }
    });
  });

  it('a ledger built in pieces equals the ledger of every row at once', () => {
    const once = LiveLedger.build(rows, OPTIONS, rowids).ledger;
    const { value, yields } = counted(LiveLedger.buildSteps(rows, OPTIONS, rowids, PIECE));
    expect(yields).toBeGreaterThan(10);
    expect(decoded(value.ledger)).toEqual(decoded(once));
    // And the plain build agrees on the figures (no live build involved).
    expect(value.ledger.realizedByTx).toEqual(buildLedger(rows, OPTIONS).realizedByTx);
  });

  it('a resume in pieces equals a resume at once, and the ledger of the new rows', () => {
    const { live, ledger } = LiveLedger.build(rows, OPTIONS, rowids);
    const days = [...new Set(rows.map((t) => t.tradeDay))].sort();
    const day = days[Math.floor(days.length / 3)] ?? '';
    // The rows of that day changed: one removed.
    const dropped = rows.find((t) => t.tradeDay === day);
    const after = rows.filter((t) => t !== dropped);
    const at = LiveLedger.resumePoint(ledger, day);
    expect(at).toBeGreaterThanOrEqual(0);
    const from = ledger.checkpoints?.checkpoints[at]?.day ?? '';
    const again = after.filter((t) => t.tradeDay >= from);
    const againIds = again.map((t) => rowids[rows.indexOf(t)] ?? -1);
    const whole = live.resume(ledger, at, again, againIds);
    const { value, yields } = counted(live.resumeSteps(ledger, at, again, againIds, PIECE));
    expect(yields).toBeGreaterThan(3);
    if (whole === null || value === null) throw new Error('the resume was refused');
    expect(decoded(value.ledger)).toEqual(decoded(whole.ledger));
    expect(value.ledger.realizedByTx).toEqual(buildLedger(after, OPTIONS).realizedByTx);
  });

  it('trades walked in pieces equal the trades of every row at once; so does a resume', () => {
    const options = { campaigns: buildLedger(rows, OPTIONS).campaigns };
    const once = LiveTrades.build(rows, options, 150);
    const { value, yields } = counted(LiveTrades.buildSteps(rows, options, 150, PIECE));
    expect(yields).toBeGreaterThan(10);
    expect(value.book).toEqual(once.book);
    const days = [...new Set(rows.map((t) => t.tradeDay))].sort();
    const point = value.live.resumePoint(days[Math.floor(days.length / 2)] ?? '');
    if (point === null) throw new Error('no checkpoint to resume at');
    const again = rows.filter((t) => t.tradeDay >= point.day);
    const resumedOnce = once.live.resume(point.at, again, options);
    const resumed = counted(value.live.resumeSteps(point.at, again, options, PIECE));
    expect(resumed.yields).toBeGreaterThan(3);
    expect(resumed.value?.book).toEqual(resumedOnce?.book);
  });
});
