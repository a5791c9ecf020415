/**
 * The lake's two commands as the CLI runs them (cli.ts dispatches): `strikebook export --out DIR` and
 * `strikebook chain import DIR`, each with a progress bar on stderr and a summary on stdout. They work on the CLI's
 * own thread: no event loop to protect there.
 */
import { resolve } from 'node:path';
import { isIsoDate } from '../../src-shared/calendar';
import { boundYearOutOfRange, DATE_YEARS } from '../../src-shared/api/schema-kit';
import { parseDateTimeInZone } from '../../src-shared/zone';
import { domainFailure, type CliFailure } from '../cli-errors';
import type { DataFolder } from '../context';
import type { ExposureService } from '../services/exposure/service';
import { exportLake, type ExportSummary } from '../services/lake/export';
import { importLake, type LakeImportSummary } from '../services/lake/import';
import { progressBar, type ProgressStream } from './progress';
import { asTicker } from '../../src-shared/ids';

export interface LakeCliIo {
  out: ProgressStream;
  err: ProgressStream;
  nowMs?: () => number;
}

const defaultIo: LakeCliIo = { out: process.stdout, err: process.stderr };

/** A --from/--to value: a calendar date (a whole New York day) or an ISO 8601 instant; else the sentence why not. */
export function boundProblem(name: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const isDay = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (isDay && !isIsoDate(value)) return `--${name} ${value} is not a calendar date`;
  const instantMs = isDay ? Number.NaN : parseDateTimeInZone(value);
  if (!isDay && Number.isNaN(instantMs)) return `--${name} ${value} is neither a date (YYYY-MM-DD) nor an ISO 8601 instant`;
  // The years of POST /v1/exports (issue 29).
  const year = boundYearOutOfRange(value, instantMs);
  return year === null ? null : `--${name} ${value} names the year ${String(year).padStart(4, '0')}${isDay ? '' : ' once its offset is applied'}, outside ${DATE_YEARS.min}–${DATE_YEARS.max}`;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

export function describeExport(summary: ExportSummary): string {
  const { snapshots, rows } = summary;
  const file = (name: string, state: ExportSummary['trades'], count: number) => (state === 'written' ? `${name} written (${plural(count, 'row')})` : `${name} unchanged`);
  const journal = summary.transactions === 'none' ? 'no journal to write' : [file('transactions.parquet', summary.transactions, rows.transactions), ...(summary.trades === 'none' ? [] : [file('trades.parquet', summary.trades, rows.trades)])].join(', ');
  return `${summary.out}: ${plural(snapshots.written, 'snapshot')} written (${plural(rows.contracts, 'contract row')}), ${snapshots.skipped} already there, of ${snapshots.total}; ${journal}; ${plural(summary.files, 'file')}, ${(summary.bytes / 1e6).toFixed(1)} MB`;
}

/** `strikebook export`: the exit status, after the summary or the failure. */
export function runExport(folder: Pick<DataFolder, 'db' | 'settings'>, options: { out?: string; symbol?: string; from?: string; to?: string }, io: LakeCliIo = defaultIo): CliFailure | null {
  if (options.out === undefined || options.out === '') return { lines: ['export: name the lake folder with --out <dir>'], exitCode: 2 };
  const problem = boundProblem('from', options.from) ?? boundProblem('to', options.to);
  if (problem !== null) return { lines: [`export: ${problem}`], exitCode: 2 };
  const bar = progressBar(io.err, 'export', io.nowMs);
  const result = exportLake(
    folder.db,
    { out: resolve(options.out), ...(options.symbol === undefined ? {} : { symbol: asTicker(options.symbol) }), ...(options.from === undefined ? {} : { from: options.from }), ...(options.to === undefined ? {} : { to: options.to }) },
    folder.settings.rate,
    (p) => bar.update(p.snapshotsDone, p.snapshotsTotal, `${plural(p.rowsWritten, 'row')}`),
  );
  bar.finish();
  if (!result.ok) return domainFailure(result.error);
  io.out.write(`${describeExport(result.value)}\n`);
  return null;
}

export function describeLakeImport(summary: LakeImportSummary): string[] {
  const { snapshots } = summary;
  const lines = [
    `${summary.dir}: ${plural(snapshots.stored, 'snapshot')} stored, ${snapshots.alreadyStored} already stored, ${plural(summary.events, 'event')}` +
      (snapshots.beyondRetention > 0 ? `; ${plural(snapshots.beyondRetention, 'older snapshot')} not imported: the retention setting keeps fewer (raise snapshotRetentionBySymbol)` : '') +
      (summary.refused.length > 0 ? `; ${plural(summary.refused.length, 'file')} refused` : ''),
  ];
  return lines;
}

/** `strikebook chain import DIR`: the lake's snapshots through the exposure service; null when no file was refused. */
export async function runLakeImport(dir: string, exposure: Pick<ExposureService, 'ingest'>, settings: DataFolder['settings'], io: LakeCliIo = defaultIo): Promise<CliFailure | null> {
  const bar = progressBar(io.err, 'import', io.nowMs);
  const result = await importLake(
    resolve(dir),
    { ingest: (snapshot) => exposure.ingest({ snapshot }), retention: (symbol) => settings.snapshotRetentionBySymbol[symbol] ?? settings.snapshotRetention },
    (p) => bar.update(p.snapshotsDone, p.snapshotsTotal),
  );
  bar.finish();
  if (!result.ok) return domainFailure(result.error);
  for (const line of describeLakeImport(result.value)) io.out.write(`${line}\n`);
  if (result.value.refused.length === 0) return null;
  const lines = [`${plural(result.value.refused.length, 'lake file')} refused; the other snapshots were stored:`];
  for (const { file, problems } of result.value.refused.slice(0, 50)) {
    lines.push(`  ${file}:`);
    for (const problem of problems.slice(0, 5)) lines.push(`    ${problem}`);
  }
  return { lines, exitCode: 1 };
}
