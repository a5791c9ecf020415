/**
 * Child process of kill-import.test.ts: imports 20,000 generated rows into the data folder given as argv[2],
 * announcing "halfway" on stdout after 5,000 rows have been handed to the store, inside its open transaction,
 * then pausing so that the parent can SIGKILL it there.
 */
import { syntheticTransactions } from '../../../src-shared/demo/journal';
import { NO_NOTES } from '../../../src-shared/journal/import-report';
import { systemClock } from '../../../src-main/clock';
import { openDataFolder } from '../../../src-main/context';
import { JournalService } from '../../../src-main/services/journal/service';
import type { ParsedRow } from '../../../src-main/importers/types';
import { writeNow } from '../../../src-main/db/writes';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: kill-import.child.ts <dataDir>');
// In this thread, as the CLI imports: the iterator below pauses the import inside its transaction.
const folder = openDataFolder({ dataDir, busyTimeoutMs: 5000 });
const journal = new JournalService(folder.db, () => folder.settings, systemClock);
const rows: ParsedRow[] = syntheticTransactions(20_000, 9).map((transaction, index) => ({ line: index + 2, transaction }));
const pausing: ParsedRow[] = Object.assign([...rows], {
  *[Symbol.iterator]() {
    for (let i = 0; i < rows.length; i += 1) {
      if (i === 5_000) {
        process.stdout.write('halfway\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
      }
      const row = rows[i];
      if (row) yield row;
    }
  },
});
writeNow(folder.db, (turn) => journal.store(turn, 'generic', 'generic-csv', pausing, rows.length, NO_NOTES, 'big.csv'));
process.stdout.write('done\n');
folder.db.close();
