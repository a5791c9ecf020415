/**
 * The journal stays current without a build from the first row (docs/journal.md §Staying current), and what it
 * answers is what a build of the same rows from scratch answers, bit for bit. For every real broker file (read from
 * ../shared/fixtures/brokers) and a generated journal, the rows are split at several days (the first, the middle, just
 * after a checkpoint, the last): the head imported, read, then the tail imported; the ledger and the trades after it
 * equal those of a fresh index over the same database. The tail in the middle of the history, an undo, and manual rows
 * added, edited and deleted likewise. Rows all dated after the ledger's last day extend it (no build from the first
 * row: counted); a write in the middle (an import, its undo, a manual row added, edited, deleted) resumes the ledger and
 * the trades at the latest checkpoint before its first day (counted: no build from the first row, fewer rows walked).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { writeNow } from '../../../../../src-main/db/writes';
import { JournalIndex } from '../../../../../src-main/services/journal/ledger-index';
import { JournalService, type ParsedImport } from '../../../../../src-main/services/journal/service';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { LiveLedger, type Ledger } from '../../../../../src-shared/journal/ledger';
import { LiveTrades } from '../../../../../src-shared/journal/trades';
import { syntheticTransactions } from '../../../../../src-shared/demo/journal';
import type { ManualTransactionT } from '../../../../../src-shared/api/manual-schemas';
import { dayOfInstant } from '../../../../../src-shared/zone';
import { manualClock } from '../../../../clock';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';
import type { ParsedRow } from '../../../../../src-main/importers/types';

const present = existsSync(BROKER_FIXTURES_SHARED);
if (!present) console.warn(`skipping the live-ledger class test: ${BROKER_FIXTURES_SHARED} is absent`);
const FILES = present ? readdirSync(BROKER_FIXTURES_SHARED).filter((name) => name.endsWith('.csv') && !name.includes('EXPECTED')).sort() : [];

/** Rows between checkpoints here: the real files are small (a few hundred rows), and a write in their middle resumes at one. */
const EVERY = 40;

function journal() {
  const { db } = openDatabase(':memory:');
  const settings = { ...DEFAULT_SETTINGS };
  const service = new JournalService(db, () => settings, manualClock('2100-01-01T00:00:00Z'));
  indexOf(service).checkpointEvery = EVERY;
  return { db, service, settings };
}

const indexOf = (service: JournalService) => (service as unknown as { index: JournalIndex }).index;

/**
 * After a write of rows of `day` and later, the reads (positions, a trades page) resume the ledger and the trades at
 * the latest checkpoint at or before `day` (none built from the first row, fewer rows walked than the journal's) when
 * the ledger before the write had one.
 */
function expectResumed(j: Journal, ledger: Ledger, day: string, label: string): void {
  const index = indexOf(j.service);
  const before: Ledger = { ...ledger, checkpoints: index.liveCheckpoints() };
  const at = LiveLedger.resumePoint(before, day);
  const resumesBefore = index.resumes.length;
  const tradesBefore = j.service.trades.resumes;
  const rebuilt = builds(() => {
    j.service.positions({});
    j.service.trades.trades({ page: 1, limit: 100 });
  });
  const checkpoint = before.checkpoints?.checkpoints[at];
  // No checkpoint before the day (a small file, corporate actions), or the write brought corporate actions: built from
  // the first row (docs/journal.md §Staying current), or extended (rows after its last day).
  if (checkpoint === undefined || index.ledger().actionOutcomes.size > 0) return;
  expect(rebuilt, `${label}: resumed, not built from the first row`).toBe(0);
  const resume = index.resumes[index.resumes.length - 1];
  expect(index.resumes.length, `${label}: one resume`).toBe(resumesBefore + 1);
  expect(resume?.position, `${label}: at the checkpoint before ${day}`).toBe(checkpoint.position);
  expect(resume?.rows ?? Infinity, `${label}: fewer rows walked than the journal's`).toBeLessThan(index.ledger().transactionCount);
  expect(j.service.trades.resumes, `${label}: the trades resumed`).toBe(tradesBefore + 1);
}

type Journal = ReturnType<typeof journal>;

/**
 * The ledger without its checkpoints: the book drops them from the base ledger once it builds the complete one with
 * the inferred expirations (book.ts); the live ledger's own are compared in test/unit/shared/journal/ledger.live.test.ts.
 */
function comparable(ledger: Ledger) {
  const { checkpoints: _checkpoints, ...rest } = ledger;
  return rest;
}

