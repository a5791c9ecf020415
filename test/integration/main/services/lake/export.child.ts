/**
 * Child process of lake-files.test.ts: exports the data folder argv[2] into the lake folder argv[3], as the CLI does,
 * announcing each snapshot done on stdout and pausing after the second, so that the parent can SIGKILL it mid-export.
 */
import { openDataFolder } from '../../../../../src-main/context';
import { exportLake } from '../../../../../src-main/services/lake/export';

const [dataDir, out] = process.argv.slice(2);
if (dataDir === undefined || out === undefined) throw new Error('usage: export.child.ts <dataDir> <out>');
const folder = openDataFolder({ dataDir, busyTimeoutMs: 5000 });
exportLake(folder.db, { out }, folder.settings.rate, (progress) => {
  process.stdout.write(`done ${progress.snapshotsDone}\n`);
  if (progress.snapshotsDone === 2) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
});
