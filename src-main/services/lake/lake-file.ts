/**
 * One lake file read from its bytes in memory (a backfill of a lake, docs/exposure.md §Chains that arrive by
 * themselves): its footer checked as `strikebook chain import` checks it (import.ts, checkLakeFooter), then its rows
 * read back into the snapshot they were exported from (rows.ts, SnapshotRows). Runs in the exposure worker: the
 * backfill reads the file (hashing it as it reads) and moves its bytes there, so that nothing of the decoding holds
 * the server's event loop.
 */
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import { checkLakeFooter } from './import';
import { footerOfBytes, rowGroupsOfBytes } from '../../lake/parquet';
import { SnapshotRows } from '../../lake/rows';
import type { SnapshotFileMeta } from '../../lake/tables';

/** What a lake file is: a snapshot's contracts (with its footer's metadata), another table of the lake, or refused. */
export type LakeFileKind = { kind: 'contracts'; meta: SnapshotFileMeta } | { kind: 'other' } | { kind: 'refused'; problems: string[] };

/** A lake file's footer (the tail of its bytes) checked: what it holds, without reading its rows. */
export function lakeFileKind(bytes: Uint8Array): LakeFileKind {
  const checked = checkLakeFooter(() => footerOfBytes(bytes), () => bytes.byteLength);
  if (checked === 'ignored') return { kind: 'other' };
  if ('problems' in checked) return { kind: 'refused', problems: checked.problems };
  return { kind: 'contracts', meta: checked.meta };
}

/** A contracts file's snapshot, or the problems that refuse it (the footer's, then the rows'). */
export async function lakeSnapshotOfBytes(bytes: Uint8Array): Promise<{ ok: true; snapshot: ChainSnapshot; meta: SnapshotFileMeta } | { ok: false; problems: string[] }> {
  const checked = checkLakeFooter(() => footerOfBytes(bytes), () => bytes.byteLength);
  if (checked === 'ignored') return { ok: false, problems: ['a lake file of another table (levels, transactions or trades): no chain to store'] };
  if ('problems' in checked) return { ok: false, problems: checked.problems };
  const reader = new SnapshotRows(checked.meta);
  try {
    for await (const group of rowGroupsOfBytes(bytes, checked.footer)) reader.add(group.start, group.rows);
  } catch (error) {
    return { ok: false, problems: [`its rows cannot be read: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const read = reader.finish();
  return read.ok ? { ...read, meta: checked.meta } : read;
}
