/**
 * `strikebook chain backfill DIR` of a Parquet lake (issue 30, item 3): a lake exported from a data folder holding three
 * copies of a real SPX download at other quote times, beside a Parquet file another program wrote, is backfilled by
 * the CLI into a fresh data folder: the three snapshots stored, the lake's levels files counted, the foreign file
 * named with its reason and exit status 1; run again, nothing is stored twice.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLake } from '../../../src-main/services/lake/export';
import { runCli } from '../../cli';
import { buildTestApp } from '../../helper';
import { tempDir } from '../../paths';
import { writeShiftedChains } from '../../chain-files';

const chainsDir = tempDir('strikebook-cli-backfill-chains-');
const lakeDir = join(tempDir('strikebook-cli-backfill-lake-'), 'lake');
const dataDir = tempDir();

afterAll(() => {
  for (const dir of [chainsDir, lakeDir, dataDir]) rmSync(dir, { recursive: true, force: true });
});

describe('strikebook chain backfill <lake>', () => {
  beforeAll(async () => {
    const files = writeShiftedChains(chainsDir, 3, 60);
    const source = await buildTestApp();
    try {
      for (const file of files) {
        const stored = await source.ctx.exposure.ingest({ file: readFileSync(file.path, 'utf8'), options: {} });
        if (!stored.ok) throw new Error(JSON.stringify(stored.error));
      }
      const exported = exportLake(source.ctx.db, { out: lakeDir }, 0.04);
      if (!exported.ok) throw new Error(JSON.stringify(exported.error));
    } finally {
      await source.close();
    }
    writeFileSync(join(lakeDir, 'foreign.parquet'), new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'price', data: [1.5, 2.5], type: 'DOUBLE' }] })));
  }, 120_000);

  it('stores the lake’s snapshots, names the foreign file, and stores nothing twice when run again', () => {
    const first = runCli(['chain', 'backfill', lakeDir, '--data-dir', dataDir]);
    expect(first.status, first.stderr).toBe(1);
    expect(first.stdout).toContain('7 chain files (7 Parquet lake files)');
    expect(first.stdout).toContain('3 snapshots stored, 0 already stored');
    expect(first.stdout).toContain('3 lake files without a chain (levels, transactions, trades) not stored');
    expect(first.stderr).toMatch(/foreign\.parquet: .*not a Strikebook lake file/);

    const again = runCli(['chain', 'backfill', lakeDir, '--data-dir', dataDir]);
    expect(again.stdout, again.stderr).toContain('0 snapshots stored, 3 already stored');
  }, 240_000);
});
