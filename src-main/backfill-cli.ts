/**
 * `strikebook chain backfill DIR` (docs/exposure.md §Chains that arrive by themselves): the backfill of the server
 * (services/chain-backfill.ts) run by the CLI on its own connection, with a progress bar on stderr (reading, then
 * storing) and a summary on stdout. DIR may be a Parquet lake (`strikebook export --out DIR`): its snapshots are stored
 * as the chain files they came from. Run again, it continues where it stopped: files stored are skipped by their bytes.
 */
import { resolve } from 'node:path';
import type { CliFailure } from './cli-errors';
import type { Clock } from './clock';
import type { DataFolder } from './context';
import type { WriteQueue } from './db/writes';
import { progressBar, type ProgressStream } from './lake/progress';
import { ChainBackfill, type BackfillJob } from './services/chain-backfill';
import type { ExposureService } from './services/exposure/service';
import { describeError } from './services/result';

export interface BackfillCliIo {
  out: ProgressStream;
  err: ProgressStream;
  nowMs?: () => number;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

/** The summary line of a finished backfill, and the lines of its failures. */
export function describeBackfill(job: BackfillJob): string[] {
  const c = job.counts;
  const parts = [
    `${plural(c.stored, 'snapshot')} stored`,
    `${c.alreadyStored.toLocaleString('en-US')} already stored`,
    `${plural(c.events, 'event')}`,
    ...(c.failed > 0 ? [`${plural(c.failed, 'file')} failed`] : []),
    ...(c.beyondRetention > 0 ? [`${plural(c.beyondRetention, 'older snapshot')} not read: the retention keeps fewer (${job.retention.map((r) => `${r.symbol} ${r.keep}`).join(', ')}; raise snapshotRetentionBySymbol)`] : []),
    ...(c.lakeOther > 0 ? [`${plural(c.lakeOther, 'lake file')} without a chain (levels, transactions, trades) not stored`] : []),
    ...(c.links > 0 ? [`${plural(c.links, 'symbolic link')} not followed`] : []),
    ...(c.omitted > 0 ? [`${plural(c.omitted, 'file')} past the 50,000 listed`] : []),
  ];
  const span = job.oldest === null ? '' : ` (${job.oldest} … ${job.newest ?? ''})`;
  const lake = c.lakeFiles > 0 ? ` (${plural(c.lakeFiles, 'Parquet lake file')})` : '';
  const lines = [`${job.path}: ${plural(c.files, 'chain file')}${lake}${span}: ${parts.join(', ')}${job.state === 'interrupted' ? ' — interrupted: run it again to continue' : ''}`];
  if (job.error !== null) lines.push(`stopped: ${job.error}`);
  return lines;
}

export async function runChainBackfill(
  dir: string,
  folder: Pick<DataFolder, 'db' | 'settings' | 'dataDir'>,
  exposure: Pick<ExposureService, 'ingest' | 'peekFile' | 'peekLakeFile'>,
  writes: WriteQueue,
  clock: Clock,
  io: BackfillCliIo = { out: process.stdout, err: process.stderr },
): Promise<CliFailure | null> {
  const backfill = new ChainBackfill({ db: folder.db, writes, exposure, settings: folder.settings, clock, dataDir: folder.dataDir });
  const reading = progressBar(io.err, 'reading', io.nowMs);
  const storing = progressBar(io.err, 'storing', io.nowMs);
  let phase: BackfillJob['phase'] = 'listing';
  backfill.onProgress((job) => {
    if (job.phase === 'importing' && phase !== 'importing') reading.finish();
    phase = job.phase;
    if (job.phase === 'dating') reading.update(job.counts.dated, job.counts.files, job.current ?? '');
    if (job.phase === 'importing') storing.update(job.counts.imported, job.counts.toImport, job.current ?? '');
  });
  // Ctrl-C: the file in flight ends, the rest waits for the next run.
  const interrupt = () => void backfill.stop();
  process.once('SIGINT', interrupt);
  try {
    const started = await backfill.start(resolve(dir));
    if (!started.ok) return { lines: [`chain backfill: ${describeError(started.error)}`], exitCode: 2 };
    await backfill.settled();
  } finally {
    process.off('SIGINT', interrupt);
    reading.finish();
    storing.finish();
  }
  const job = backfill.status();
  if (job === null) return { lines: ['chain backfill: nothing was done'], exitCode: 1 };
  for (const line of describeBackfill(job)) io.out.write(`${line}\n`);
  if (job.failures.length === 0 && job.state === 'done') return null;
  const lines: string[] = [];
  if (job.failures.length > 0) {
    lines.push(`${plural(job.counts.failed, 'file')} failed; the others were stored:`);
    for (const { file, reason } of job.failures) {
      const [first, ...rest] = reason.split('\n');
      lines.push(`  ${file}: ${first ?? ''}`);
      for (const line of rest.slice(0, 5)) lines.push(`  ${line}`);
    }
  }
  if (job.state === 'interrupted') lines.push('interrupted: run the same command again to continue');
  return { lines, exitCode: 1 };
}