/** What the service answers now against a build of the same database from scratch: the ledger, positions, trades, stats. */
function expectCurrent(j: Journal, label: string): void {
  const fresh = new JournalService(j.db, () => j.settings, manualClock('2100-01-01T00:00:00Z'));
  const index = (j.service as unknown as { index: JournalIndex }).index;
  const freshIndex = new JournalIndex(j.db, () => j.settings.reportingCurrency);
  expect(index.snapshot(), `${label}: the newest-first index`).toEqual(freshIndex.snapshot());
  expect(comparable(index.ledger()), `${label}: ledger`).toEqual(comparable(freshIndex.ledger()));
  expect(j.service.positions({}), `${label}: positions`).toEqual(fresh.positions({}));
  expect(j.service.trades.tradeBook().book, `${label}: trades`).toEqual(fresh.trades.tradeBook().book);
  expect(j.service.trades.stats({ groupBy: 'strategy' }), `${label}: stats`).toEqual(fresh.trades.stats({ groupBy: 'strategy' }));
  expect(j.service.summary(undefined), `${label}: summary`).toEqual(fresh.summary(undefined));
}

function store(j: Journal, parsed: ParsedImport, rows: readonly ParsedRow[]): number {
  const { result } = parsed;
  return writeNow(j.db, (turn) => j.service.store(turn, result.broker, result.source, rows, rows.length, { skipped: [], skippedCount: 0, skippedReasons: [], warnings: [], warningCount: 0, merged: [], mergedCount: 0 }, null)).id;
}

const dayOf = (row: ParsedRow) => dayOfInstant(row.transaction.tradeDate, DEFAULT_SETTINGS.timeZone);

/** The file's rows split before the first row of `day`: the head, and the tail from that day on. */
function splitAt(rows: readonly ParsedRow[], day: string): { head: ParsedRow[]; tail: ParsedRow[] } {
  return { head: rows.filter((row) => dayOf(row) < day), tail: rows.filter((row) => dayOf(row) >= day) };
}

/** Days to split at: the first, the middle, the last, and the days just after a checkpoint of the whole file's build. */
function cutDays(rows: readonly ParsedRow[], ledger: Ledger): string[] {
  const days = [...new Set(rows.map(dayOf))].sort();
  const picks = new Set([days[0], days[Math.floor(days.length / 2)], days[days.length - 1]]);
  for (const checkpoint of (ledger.checkpoints?.checkpoints ?? []).slice(0, 2)) picks.add(checkpoint.day);
  return [...picks].filter((day): day is string => day !== undefined);
}

/**
 * Counts the builds from the first row of the journal's ledger (the index's) and of the trades during `fn`. The book's
 * complete ledger, when it differs from the journal's (inferred expirations, naked calls' spots), walks on or resumes
 * only while its inferred expirations stay the same: it is compared, not counted.
 */
