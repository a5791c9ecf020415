/**
 * `strikebook chain import DIR` (docs/research.md §Reading a lake back): the contracts files of a lake stored again,
 * snapshot for snapshot, so that history moves between machines. Every file is checked before its snapshot is
 * stored (a Strikebook footer of a known version, the contracts table's exact schema, every row's values); a
 * foreign or damaged file is refused with the reason and the others go on. Each snapshot is stored in a write turn
 * of its own (the exposure service's ingest), oldest first, so events come out as they did when the chains arrived.
 */
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { ChainSnapshot } from '../../../src-shared/exposure/model';
import { describeError, failure, ok, type Result } from '../result';
import type { IngestResult } from '../exposure/values';
import { parquetFilesUnder } from '../../lake/layout';
import type { FileMetaData } from 'hyparquet';
import { lakeMetaText, layoutProblems, readFooter, readRowGroups } from '../../lake/parquet';
import { SnapshotRows } from '../../lake/rows';
import { parseLakeMeta, schemaProblems, type SnapshotFileMeta } from '../../lake/tables';


export interface LakeImportSummary {
  dir: string;
  files: number;
  snapshots: {
    /** Contracts files found. */
    found: number;
    stored: number;
    /** Stored already (the same chain, by content). */
    alreadyStored: number;
    /** Older than the symbol's retention keeps (snapshotRetention, snapshotRetentionBySymbol). */
    beyondRetention: number;
  };
  events: number;
  /** Levels, transactions and trades files: derived or journal data, not read by a chain import. */
  ignored: number;
  /** Files refused, each with the reasons (relative to dir). */
  refused: Array<{ file: string; problems: string[] }>;
}

export interface LakeImportProgress {
  snapshotsDone: number;
  snapshotsTotal: number;
}

export interface LakeImportTarget {
  /** Stores one snapshot in a write turn of its own (ExposureService.ingest). */
  ingest(snapshot: ChainSnapshot): Promise<Result<IngestResult>>;
  /** Snapshots the symbol keeps. */
  retention(symbol: string): number;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A file's footer checked; its contracts metadata, 'ignored' for the lake's other tables, or the problems. */
function checkFooter(path: string): LakeFooterCheck {
  return checkLakeFooter(() => readFooter(path), () => statSync(path).size);
}

export type LakeFooterCheck = { meta: SnapshotFileMeta; footer: FileMetaData } | 'ignored' | { problems: string[] };

/** checkFooter of a footer read by `read` from a file of `size()` bytes (on disk, or in memory for a backfill). */
export function checkLakeFooter(read: () => FileMetaData, size: () => number): LakeFooterCheck {
  let footer;
  try {
    footer = read();
  } catch (error) {
    return { problems: [`not a readable Parquet file: ${message(error)}`] };
  }
  const text = lakeMetaText(footer);
  if (text === null) return { problems: ['not a Strikebook lake file (its footer has no strikebook.lake metadata): written by another program'] };
  const meta = parseLakeMeta(text);
  if (typeof meta === 'string') return { problems: [meta] };
  if (meta.table !== 'contracts') return 'ignored';
  const problems = schemaProblems('contracts', footer.schema);
  if (problems.length === 0) problems.push(...layoutProblems(footer, size()));
  if (problems.length === 0 && Number(footer.num_rows) !== meta.rows) problems.push(`${String(footer.num_rows)} rows, but its metadata says ${meta.rows}`);
  return problems.length > 0 ? { problems } : { meta, footer };
}

export async function importLake(dir: string, target: LakeImportTarget, onProgress: (progress: LakeImportProgress) => void = () => undefined): Promise<Result<LakeImportSummary>> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return failure({ kind: 'invalid-request', what: 'lake folder', problems: [{ param: 'dir', message: `${dir} is not a folder` }] });
  }
  const files = parquetFilesUnder(dir);
  if (files.length === 0) {
    return failure({ kind: 'file-refused', unsupported: true, detail: `${dir} holds no .parquet file: not a lake written by strikebook export.`, problems: [] });
  }
  const summary: LakeImportSummary = { dir, files: files.length, snapshots: { found: 0, stored: 0, alreadyStored: 0, beyondRetention: 0 }, events: 0, ignored: 0, refused: [] };
  const refuse = (path: string, problems: string[]) => summary.refused.push({ file: relative(dir, path), problems });
  const bySymbol = new Map<string, Array<{ path: string; meta: SnapshotFileMeta }>>();
  // Footers only here (each bounded, MAX_FOOTER_BYTES); the rows are read one file at a time below.
  for (const path of files) {
    const checked = checkFooter(path);
    if (checked === 'ignored') summary.ignored += 1;
    else if ('problems' in checked) refuse(path, checked.problems);
    else {
      summary.snapshots.found += 1;
      const list = bySymbol.get(checked.meta.symbol) ?? [];
      list.push({ path, meta: checked.meta });
      bySymbol.set(checked.meta.symbol, list);
    }
  }
  // Oldest first within a symbol, and only as many as its retention keeps (older ones would be pruned at once).
  const queue: Array<{ path: string; meta: SnapshotFileMeta }> = [];
  for (const [symbol, list] of [...bySymbol].sort(([a], [b]) => (a < b ? -1 : 1))) {
    list.sort((a, b) => Date.parse(a.meta.quoteTime) - Date.parse(b.meta.quoteTime) || a.meta.snapshotId - b.meta.snapshotId);
    const keep = Math.max(1, target.retention(symbol));
    summary.snapshots.beyondRetention += Math.max(0, list.length - keep);
    queue.push(...list.slice(-keep));
  }
  onProgress({ snapshotsDone: 0, snapshotsTotal: queue.length });
  for (const [index, { path, meta }] of queue.entries()) {
    // One row group at a time (readRowGroups): only its rows are held while they become contracts.
    const reader = new SnapshotRows(meta);
    let unreadable: string | null = null;
    try {
      for await (const group of readRowGroups(path, readFooter(path))) reader.add(group.start, group.rows);
    } catch (error) {
      unreadable = `its rows cannot be read: ${message(error)}`;
    }
    const read = unreadable === null ? reader.finish() : { ok: false as const, problems: [unreadable] };
    if (!read.ok) refuse(path, read.problems);
    else {
      const stored = await target.ingest(read.snapshot);
      if (!stored.ok) refuse(path, [describeError(stored.error)]);
      else if (stored.value.stored) {
        summary.snapshots.stored += 1;
        summary.events += stored.value.events;
      } else summary.snapshots.alreadyStored += 1;
    }
    onProgress({ snapshotsDone: index + 1, snapshotsTotal: queue.length });
  }
  return ok(summary);
}
