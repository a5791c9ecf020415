/**
 * A lake is untrusted input (issue 29, findings 3 and 4): `chain import DIR` gives its files the checks a chain file
 * gets, and bounds its work by each file's bytes before it allocates anything for the rows. Before: a lake stored
 * quote years 9999, expirations in 0001, spot, strikes and open interest of 1e300 and the symbol `../../../ETC`
 * (listed by /v1/chains, refused by every route of its own); a 64 KB file whose footer claimed two billion rows ran
 * for minutes and ended in a V8 out-of-memory abort at 4.5 GB.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Static } from 'typebox';
import type { ChainsResponse } from '../../../../../src-shared/api/schemas';
import type { OptionContract } from '../../../../../src-shared/exposure/model';
import { importLake, type LakeImportSummary } from '../../../../../src-main/services/lake/import';
import { buildParquet, layoutProblems } from '../../../../../src-main/lake/parquet';
import { contractsColumns } from '../../../../../src-main/lake/rows';
import { CONTRACTS, LAKE_META_KEY, LAKE_VERSION, type LakeFileMeta } from '../../../../../src-main/lake/tables';
import { runCli } from '../../../../cli';
import { buildTestApp } from '../../../../helper';
import { scratchFolders } from '../../../../duck';

const folders = scratchFolders();
afterAll(() => folders.removeAll());

const RATE = 0.04;
const QUOTE_TIME = '2026-11-20T15:00:00.000Z';

function contract(strike: number, right: 'C' | 'P', changes: Partial<OptionContract> = {}): OptionContract {
  return { root: 'ZZ', expiration: '2026-12-18', strike, right, openInterest: 100, iv: 0.2, bid: 1, ask: 1.1, multiplier: 100, ...changes };
}

const GOOD: OptionContract[] = [100, 105, 110].flatMap((strike) => [contract(strike, 'C'), contract(strike, 'P')]);

/** A contracts file of the lake's own making (buildParquet), whatever its head and contracts say. */
function lakeFile(head: { id: number; symbol: string; quoteTime?: string; spot?: number }, contracts: readonly OptionContract[]): Uint8Array {
  const quoteTime = head.quoteTime ?? QUOTE_TIME;
  const spot = head.spot ?? 105;
  const none = contracts.map(() => null);
  const digest = head.id.toString(16).padStart(64, '0');
  const meta: LakeFileMeta = { version: LAKE_VERSION, table: 'contracts', symbol: head.symbol, snapshotId: head.id, quoteTime, spot, source: 'generic', digest, rate: RATE, rows: contracts.length };
  return buildParquet(CONTRACTS, contractsColumns({ id: head.id, symbol: head.symbol, quoteTime, spot, source: 'generic', digest }, contracts, { dte: none, delta: none, gamma: none }), meta);
}

/** The file with its footer rewritten by `edit` (its column data untouched, padded with `padding` zero bytes before the footer). */
function withFooter(bytes: Uint8Array, edit: (metadata: FileMetaData) => void, padding = 0): Uint8Array {
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  edit(metadata);
  const dataEnd = bytes.byteLength - 8 - metadata.metadata_length;
  const writer = new ByteWriter();
  // hyparquet-writer carries its own copy of hyparquet's types: the same shape under another name.
  writeMetadata(writer, { ...metadata, metadata_length: 0 } as unknown as Parameters<typeof writeMetadata>[1]);
  writer.appendUint32(0x31524150);
  const footer = new Uint8Array(writer.getBuffer());
  const out = new Uint8Array(dataEnd + padding + footer.byteLength);
  out.set(bytes.subarray(0, dataEnd));
  out.set(footer, dataEnd + padding);
  return out;
}

/** The footer's row counts (file, row groups, column chunks and the lake's own key) all set to `rows`. */
function claimRows(rows: bigint): (metadata: FileMetaData) => void {
  return (metadata) => {
    metadata.num_rows = rows;
    for (const group of metadata.row_groups) {
      group.num_rows = rows;
      for (const chunk of group.columns) if (chunk.meta_data) chunk.meta_data.num_values = rows;
    }
    metadata.key_value_metadata = metadata.key_value_metadata?.map((kv) => (kv.key === LAKE_META_KEY ? { key: kv.key, value: JSON.stringify({ ...(JSON.parse(kv.value ?? '{}') as object), rows: Number(rows) }) } : kv));
  };
}

