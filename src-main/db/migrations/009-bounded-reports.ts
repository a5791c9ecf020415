import type { Migration } from './migration';
import { MAX_REPORT_BYTES, readStoredReport, utf8Length } from '../../../src-shared/journal/import-report';

/**
 * Import reports bounded (docs/importers.md §Bounded): a report stored before kept every skipped line (a 46 MB export
 * of cancelled orders stored 43 MB, and a page of the history read several at once). Each larger report is rewritten
 * as today's import would store it: counts, counts by reason and the first lines of each reason, at most 64 KB.
 * Reports already that small are left as they are (they are read through the same reader).
 */
export const m009BoundedReports: Migration = {
  version: 9,
  name: 'bounded-reports',
  up(db) {
    const update = db.prepare<[string, number]>('UPDATE imports SET report_json = ? WHERE id = ?');
    // One row at a time: a database of many huge reports never has them all in memory.
    const ids = db.prepare<[number], number>('SELECT id FROM imports WHERE length(CAST(report_json AS BLOB)) > ?').pluck().all(MAX_REPORT_BYTES);
    const one = db.prepare<[number], string>('SELECT report_json FROM imports WHERE id = ?').pluck();
    for (const id of ids) {
      const json = one.get(id);
      if (json === undefined) continue;
      const compact = JSON.stringify(readStoredReport(json));
      if (utf8Length(compact) < utf8Length(json)) update.run(compact, id);
    }
  },
};
