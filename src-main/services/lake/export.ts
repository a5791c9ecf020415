/**
 * `strikebook export` (docs/research.md): the stored snapshots as the Hive-partitioned Parquet lake, a contracts
 * file and a levels file per snapshot, and the journal as transactions.parquet and trades.parquet. Repeatable (the same data gives the
 * same bytes: no clock, no random order) and incremental (a snapshot whose files are in the folder is not written
 * again; the journal's files are rewritten only when their bytes change). Runs on whatever thread calls it: the CLI's,
 * or the lake worker's for the server (lake-worker.ts), never the server's event loop.
 */
import type { Database } from 'better-sqlite3';
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { contractMeasures } from '../../../src-shared/exposure/contract-greeks';
import { prepareChain } from '../../../src-shared/exposure/index';
import { dateInZone, NEW_YORK } from '../../../src-shared/zone';
import { GexHistoryRepository } from '../../db/gex-history';
import { LakeRepository, type LakeSnapshotHead } from '../../db/lake';
import { SnapshotDamagedError, storedContracts } from '../../db/snapshot-payload';
import { SnapshotRepository } from '../../db/snapshots';
import { DEFAULT_SCOPE, historyPoint, resolveScope, scopeKey } from '../exposure/compute';
import { instantBound } from '../exposure/values';
import { failure, ok, type Result } from '../result';
import { exportFolderProblem, LinkRefused, makeFolders, refuseLinksUnder } from '../../lake/folder';
import { journalTrades, writeJournalFiles, type JournalFileState } from './journal-files';
import { contractsFile, levelsFile } from '../../lake/layout';
import { buildParquet, lakeMetaText, readFooter, writeFileAtomic } from '../../lake/parquet';
import { contractsColumns, levelsColumns } from '../../lake/rows';
import { CONTRACTS, LAKE_VERSION, LEVELS, parseLakeMeta } from '../../lake/tables';
import type { Ticker } from '../../../src-shared/ids';

export interface ExportRequest {
  /** The lake's folder (created when missing). */
  out: string;
  /** Made a Ticker where the request entered (services/exports.ts). */
  symbol?: Ticker;
  /** Snapshots quoted from this New York date (or instant) on. */
  from?: string;
  /** …up to the end of this New York date (or this instant). */
  to?: string;
}

export interface ExportProgress {
  snapshotsDone: number;
  snapshotsTotal: number;
  /** Contract rows written so far (skipped snapshots write none). */
  rowsWritten: number;
}

export interface ExportSummary {
  out: string;
  snapshots: { total: number; written: number; skipped: number };
  /** Rows written in this run: contracts (all files), levels, transactions, trades. */
  rows: { contracts: number; levels: number; transactions: number; trades: number };
  /** written: a new transactions.parquet; unchanged: its bytes were already there; none: no journal to write. */
  transactions: JournalFileState;
  /** The same for trades.parquet (none: the journal has no trade). */
  trades: JournalFileState;
  files: number;
  bytes: number;
}