describe('a lake whose values no chain file could hold', () => {
  let lake: string;
  let summary: LakeImportSummary;
  let chains: Static<typeof ChainsResponse>;

  beforeAll(async () => {
    lake = folders.make('strikebook-hostile-lake-');
    const files: Record<string, Uint8Array> = {
      'good.parquet': lakeFile({ id: 1, symbol: 'ZZ' }, GOOD),
      'symbol.parquet': lakeFile({ id: 2, symbol: '../../../ETC' }, GOOD.map((c) => ({ ...c, root: 'ETC' }))),
      'year-9999.parquet': lakeFile({ id: 3, symbol: 'ZZ', quoteTime: '9999-11-20T15:00:00.000Z' }, GOOD),
      'expiry-0001.parquet': lakeFile({ id: 4, symbol: 'ZZ' }, [...GOOD.slice(1), contract(100, 'C', { expiration: '0001-12-18' })]),
      'spot-1e300.parquet': lakeFile({ id: 5, symbol: 'ZZ', spot: 1e300 }, GOOD),
      'strike-oi-1e300.parquet': lakeFile({ id: 6, symbol: 'ZZ' }, [...GOOD.slice(2), contract(1e300, 'C'), contract(100, 'P', { openInterest: 1e300 })]),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(lake, name), bytes);
    const app = await buildTestApp({ overrides: { rate: RATE } });
    try {
      const result = await importLake(lake, { ingest: (s) => app.ctx.exposure.ingest({ snapshot: s }), retention: () => 20 });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      summary = result.value;
      chains = (await app.get<Static<typeof ChainsResponse>>('/v1/chains')).body;
    } finally {
      await app.close();
    }
  }, 60_000);

  it('stores the good snapshot only', () => {
    expect(summary.snapshots).toMatchObject({ found: 6, stored: 1 });
    expect(chains.symbols.map((s) => [s.symbol, s.snapshots])).toEqual([['ZZ', 1]]);
  });

  it('refuses each file with the reason a chain file would get', () => {
    const reasons = Object.fromEntries(summary.refused.map((r) => [r.file, r.problems.join(' | ')]));
    expect(Object.keys(reasons).sort()).toEqual(['expiry-0001.parquet', 'spot-1e300.parquet', 'strike-oi-1e300.parquet', 'symbol.parquet', 'year-9999.parquet']);
    expect(reasons['symbol.parquet']).toBe('the symbol "../../../ETC" is not a ticker (a letter or digit, then up to 15 letters, digits or . _ / ^ -)');
    expect(reasons['year-9999.parquet']).toBe('the quote time 9999-11-20T15:00:00.000Z is outside the years 1900–2200');
    expect(reasons['expiry-0001.parquet']).toBe('row 6: ZZ 0001-12-18 100 C: the expiration is outside the years 1900–2200');
    expect(reasons['spot-1e300.parquet']).toBe('the spot 1e+300 is above 10,000,000');
    expect(reasons['strike-oi-1e300.parquet']).toBe('row 5: ZZ 2026-12-18 1e+300 C: the strike is not above 0 and at most 10,000,000 | row 6: ZZ 2026-12-18 100 P: the open interest 1e+300 is not between 0 and 1,000,000,000');
  });
});

