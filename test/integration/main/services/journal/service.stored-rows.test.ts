/**
 * Issue 32: what an import stores, column for column and in its rowid order, is the parsed file mapped the plain way
 * (toRow, one object per row) with ids, accounts and trade days computed here independently of the import's hot path
 * (sha256 written out as ids.test.ts does, the New York day read from luxon): whatever the insert loop does to be fast
 * (statements with constants in their text, positional binding, the day of the row before) cannot change a stored
 * row unnoticed. Every real broker file (read from ../shared/fixtures/brokers, never copied) and a generated journal
 * of the bench's generic CSV whose rows are minutes apart across a DST change.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { toRow, TRANSACTIONS, type TransactionRow } from '../../../../../src-main/db/transactions';
import { writeNow } from '../../../../../src-main/db/writes';
import { JournalService } from '../../../../../src-main/services/journal/service';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { syntheticTransactions } from '../../../../../src-shared/demo/journal';
import { toGenericCsv } from '../../../../../bench/journal';
import { manualClock } from '../../../../clock';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';

const FILES = readdirSync(BROKER_FIXTURES_SHARED).filter((name) => name.endsWith('.csv') && !name.includes('EXPECTED')).sort();

const dir = mkdtempSync(join(tmpdir(), 'strikebook-stored-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** docs/journal.md: a row's id digests its source, account name and broker row id; an account's its broker and name. */
const referenceId = (source: string, accountName: string, brokerRowId: string): string => `tx_${sha256([source, accountName, brokerRowId].join('\u0000')).slice(0, 32)}`;
const referenceAccountId = (source: string, accountName: string): string => `acc_${sha256([source.split('-')[0] ?? source, accountName].join('\u0000')).slice(0, 16)}`;

/** The parsed file as the journal should hold it: in file order, a row whose id came before left out (INSERT OR IGNORE). */
function expectedRows(service: JournalService, text: string, importId: number): TransactionRow[] {
  const parsed = service.parse({ text });
  if (!parsed.ok) throw new Error(`refused: ${parsed.error.kind}`);
  const seen = new Set<string>();
  const rows: TransactionRow[] = [];
  for (const { transaction: tx } of parsed.value.result.transactions) {
    const id = referenceId(tx.source, tx.accountName, tx.brokerRowId);
    if (seen.has(id)) continue;
    seen.add(id);
    const tradeDay = DateTime.fromISO(tx.tradeDate, { zone: DEFAULT_SETTINGS.timeZone }).toISODate() ?? '';
    rows.push(toRow(tx, { id, importId, accountId: referenceAccountId(tx.source, tx.accountName), tradeDay }));
  }
  return rows;
}

function importAndRead(name: string, text: string): { stored: TransactionRow[]; expected: TransactionRow[] } {
  const db = openDatabase(join(dir, `${name}.db`)).db;
  try {
    const service = new JournalService(db, () => ({ ...DEFAULT_SETTINGS }), manualClock('2100-01-01T00:00:00Z'));
    const imported = writeNow(db, (turn) => service.importFile(turn, { text, filename: name }));
    if (!imported.ok) throw new Error(`${name}: refused (${imported.error.kind})`);
    const stored = db.prepare<[], TransactionRow>(`SELECT ${TRANSACTIONS.columnList} FROM transactions ORDER BY rowid`).all();
    return { stored, expected: expectedRows(service, text, imported.value.id) };
  } finally {
    db.close();
  }
}

describe('an import stores the parsed rows, mapped the plain way (issue 32)', () => {
  it.each(FILES)('%s', (name) => {
    const { stored, expected } = importAndRead(name, readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8'));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(expected);
  });

  it('a generated journal in the generic CSV, rows minutes apart across the 2024 fall-back', () => {
    const start = Date.parse('2024-11-02T12:00:00Z');
    const transactions = syntheticTransactions(3_000, 7).map((tx, index) => ({ ...tx, tradeDate: new Date(start + index * 97_000).toISOString() }));
    const { stored, expected } = importAndRead('synthetic', toGenericCsv(transactions));
    expect(stored).toHaveLength(3_000);
    expect(new Set(stored.map((row) => row.trade_day)).size).toBeGreaterThan(2);
    expect(stored).toEqual(expected);
  });
});