/** The footer digest of an existing snapshot file: null when absent; a sentence when it is not ours to keep. */
function existingDigest(out: string, path: string): { digest: string | null } | { problem: string } {
  // A link on the way, or as the file, is LinkRefused (folder.ts): the export stops naming it.
  refuseLinksUnder(out, path);
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return { digest: null };
  try {
    const text = lakeMetaText(readFooter(path));
    const meta = text === null ? 'no Strikebook metadata' : parseLakeMeta(text);
    if (typeof meta === 'string' || !('digest' in meta)) return { problem: `${path} is not a Strikebook lake file (${typeof meta === 'string' ? meta : `a ${meta.table} table`})` };
    return { digest: meta.digest };
  } catch (error) {
    return { problem: `${path} cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Where an export may write: an existing folder, or one it can create; never a special file system, a file or a
 * symbolic link (folder.ts, exportFolderProblem). Its parents are created as the user named them.
 */
function prepareOut(out: string): string | null {
  const problem = exportFolderProblem(out);
  if (problem !== null) return problem;
  try {
    mkdirSync(dirname(out), { recursive: true });
    makeFolders(out, out);
    return null;
  } catch (error) {
    return `${out} cannot be created (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Writes the lake into `request.out`. Greeks are computed at `rate` (the setting r; recorded in every footer). A
 * snapshot file already in the folder with another digest (a lake of another data folder: ids are per database)
 * stops the export with a conflict before anything of that snapshot is written; files written before it stay whole.
 */
export function exportLake(db: Database, request: ExportRequest, rate: number, onProgress: (progress: ExportProgress) => void = () => undefined): Result<ExportSummary> {
  try {
    return exportInto(db, request, rate, onProgress);
  } catch (error) {
    if (error instanceof SnapshotDamagedError) return failure({ kind: 'conflict', param: 'snapshot', detail: `${error.message} The files written before it are whole; export again once it is deleted.` });
    if (error instanceof LinkRefused) return failure({ kind: 'invalid-request', what: 'export folder', problems: [{ param: 'out', message: `${error.message} Nothing was written through it; the files written before it are whole.` }] });
    // A folder that refuses a write (permissions, a full disk): what was written stays whole, the rest is not begun.
    if (!(error instanceof Error && 'code' in error && 'path' in error && typeof error.path === 'string')) throw error;
    return failure({ kind: 'invalid-request', what: 'export folder', problems: [{ param: 'out', message: `${error.path} cannot be written (${String(error.code)}); the files written before it are whole` }] });
  }
}

function exportInto(db: Database, request: ExportRequest, rate: number, onProgress: (progress: ExportProgress) => void): Result<ExportSummary> {
  const lake = new LakeRepository(db);
  const { symbol } = request;
  if (symbol !== undefined && !lake.hasSymbol(symbol)) return failure({ kind: 'unknown-symbol', symbol, known: new SnapshotRepository(db).symbols() });
  const outProblem = prepareOut(request.out);
  if (outProblem !== null) return failure({ kind: 'invalid-request', what: 'export folder', problems: [{ param: 'out', message: outProblem }] });
  const heads = lake.heads({
    ...(symbol === undefined ? {} : { symbol }),
    ...(request.from === undefined ? {} : { fromInstant: instantBound(request.from, 'start') }),
    ...(request.to === undefined ? {} : { toInstant: instantBound(request.to, 'end') }),
  });
  const snapshots = new SnapshotRepository(db);
  const history = new GexHistoryRepository(db);
  const defaultKey = scopeKey(DEFAULT_SCOPE);
  const summary: ExportSummary = { out: request.out, snapshots: { total: heads.length, written: 0, skipped: 0 }, rows: { contracts: 0, levels: 0, transactions: 0, trades: 0 }, transactions: 'none', trades: 'none', files: 0, bytes: 0 };
  const write = (path: string, bytes: Uint8Array) => {
    writeFileAtomic(request.out, path, bytes);
    summary.files += 1;
    summary.bytes += bytes.byteLength;
  };
  onProgress({ snapshotsDone: 0, snapshotsTotal: heads.length, rowsWritten: 0 });
  for (const [index, head] of heads.entries()) {
    const date = dateInZone(Date.parse(head.quoteTime), NEW_YORK);
    const paths = { contracts: contractsFile(request.out, head.symbol, date, head.id), levels: levelsFile(request.out, head.symbol, date, head.id) };
    const missing: Array<keyof typeof paths> = [];
    for (const table of ['contracts', 'levels'] as const) {
      const found = existingDigest(request.out, paths[table]);
      if ('problem' in found) return failure({ kind: 'conflict', param: 'out', detail: `${found.problem}; nothing of snapshot ${head.id} was written. Export into an empty folder.` });
      if (found.digest === null) missing.push(table);
      else if (found.digest !== head.digest) {
        return failure({
          kind: 'conflict',
          param: 'out',
          detail: `${paths[table]} holds another snapshot ${head.id} (another data folder's lake: snapshot ids are per database); nothing of this snapshot was written. Export into an empty folder.`,
        });
      }
    }
    if (missing.length === 0) {
      summary.snapshots.skipped += 1;
    } else {
      const written = writeSnapshot(head, missing, paths, { snapshots, history, defaultKey, rate }, write);
      if (written === null) summary.snapshots.skipped += 1; // deleted since the list was read
      else {
        summary.snapshots.written += 1;
        summary.rows.contracts += written.contracts;
        summary.rows.levels += written.levels;
      }
    }
    onProgress({ snapshotsDone: index + 1, snapshotsTotal: heads.length, rowsWritten: summary.rows.contracts });
  }
  const journal = writeJournalFiles(lake, request.out, write, journalTrades(db, rate));
  summary.transactions = journal.transactions.state;
  summary.rows.transactions = journal.transactions.rows;
  summary.trades = journal.trades.state;
  summary.rows.trades = journal.trades.rows;
  return ok(summary);
}

interface SnapshotSources {
  snapshots: SnapshotRepository;
  history: GexHistoryRepository;
  defaultKey: string;
  rate: number;
}

/** The snapshot's missing files; null when it was deleted meanwhile. */
function writeSnapshot(
  head: LakeSnapshotHead,
  missing: ReadonlyArray<'contracts' | 'levels'>,
  paths: { contracts: string; levels: string },
  sources: SnapshotSources,
  write: (path: string, bytes: Uint8Array) => void,
): { contracts: number; levels: number } | null {
  const stored = sources.snapshots.byId(head.id);
  if (stored === null) return null;
  const contracts = storedContracts(stored);
  const chain = prepareChain({ symbol: head.symbol, spot: head.spot, quoteTime: head.quoteTime, source: head.source, contracts }, { rate: sources.rate });
  const meta = { version: LAKE_VERSION, symbol: head.symbol, snapshotId: head.id, quoteTime: head.quoteTime, spot: head.spot, source: head.source, digest: head.digest, rate: sources.rate };
  const done = { contracts: 0, levels: 0 };
  if (missing.includes('contracts')) {
    write(paths.contracts, buildParquet(CONTRACTS, contractsColumns(head, contracts, contractMeasures(chain, contracts)), { ...meta, table: 'contracts', rows: contracts.length }));
    done.contracts = contracts.length;
  }
  if (missing.includes('levels')) {
    // The point /gex/history answers (kept since the snapshot was stored); computed here only if it never was.
    const point = sources.history.points([head.id], sources.defaultKey).get(head.id) ?? historyPoint(chain, DEFAULT_SCOPE);
    write(paths.levels, buildParquet(LEVELS, levelsColumns(head, point, resolveScope(chain, DEFAULT_SCOPE, true)), { ...meta, table: 'levels', rows: 1 }));
    done.levels = 1;
  }
  return done;
}
