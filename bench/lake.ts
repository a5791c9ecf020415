/**
 * lake.* (docs/decisions.md §Benchmarks): `strikebook export` of N stored SPX snapshots (the 21,038-contract SPX
 * 2024-01-05 chain at N quote times, 30 minutes apart, 14 a day; default 1,000, `--lake-snapshots N` for fewer) into an
 * empty folder, on this thread as the CLI runs it: contract rows per second (wall and CPU), bytes per snapshot, and the
 * second export of the same data (it writes nothing). Beside it, in the same run, what the export cannot avoid per
 * snapshot: unpacking and preparing it (lake.export_vs_prepare, in CPU time: wall time on the shared machine follows its load).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseChainFile } from '../src-main/chains/index';
import { openDataFolder } from '../src-main/context';
import { GexHistoryRepository } from '../src-main/db/gex-history';
import { packContracts } from '../src-main/db/snapshot-payload';
import { SnapshotRepository } from '../src-main/db/snapshots';
import { exportLake } from '../src-main/services/lake/export';
import { DEFAULT_SCOPE, historyPoint, preparePacked, scopeKey } from '../src-main/services/exposure/compute';
import { prepareChain } from '../src-shared/exposure/prepare';
import { tempDir } from '../test/paths';
import { SPX_FIXTURE } from './exposure';
import { atLeast, atMost, info, median, type BenchLine } from './lib';
import { writeNow } from '../src-main/db/writes';

const HALF_HOUR_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Quote times going back from 2024-01-05 16:00 New York: 14 a day (09:30 to 16:00), weekdays and weekends alike. */
function quoteTime(index: number): string {
  const close = Date.parse('2024-01-05T21:00:00Z');
  const day = Math.floor(index / 14);
  return new Date(close - day * DAY_MS - (index % 14) * HALF_HOUR_MS).toISOString();
}

export function benchLake(snapshots: number): BenchLine[] {
  if (!existsSync(SPX_FIXTURE)) {
    process.stderr.write(`lake.*: skipped, ${SPX_FIXTURE} is absent\n`);
    return [];
  }
  const parsed = parseChainFile(readFileSync(SPX_FIXTURE, 'utf8'), {});
  if (!parsed.ok) throw new Error('the SPX fixture does not parse');
  const dataDir = tempDir('strikebook-bench-');
  const outParent = tempDir('strikebook-bench-');
  const out = join(outParent, 'lake');
  const folder = openDataFolder({ dataDir, busyTimeoutMs: 5000 });
  try {
    // The snapshots stored straight through the repository (parsing the file 1,000 times would be the bench's own
    // hour); each has a default-scope history point, as every stored snapshot does. The one point is the 09:30
    // chain's: the export copies points, it does not look at them.
    const payload = packContracts(parsed.snapshot.contracts);
    const repository = new SnapshotRepository(folder.db);
    const history = new GexHistoryRepository(folder.db);
    const point = historyPoint(prepareChain({ ...parsed.snapshot, quoteTime: quoteTime(0) }, { rate: folder.settings.rate }), DEFAULT_SCOPE);
    const head = { symbol: 'SPX', spot: parsed.snapshot.spot, source: parsed.snapshot.source, contracts: parsed.snapshot.contracts.length, expirations: 54 };
    writeNow(folder.db, (turn) => {
      for (let i = 0; i < snapshots; i += 1) {
        const { id } = repository.insert(turn, { ...head, quoteTime: quoteTime(i) }, payload, '2024-01-05T21:00:00.000Z');
        history.insert(turn, id, scopeKey(DEFAULT_SCOPE), point);
      }
    });
    const rows = snapshots * parsed.snapshot.contracts.length;

    // What the export cannot avoid per snapshot: unpacking and preparing it (CPU time, the median of 7 after 3).
    const stored = repository.latest('SPX');
    if (stored === null) throw new Error('no snapshot stored');
    const prepareSamples: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const start = cpuMs();
      preparePacked(stored, folder.settings.rate);
      if (i >= 3) prepareSamples.push(cpuMs() - start);
    }
    const prepareCpuMs = median(prepareSamples);

    const wallStart = performance.now();
    const cpuStart = cpuMs();
    const first = exportLake(folder.db, { out }, folder.settings.rate);
    const cpuSpent = cpuMs() - cpuStart;
    const wallMs = performance.now() - wallStart;
    if (!first.ok) throw new Error(`lake bench: ${first.error.kind}`);
    const againStart = performance.now();
    const again = exportLake(folder.db, { out }, folder.settings.rate);
    const againMs = performance.now() - againStart;
    if (!again.ok || again.value.files !== 0) throw new Error('lake bench: the second export wrote files');
    const perSnapshotCpuMs = cpuSpent / snapshots;
    const mb = first.value.bytes / 1e6;
    return [
      info(atLeast('lake.export_rows_per_s', rows / (wallMs / 1000), 'rows/s', 50_000, `${snapshots} SPX snapshots × ${parsed.snapshot.contracts.length.toLocaleString('en-US')} contracts in ${(wallMs / 1000).toFixed(1)} s; ${Math.round(rows / (cpuSpent / 1000)).toLocaleString('en-US')} rows per CPU-second`)),
      atMost('lake.export_vs_prepare', perSnapshotCpuMs / prepareCpuMs, 'x', 4, `CPU per snapshot of the export (${perSnapshotCpuMs.toFixed(0)} ms: unpack, prepare, greeks, two Parquet files, fsync) ÷ of unpacking and preparing it alone (${prepareCpuMs.toFixed(0)} ms)`),
      info(atMost('lake.bytes_per_snapshot_kb', (first.value.bytes / snapshots) / 1000, 'KB', 1000, `${mb.toFixed(0)} MB for ${snapshots} snapshots (the data folder holds ${(payload.byteLength / 1000).toFixed(0)} KB packed per snapshot)`)),
      atMost('lake.export_again_ms', againMs, 'ms', Math.max(1000, snapshots * 2), `the same ${snapshots} snapshots again: two footers read per snapshot, nothing written`),
    ];
  } finally {
    folder.db.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outParent, { recursive: true, force: true });
  }
}
