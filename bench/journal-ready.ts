/**
 * journal.ready_* (issue 32): how long after an import into a 100,000-transaction journal Positions and the first page
 * of Trades answer, in process through the journal service as the worker runs it. 1,000 generated rows (the generator
 * of bench/journal.ts) are imported dated after the journal's last day (`append`) or in its middle (`middle`), then the
 * first /positions and the first trades page are read. Beside each, in the same run, the same two reads after the
 * caches are dropped (a full rebuild): the ratio holds on a loaded machine where the absolute times move.
 */
import { pathToFileURL } from 'node:url';
import { syntheticTransactions } from '../src-shared/demo/journal';
import type { ImportedTransaction } from '../src-shared/journal/model';
import { openDatabase } from '../src-main/db/open';
import { writeNow } from '../src-main/db/writes';
import { JournalService } from '../src-main/services/journal/service';
import { DEFAULT_SETTINGS } from '../src-main/settings';
import { against, atMost, median, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';
import { toGenericCsv } from './journal';

const COUNT = 100_000;
const ADDED = 1_000;
/** Timed rounds per line (BENCH_READY_RUNS: fewer while developing on a loaded machine). */
const RUNS = Number(process.env.BENCH_READY_RUNS) || 3;

/** The generated rows split at a day boundary: `head` the journal, `tail` the 1,000 rows imported after it. */
function split(where: 'append' | 'middle'): { head: ImportedTransaction[]; tail: ImportedTransaction[] } {
  const rows = syntheticTransactions(COUNT + ADDED).sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
  const dayOf = (row: ImportedTransaction | undefined) => row?.tradeDate.slice(0, 10) ?? '';
  // The first row of a day at or after the wanted start, and the rows of whole days from there.
  let start = where === 'append' ? rows.length - ADDED : Math.floor(rows.length / 2);
  while (start > 0 && dayOf(rows[start - 1]) === dayOf(rows[start])) start -= 1;
  let end = Math.min(rows.length, start + ADDED);
  if (where === 'append') end = rows.length;
  const tail = rows.slice(start, end);
  return { head: [...rows.slice(0, start), ...rows.slice(end)], tail };
}

async function ready(where: 'append' | 'middle'): Promise<{ readyMs: number; fullMs: number; baseMs: number; rows: number }> {
  const { head, tail } = split(where);
  const { db } = openDatabase(':memory:');
  const settings = { ...DEFAULT_SETTINGS };
  const service = new JournalService(db, () => settings, { nowMs: () => Date.parse('2026-06-01T00:00:00Z'), monotonicMs: () => performance.now() });
  const imported = writeNow(db, (turn) => service.importFile(turn, { text: toGenericCsv(head), accountName: 'bench' }));
  if (!imported.ok) throw new Error('bench journal.ready: the journal was refused');
  const text = toGenericCsv(tail);
  const reads = () => {
    const positions = service.positions({});
    if (!positions.ok) throw new Error('bench journal.ready: positions failed');
    const trades = service.trades.trades({ page: 1, limit: 100 });
    if (!trades.ok) throw new Error('bench journal.ready: trades failed');
  };
  reads();
  const readySamples: number[] = [];
  const fullSamples: number[] = [];
  // A baseline beside each timed round (baselines.ts): a loaded machine stretches both.
  const base = baselines().cpu;
  const baseSamples: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const start = performance.now();
    const added = writeNow(db, (turn) => service.importFile(turn, { text, accountName: 'bench' }));
    if (!added.ok) throw new Error('bench journal.ready: the rows were refused');
    reads();
    readySamples.push(performance.now() - start);
    baseSamples.push(sampleMs(base, readySamples[readySamples.length - 1] ?? 0));
    // The same reads after a full rebuild, with the same rows.
    const fullStart = performance.now();
    service.invalidate();
    reads();
    fullSamples.push(performance.now() - fullStart);
    // Back to the journal alone (untimed), its caches warm as after a read.
    writeNow(db, (turn) => service.undoImport(turn, added.value.id));
    reads();
  }
  db.close();
  return { readyMs: median(readySamples), fullMs: median(fullSamples), baseMs: median(baseSamples), rows: tail.length };
}

export async function benchJournalReady(): Promise<BenchLine[]> {
  const lines: BenchLine[] = [];
  for (const [where, budget] of [['append', 1000], ['middle', 4000]] as const) {
    const { readyMs, fullMs, baseMs, rows } = await ready(where);
    const line = atMost(`journal.ready_${where}_ms`, readyMs, 'ms', budget, `import ${rows} rows ${where === 'append' ? 'after the last day' : 'in the middle'} of a ${COUNT}-row journal + first positions + first trades page; a full rebuild's reads ${fullMs.toFixed(0)} ms (ratio ${(readyMs / fullMs).toFixed(2)})`);
    lines.push(against(line, baselines().cpu, baseMs));
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchJournalReady()) {
    process.stdout.write(`${line.info ? 'info' : line.ok ? 'ok  ' : 'MISS'} ${line.name.padEnd(34)} ${String(line.value).padStart(10)} ${line.unit} budget ${line.budget}${line.ratio ? `; ${line.ratio.value} × ${line.ratio.baseline} (budget ${line.ratio.budget})` : ''}  (${line.detail ?? ''})\n`);
  }
}
