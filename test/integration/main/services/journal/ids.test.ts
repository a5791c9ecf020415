/**
 * The journal's row ids are digests users' data depends on (re-imports deduplicate by them, notes and tags hang on
 * them): every real broker file, and the generic CSV of the bench's generated journal, imported through the journal
 * service, stores each row under the id the reference below computes from what was stored (sha256 of source, account
 * name and broker row id joined by NUL, its first 32 hex digits), every row of the file once, and a second import of
 * the same file stores nothing. The reference is written out here, independently of ids.ts, so that a faster
 * digest on the import's hot path (issue 32) cannot change an id unnoticed.
 * The real files are read from ../shared/fixtures/brokers (they may not be copied into the repository).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { writeNow } from '../../../../../src-main/db/writes';
import { JournalService } from '../../../../../src-main/services/journal/service';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { syntheticTransactions } from '../../../../../src-shared/demo/journal';
import { toGenericCsv } from '../../../../../bench/journal';
import { manualClock } from '../../../../clock';
import { BROKER_FIXTURES_SHARED } from '../../../../paths';

const FILES = readdirSync(BROKER_FIXTURES_SHARED).filter((name) => name.endsWith('.csv') && !name.includes('EXPECTED')).sort();

const dir = mkdtempSync(join(tmpdir(), 'strikebook-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The id of a stored row as the journal has always made it (docs/journal.md: ids are stable across versions). */
function referenceId(source: string, accountName: string, brokerRowId: string): string {
  return `tx_${createHash('sha256').update([source, accountName, brokerRowId].join('\u0000')).digest('hex').slice(0, 32)}`;
}

function importTwice(name: string, text: string): { rows: Array<{ id: string; source: string; name: string; broker_row_id: string }>; parsed: number; again: number } {
  const db = openDatabase(join(dir, `${name}.db`)).db;
  try {
    const service = new JournalService(db, () => ({ ...DEFAULT_SETTINGS }), manualClock('2100-01-01T00:00:00Z'));
    const first = writeNow(db, (turn) => service.importFile(turn, { text, filename: name }));
    if (!first.ok) throw new Error(`${name}: refused (${first.error.kind})`);
    const parsed = service.parse({ text });
    if (!parsed.ok) throw new Error(`${name}: refused on the second parse`);
    const again = writeNow(db, (turn) => service.importFile(turn, { text, filename: name }));
    if (!again.ok) throw new Error(`${name}: refused the second time`);
    const rows = db
      .prepare<[], { id: string; source: string; name: string; broker_row_id: string }>('SELECT t.id, t.source, a.name, t.broker_row_id FROM transactions t JOIN accounts a ON a.id = t.account_id ORDER BY t.rowid')
      .all();
    return { rows, parsed: parsed.value.result.transactions.length, again: again.value.imported };
  } finally {
    db.close();
  }
}

describe('transaction ids (issue 32: the import hot path keeps every digest)', () => {
  it.each(FILES)('%s: every stored row has the reference id of its source, account and row id; a re-import adds nothing', (name) => {
    const { rows, parsed, again } = importTwice(name, readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8'));
    expect(rows.length).toBeGreaterThan(0);
    // Every transaction the file holds, once: two rows of the file never share an id.
    expect(rows.length).toBe(parsed);
    for (const row of rows) expect(row.id).toBe(referenceId(row.source, row.name, row.broker_row_id));
    expect(again).toBe(0);
  });

  it("the bench's generated generic CSV (2,000 rows): the same", () => {
    const { rows, parsed, again } = importTwice('generic', toGenericCsv(syntheticTransactions(2_000, 42)));
    expect(parsed).toBe(2_000);
    expect(rows).toHaveLength(2_000);
    for (const row of rows) expect(row.id).toBe(referenceId(row.source, row.name, row.broker_row_id));
    expect(again).toBe(0);
  });
});