describe('a file whose footer claims more than its bytes hold', () => {
  const good = lakeFile({ id: 7, symbol: 'ZZ' }, GOOD);

  it('two billion rows in 64 KB: refused from the footer alone, in a process of 128 MB of heap', () => {
    const lake = folders.make('strikebook-claims-lake-');
    const liar = withFooter(good, claimRows(2_000_000_000n), 64 * 1024 - good.byteLength);
    writeFileSync(join(lake, 'liar.parquet'), liar);
    expect(statSync(join(lake, 'liar.parquet')).size).toBeLessThan(66 * 1024);
    // The heap bound is the test: the footer was believed once, and hyparquet built two billion rows (4.5 GB, then an abort).
    const run = runCli(['chain', 'import', lake, '--data-dir', folders.make('strikebook-claims-data-')], { NODE_OPTIONS: '--max-old-space-size=128' });
    expect(run.stderr).not.toMatch(/heap out of memory|Allocation failed/i);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('liar.parquet:');
    expect(run.stderr).toContain('it claims 2,000,000,000 rows; a snapshot has at most 300,000 contracts');
  }, 120_000);

  it('names each claim a file cannot back: rows for its bytes, a chunk outside the file, values for rows, sizes past compression', () => {
    const metadataOf = (bytes: Uint8Array) => parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const size = (bytes: Uint8Array) => bytes.byteLength;
    expect(layoutProblems(metadataOf(good), size(good)), 'the lake’s own file is sound').toEqual([]);
    // Under the 300,000-contract cap, so that the bytes are what refuse it.
    const many = withFooter(good, claimRows(250_000n));
    expect(layoutProblems(metadataOf(many), size(many))).toEqual([`it claims 250,000 rows in ${size(many).toLocaleString('en-US')} bytes: more than its bytes can hold`]);
    const outside = withFooter(good, (m) => {
      const chunk = m.row_groups[0]?.columns[3]?.meta_data;
      if (chunk) {
        chunk.dictionary_page_offset = undefined;
        chunk.data_page_offset = BigInt(size(good) * 10);
      }
    });
    expect(layoutProblems(metadataOf(outside), size(outside))[0]).toMatch(/^row group 1, column expiration: its data lies outside the file's [\d,]+ bytes$/);
    const values = withFooter(good, (m) => {
      const chunk = m.row_groups[0]?.columns[4]?.meta_data;
      if (chunk) chunk.num_values = 3n;
    });
    expect(layoutProblems(metadataOf(values), size(values))).toEqual(['row group 1, column strike: 3 values for 6 rows']);
    const inflated = withFooter(good, (m) => {
      const chunk = m.row_groups[0]?.columns[7]?.meta_data;
      if (chunk) chunk.total_uncompressed_size = 2n ** 40n;
    });
    expect(layoutProblems(metadataOf(inflated), size(inflated))[0]).toMatch(/^row group 1, column iv: 1099511627776 bytes uncompressed from \d+: more than compression gives$/);
  });

  it('a page whose header claims more than its column holds is refused before it is decoded', async () => {
    const lake = folders.make('strikebook-page-lake-');
    // The first page header of the strike column: its uncompressed size (a varint after the type) made 2^31 - 1.
    const metadata = parquetMetadata(good.buffer.slice(good.byteOffset, good.byteOffset + good.byteLength) as ArrayBuffer);
    const strike = metadata.row_groups[0]?.columns[4]?.meta_data;
    const start = Number(strike?.dictionary_page_offset ?? strike?.data_page_offset ?? 0n);
    const chunk = good.subarray(start, start + Number(strike?.total_compressed_size ?? 0n));
    const header = chunk;
    // Thrift compact: field 1 (type, i32), then field 2 (uncompressed_page_size, i32 zigzag varint).
    expect(header[0]).toBe(0x15);
    let at = 1;
    while (((header[at] ?? 0) & 0x80) !== 0) at += 1;
    at += 1;
    expect(header[at]).toBe(0x15);
    const varintStart = at + 1;
    let varintEnd = varintStart;
    while (((header[varintEnd] ?? 0) & 0x80) !== 0) varintEnd += 1;
    const huge = [0xfe, 0xff, 0xff, 0xff, 0x0f];
    const patched = new Uint8Array(good.byteLength - (varintEnd + 1 - varintStart) + huge.length);
    patched.set(good.subarray(0, start + varintStart));
    patched.set(huge, start + varintStart);
    patched.set(good.subarray(start + varintEnd + 1), start + varintStart + huge.length);
    // The footer's offsets after the patch move with it: rewrite them.
    const shift = huge.length - (varintEnd + 1 - varintStart);
    const moved = withFooter(patched, (m) => {
      for (const column of m.row_groups[0]?.columns ?? []) {
        const meta = column.meta_data;
        if (!meta) continue;
        const begin = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
        if (begin > start) {
          meta.data_page_offset += BigInt(shift);
          if (meta.dictionary_page_offset !== undefined) meta.dictionary_page_offset += BigInt(shift);
        } else if (begin === start) meta.total_compressed_size += BigInt(shift);
      }
    });
    writeFileSync(join(lake, 'page.parquet'), moved);
    const app = await buildTestApp({ overrides: { rate: RATE } });
    try {
      const result = await importLake(lake, { ingest: (s) => app.ctx.exposure.ingest({ snapshot: s }), retention: () => 20 });
      expect(result.ok && result.value.refused).toEqual([{ file: 'page.parquet', problems: [expect.stringMatching(/^its rows cannot be read: column strike: a page claims 2147483647 bytes uncompressed from \d+: more than compression gives$/)] }]);
    } finally {
      await app.close();
    }
  });
});