function builds(fn: () => void): number {
  const ledgers = vi.spyOn(JournalIndex.prototype as unknown as { build: () => Ledger }, 'build');
  const trades = vi.spyOn(LiveTrades, 'build');
  try {
    fn();
    return ledgers.mock.calls.length + trades.mock.calls.length;
  } finally {
    ledgers.mockRestore();
    trades.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

function checkSplits(parsed: ParsedImport, label: string): void {
  const rows = parsed.result.transactions;
  const whole = journal();
  store(whole, parsed, rows);
  const wholeLedger = (whole.service as unknown as { index: JournalIndex }).index.ledger();
  for (const day of cutDays(rows, wholeLedger)) {
    const { head, tail } = splitAt(rows, day);
    const j = journal();
    store(j, parsed, head);
    j.service.positions({});
    j.service.trades.tradeBook();
    store(j, parsed, tail);
    // A head with rows: the tail comes after its last day and extends it.
    const rebuilt = builds(() => {
      j.service.positions({});
      j.service.trades.trades({ page: 1, limit: 100 });
    });
    expectCurrent(j, `${label} split at ${day}`);
    if (head.length > 0) expect(rebuilt, `${label} split at ${day}: extended, not built again`).toBe(0);
    j.db.close();
  }
  // The middle imported last (dated before the last day: built again from the start), then undone.
  const days = [...new Set(rows.map(dayOf))].sort();
  if (days.length >= 3) {
    const from = days[Math.floor(days.length / 3)] ?? '';
    const to = days[Math.floor((2 * days.length) / 3)] ?? '';
    const middle = rows.filter((row) => dayOf(row) >= from && dayOf(row) <= to);
    const rest = rows.filter((row) => dayOf(row) < from || dayOf(row) > to);
    const j = journal();
    store(j, parsed, rest);
    j.service.positions({});
    j.service.trades.tradeBook();
    const before = indexOf(j.service).ledger();
    const id = store(j, parsed, middle);
    expectResumed(j, before, from, `${label} middle`);
    expectCurrent(j, `${label} middle`);
    const withMiddle = indexOf(j.service).ledger();
    writeNow(j.db, (turn) => j.service.undoImport(turn, id));
    expectResumed(j, withMiddle, from, `${label} middle undone`);
    expectCurrent(j, `${label} middle undone`);
    j.db.close();
  }
  whole.db.close();
}

describe('the journal stays current: the real broker files', () => {
  for (const name of FILES) {
    it(`${name}: split at several days, in the middle, undone: equal to a build from scratch`, () => {
      const j = journal();
      const parsed = j.service.parse({ text: readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8') });
      j.db.close();
      if (!parsed.ok) return;
      checkSplits(parsed.value, name);
    });
  }
});

describe('the journal stays current: a generated journal and manual rows', () => {
  const csv = (rows: ReturnType<typeof syntheticTransactions>) =>
    `id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency,orderId,description,multiplier,previousSymbol\n${rows
      .map((tx) => [tx.brokerRowId, tx.tradeDate, tx.accountName, tx.type, tx.symbol, tx.underlying, tx.quantity, tx.priceMinor / 10_000, tx.commissionMinor / 10_000, tx.feesMinor / 10_000, tx.amountMinor / 10_000, tx.currency, tx.orderId ?? '', 'generated', tx.multiplier, tx.previousSymbol ?? ''].join(','))
      .join('\n')}\n`;

  it('a generated journal split at several days equals its build from scratch', () => {
    const j = journal();
    const parsed = j.service.parse({ text: csv(syntheticTransactions(4_000, 11)) });
    j.db.close();
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error).slice(0, 300));
    checkSplits(parsed.value, 'generated');
  }, 600_000);

  it('manual rows: added after the last day extend; edited, deleted, added before, undone build again; all equal', () => {
    const j = journal();
    const parsed = j.service.parse({ text: csv(syntheticTransactions(3_000, 12)) });
    if (!parsed.ok) throw new Error('refused');
    store(j, parsed.value, parsed.value.result.transactions);
    j.service.positions({});
    j.service.trades.trades({});
    const account = j.service.accounts().accounts[0]?.name ?? '';
    const row = (date: string, type: ManualTransactionT['type'], quantity: number): ManualTransactionT =>
      ({ account, type, symbol: 'KO', date, quantity, price: 61.25, commission: 1, fees: 0, currency: 'USD' }) as ManualTransactionT;
    const add = (rows: ManualTransactionT[]) => {
      const checked = j.service.manual.check(rows, () => '');
      if (!checked.ok) throw new Error(JSON.stringify(checked.error));
      const added = writeNow(j.db, (turn) => j.service.manual.add(turn, checked.value));
      if (!added.ok) throw new Error(JSON.stringify(added.error));
      return added.value;
    };
    const late = add([row('2030-01-02T15:00:00Z', 'BUY', 100)]);
    expect(builds(() => {
      j.service.positions({});
      j.service.trades.trades({});
    })).toBe(0);
    expectCurrent(j, 'manual added after the last day');
    const second = add([row('2030-01-03T15:00:00Z', 'SELL', 40)]);
    expect(builds(() => {
      j.service.positions({});
      j.service.trades.trades({});
    })).toBe(0);
    expectCurrent(j, 'a second manual row after it');
    let before = indexOf(j.service).ledger();
    add([row('2021-06-01T15:00:00Z', 'BUY', 10)]);
    expectResumed(j, before, '2021-06-01', 'manual added in the middle');
    expectCurrent(j, 'manual added in the middle');
    const checked = j.service.manual.check([row('2030-01-02T16:00:00Z', 'BUY', 80)], () => '');
    if (!checked.ok || checked.value[0] === undefined) throw new Error('refused');
    const entry = checked.value[0];
    before = indexOf(j.service).ledger();
    writeNow(j.db, (turn) => j.service.manual.replace(turn, late.ids[0] ?? '', entry));
    expectResumed(j, before, '2030-01-02', 'manual edited');
    expectCurrent(j, 'manual edited');
    // An edit that moves the row to an earlier day resumes before that day.
    const earlierRow = j.service.manual.check([row('2021-09-01T15:00:00Z', 'BUY', 80)], () => '');
    if (!earlierRow.ok || earlierRow.value[0] === undefined) throw new Error('refused');
    const moved = earlierRow.value[0];
    before = indexOf(j.service).ledger();
    writeNow(j.db, (turn) => j.service.manual.replace(turn, late.ids[0] ?? '', moved));
    expectResumed(j, before, '2021-09-01', 'manual moved to an earlier day');
    expectCurrent(j, 'manual moved to an earlier day');
    before = indexOf(j.service).ledger();
    writeNow(j.db, (turn) => j.service.manual.remove(turn, late.ids[0] ?? ''));
    expectResumed(j, before, '2021-09-01', 'manual deleted');
    expectCurrent(j, 'manual deleted');
    // The import of the deleted row went with it: nothing to undo.
    writeNow(j.db, (turn) => j.service.undoImport(turn, late.importId));
    expectCurrent(j, 'manual import undone');
    before = indexOf(j.service).ledger();
    writeNow(j.db, (turn) => j.service.undoImport(turn, second.importId));
    expectResumed(j, before, '2030-01-03', 'the second manual import undone');
    expectCurrent(j, 'the second manual import undone');
    j.db.close();
  }, 600_000);
});
