import { isColumnsPayload, packColumns } from '../snapshot-columns';
import { unpackContracts } from '../snapshot-payload';
import type { Migration } from './migration';

/**
 * Stored snapshots in the column form (db/snapshot-columns.ts; docs/decisions.md, "Snapshots stored as columns of
 * numbers"): every payload still in the deflated JSON form is rewritten as columns, contract for contract, its digest
 * kept (db/snapshot-payload.ts, snapshotDigest: it hashes the JSON form, so the lake's footers and the duplicates it finds
 * stay the same). About 25 ms of CPU per SPX chain, once. A payload that does not decode is left as it is: reading it
 * names it damaged, as before.
 */
export const m017SnapshotColumns: Migration = {
  version: 17,
  name: 'snapshot-columns',
  up(db) {
    // One row at a time: a data folder of a thousand SPX chains never holds more than one in memory.
    const ids = db.prepare<[], number>('SELECT id FROM snapshots ORDER BY id').pluck().all();
    const read = db.prepare<[number], Buffer>('SELECT payload FROM snapshots WHERE id = ?').pluck();
    const write = db.prepare<[Buffer, number]>('UPDATE snapshots SET payload = ? WHERE id = ?');
    for (const id of ids) {
      const payload = read.get(id);
      if (payload === undefined || isColumnsPayload(payload)) continue;
      let columns: Buffer;
      try {
        columns = packColumns(unpackContracts(payload));
      } catch {
        continue;
      }
      write.run(columns, id);
    }
  },
};
