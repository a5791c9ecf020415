/**
 * The lake's Parquet files as bytes and on disk: built from the table specs with hyparquet-writer (pure JS; why not
 * DuckDB's COPY: docs/decisions.md §The Parquet lake), written whole or not at all (a temporary file, synced, then
 * renamed), and read back with hyparquet: the footer alone (the tail of the file) or the rows.
 */
import { closeSync, constants, fstatSync, fsyncSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parquetMetadata, parquetReadObjects, type FileMetaData, type ParquetRow } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { DAY_MS, dateToUtcMs } from '../../src-shared/calendar';
import { MAX_CHAIN_CONTRACTS } from '../chains/common';
import { makeFolders, openNoFollow } from './folder';
import { LAKE_CREATED_BY, LAKE_META_KEY, tableSchema, type ColumnSpec, type LakeFileMeta } from './tables';

/** Values of a column as the domain holds them: ISO instants, YYYY-MM-DD dates, minor units, numbers, text. */
export type ColumnValues = ReadonlyArray<string | number | boolean | null>;

/**
 * Every file holds one row group: a snapshot is at most a few tens of thousands of rows, and a fixed size keeps
 * the bytes of the same data the same.
 */
const ROW_GROUP_ROWS = 1_000_000;

type Encoded = string | number | bigint | boolean | null;

function problem(spec: ColumnSpec, value: unknown, what: string): RangeError {
  return new RangeError(`lake column ${spec.name}: ${String(value)} is not ${what}`);
}

/**
 * The conversion of one column's values to what the writer takes (instants as INT64 microseconds, dates as INT32
 * days, money as INT64 minor units), chosen once per column. A value the column cannot hold throws: the lake never
 * writes what it could not read back. The last conversion is remembered, since a snapshot's id and quote time
 * repeat on every row and an expiration's on each of its rows.
 */
function encoder(spec: ColumnSpec): (value: string | number | boolean | null) => Encoded {
  const convert = converter(spec);
  let last: string | number | boolean | null | undefined;
  let lastEncoded: Encoded = null;
  return (value) => {
    if (value === null) {
      if (!spec.nullable) throw problem(spec, value, 'allowed: the column is required');
      return null;
    }
    if (value !== last) {
      lastEncoded = convert(value);
      last = value;
    }
    return lastEncoded;
  };
}

function converter(spec: ColumnSpec): (value: string | number | boolean) => Encoded {
  switch (spec.kind) {
    case 'int64':
    case 'money':
      return (value) => {
        if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw problem(spec, value, 'an integer');
        return BigInt(value);
      };
    case 'timestamp':
      return (value) => {
        const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
        if (!Number.isFinite(ms)) throw problem(spec, value, 'an instant');
        return BigInt(ms) * 1000n;
      };
    case 'date':
      return (value) => {
        const ms = typeof value === 'string' ? dateToUtcMs(value) : Number.NaN;
        if (!Number.isFinite(ms)) throw problem(spec, value, 'a date');
        return ms / DAY_MS;
      };
    case 'int32':
      return (value) => {
        if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) throw problem(spec, value, 'a 32-bit integer');
        return value;
      };
    case 'double':
      return (value) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw problem(spec, value, 'a finite number');
        return value;
      };
    case 'string':
      return (value) => String(value);
    case 'boolean':
      return (value) => value === true;
  }
}

/** A table's file as bytes: the columns in the spec's order, the metadata in the footer, nothing from the clock. */
export function buildParquet(columns: readonly ColumnSpec[], values: Readonly<Record<string, ColumnValues>>, meta: LakeFileMeta): Uint8Array {
  const columnData = columns.map((spec) => {
    const data = values[spec.name];
    if (data === undefined) throw new RangeError(`lake: no values for column ${spec.name}`);
    // Min/max statistics only where they can skip a file: every snapshot's file holds the whole range of its IVs,
    // prices and greeks, so theirs would cost a sixth of the write and prune nothing.
    return { name: spec.name, data: data.map(encoder(spec)), ...(spec.statistics === false ? { statistics: false } : {}) };
  });
  const buffer = parquetWriteBuffer({
    columnData,
    schema: tableSchema(columns),
    rowGroupSize: ROW_GROUP_ROWS,
    kvMetadata: [{ key: LAKE_META_KEY, value: JSON.stringify(meta) }],
    createdBy: LAKE_CREATED_BY,
  });
  return new Uint8Array(buffer);
}

let tempCounter = 0;

/**
 * Writes the file whole or not at all: a hidden temporary name in the same folder (query engines skip names that
 * start with a dot), synced to disk, then renamed over the final name. An export killed mid-way leaves at most a
 * hidden temporary file, never a half Parquet file under a name a reader would take. `root` is the export's folder:
 * the folders from it down are created and checked one by one and the file is opened with O_NOFOLLOW (folder.ts), so
 * a symbolic link anywhere under it stops the write (LinkRefused) with nothing written through it.
 */
export function writeFileAtomic(root: string, path: string, bytes: Uint8Array): void {
  makeFolders(root, dirname(path));
  tempCounter += 1;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${tempCounter}.tmp`);
  const fd = openNoFollow(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    try {
      let offset = 0;
      while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Parquet's trailer: 4 bytes of footer length, then the magic `PAR1`. */
const TRAILER_BYTES = 8;
const MAGIC = 'PAR1';
/** A lake file's footer is a few KB (16 columns, one row group): a longer one is no file of ours to read. */
export const MAX_FOOTER_BYTES = 1 << 20;
/**
 * Rows a contracts file may hold: it is one snapshot, and a chain holds at most MAX_CHAIN_CONTRACTS (chains/common.ts).
 * Its rows are also bounded by its bytes: a row takes at least MIN_BYTES_PER_ROW of column data (the lake's own files
 * take about 28; a row needs a strike, a right and an expiration no other row has).
 */
export const MAX_FILE_ROWS = MAX_CHAIN_CONTRACTS;
const MIN_BYTES_PER_ROW = 1;
/** Snappy expands a byte into at most about 21 (a 3-byte copy of 64 bytes): a page claiming more is a lie. */
const MAX_SNAPPY_RATIO = 24;

/** A Parquet file's bytes by range: an open file (the lake import, the export) or bytes in memory (a backfill's worker). */
interface ByteRanges {
  size: number;
  /** The bytes [start, end); throws when the file ends before `end`. */
  read(start: number, end: number): Uint8Array;
}

function footerFrom(source: ByteRanges): FileMetaData {
  const size = source.size;
  if (size < TRAILER_BYTES + 4) throw new Error(`${size} bytes: too short for a Parquet file`);
  const trailer = Buffer.from(source.read(size - TRAILER_BYTES, size));
  if (trailer.toString('latin1', 4) !== MAGIC) throw new Error('no Parquet trailer (PAR1) at its end: not a Parquet file, or cut short');
  const footerBytes = trailer.readUInt32LE(0);
  if (footerBytes + TRAILER_BYTES + 4 > size) throw new Error(`its footer claims ${footerBytes} bytes, more than the file holds`);
  if (footerBytes > MAX_FOOTER_BYTES) throw new Error(`its footer claims ${footerBytes.toLocaleString('en-US')} bytes; a lake file's is a few thousand`);
  // A copy of its own: hyparquet reads an ArrayBuffer, and the tail of bytes in memory is a view of the whole file.
  const tail = new Uint8Array(footerBytes + TRAILER_BYTES);
  tail.set(source.read(size - tail.byteLength, size));
  return parquetMetadata(tail.buffer);
}

/** Ranges of an open file. */
function fileRanges(fd: number): ByteRanges {
  return { size: fstatSync(fd).size, read: (start, end) => readRange(fd, start, end) };
}

/** Ranges of bytes in memory (a lake file a backfill read whole and moved to the exposure worker). */
function memoryRanges(bytes: Uint8Array): ByteRanges {
  return {
    size: bytes.byteLength,
    read: (start, end) => {
      if (end > bytes.byteLength) throw new Error(`the file ends at byte ${bytes.byteLength}, before its footer says`);
      return bytes.subarray(start, end);
    },
  };
}

/** The footer of a Parquet file, read from its tail only; throws when the file is not Parquet or is cut short. */
export function readFooter(path: string): FileMetaData {
  // Never through a link (folder.ts): the lake's walk skips links, and an export reads only its own folder's files.
  const fd = openNoFollow(path, constants.O_RDONLY);
  try {
    return footerFrom(fileRanges(fd));
  } finally {
    closeSync(fd);
  }
}

/** readFooter of a file's bytes in memory. */
export function footerOfBytes(bytes: Uint8Array): FileMetaData {
  return footerFrom(memoryRanges(bytes));
}

/** A count from the footer (an INT64 read as a bigint or a number) as a number, or NaN when it is no count. */
function count(value: bigint | number | undefined): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : Number.NaN;
}

/** Where a column chunk begins: its dictionary page, if it has one (an offset of 0 is none, as hyparquet reads it). */
function chunkStart(meta: { dictionary_page_offset?: bigint; data_page_offset: bigint }): number {
  const dictionary = count(meta.dictionary_page_offset);
  return dictionary > 0 ? dictionary : count(meta.data_page_offset);
}

/**
 * What the footer claims that the file's bytes cannot hold, checked before anything is allocated for the rows
 * (docs/research.md §Reading a lake back): the row count (at most MAX_FILE_ROWS, and the row groups' sum), each row
 * group's rows against the bytes of its column chunks, each chunk inside the file before the footer with a value per
 * row, and its pages' sizes (readRowGroups checks each page header). A file of 64 KB claiming two billion rows stops
 * here; hyparquet would have built an array of that many rows.
 */
export function layoutProblems(metadata: FileMetaData, fileBytes: number): string[] {
  const dataEnd = fileBytes - TRAILER_BYTES - metadata.metadata_length;
  const rows = count(metadata.num_rows);
  if (Number.isNaN(rows)) return [`its row count ${String(metadata.num_rows)} is not a count`];
  if (rows > MAX_FILE_ROWS) return [`it claims ${rows.toLocaleString('en-US')} rows; a snapshot has at most ${MAX_FILE_ROWS.toLocaleString('en-US')} contracts`];
  if (rows > dataEnd / MIN_BYTES_PER_ROW) return [`it claims ${rows.toLocaleString('en-US')} rows in ${fileBytes.toLocaleString('en-US')} bytes: more than its bytes can hold`];
  const problems: string[] = [];
  let sum = 0;
  for (const [g, group] of metadata.row_groups.entries()) {
    const groupRows = count(group.num_rows);
    sum += groupRows;
    let groupBytes = 0;
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      const name = meta?.path_in_schema.join('.') ?? '?';
      if (meta === undefined || chunk.file_path !== undefined) {
        problems.push(`row group ${g + 1}, column ${name}: its data is not in this file`);
        continue;
      }
      const start = chunkStart(meta);
      const compressed = count(meta.total_compressed_size);
      const uncompressed = count(meta.total_uncompressed_size);
      if (Number.isNaN(start) || Number.isNaN(compressed) || start < MAGIC.length || start + compressed > dataEnd) problems.push(`row group ${g + 1}, column ${name}: its data lies outside the file's ${fileBytes.toLocaleString('en-US')} bytes`);
      else if (meta.codec !== 'SNAPPY' && meta.codec !== 'UNCOMPRESSED') problems.push(`row group ${g + 1}, column ${name}: compressed with ${meta.codec}; the lake writes Snappy`);
      else if (Number.isNaN(uncompressed) || uncompressed > compressed * MAX_SNAPPY_RATIO + 1024) problems.push(`row group ${g + 1}, column ${name}: ${String(meta.total_uncompressed_size)} bytes uncompressed from ${compressed}: more than compression gives`);
      else if (count(meta.num_values) !== groupRows) problems.push(`row group ${g + 1}, column ${name}: ${String(meta.num_values)} values for ${String(group.num_rows)} rows`);
      groupBytes += Number.isNaN(compressed) ? 0 : compressed;
    }
    if (Number.isNaN(groupRows) || groupRows > groupBytes / MIN_BYTES_PER_ROW) problems.push(`row group ${g + 1} claims ${String(group.num_rows)} rows in ${groupBytes.toLocaleString('en-US')} bytes of data: more than its bytes can hold`);
    if (problems.length >= 20) break;
  }
  if (problems.length === 0 && sum !== rows) problems.push(`its row groups hold ${sum.toLocaleString('en-US')} rows, but its footer says ${rows.toLocaleString('en-US')}`);
  return problems;
}

/**
 * The pages of a column chunk (its bytes), checked before hyparquet decodes them: each header inside the chunk, its
 * values within the row group's rows, its uncompressed size within what compression can give (hyparquet allocates
 * that size), and the data pages' values adding up to the rows. A sentence when they do not, else null.
 */
function pageProblem(bytes: Uint8Array, codec: string, groupRows: number): string | null {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  let values = 0;
  while (reader.offset < bytes.byteLength) {
    let header;
    try {
      header = parquetHeader(reader);
    } catch (error) {
      return `a page header cannot be read (${error instanceof Error ? error.message : String(error)})`;
    }
    const compressed = count(header.compressed_page_size);
    const uncompressed = count(header.uncompressed_page_size);
    if (Number.isNaN(compressed) || reader.offset + compressed > bytes.byteLength) return `a page claims ${String(header.compressed_page_size)} bytes, past the end of its column`;
    if (Number.isNaN(uncompressed) || uncompressed > (codec === 'UNCOMPRESSED' ? compressed : compressed * MAX_SNAPPY_RATIO + 1024)) return `a page claims ${String(header.uncompressed_page_size)} bytes uncompressed from ${compressed}: more than compression gives`;
    const dictionary = header.dictionary_page_header;
    const pageValues = header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values;
    if (dictionary !== undefined) {
      if (!(count(dictionary.num_values) <= Math.min(groupRows, uncompressed))) return `a dictionary page claims ${String(dictionary.num_values)} values in ${uncompressed} bytes`;
    } else if (pageValues !== undefined) {
      const n = count(pageValues);
      if (!(n <= groupRows - values) || (header.data_page_header_v2 !== undefined && count(header.data_page_header_v2.num_rows) !== n)) return `a data page claims ${String(pageValues)} values; its row group has ${groupRows} rows`;
      values += n;
    } else return `a page of type ${String(header.type)}: the lake writes data and dictionary pages only`;
    reader.offset += compressed;
  }
  return values === groupRows ? null : `its pages hold ${values} values for ${groupRows} rows`;
}

/** The bytes [start, end) of an open file. */
function readRange(fd: number, start: number, end: number): Uint8Array {
  const bytes = new Uint8Array(end - start);
  let offset = 0;
  while (offset < bytes.byteLength) {
    const read = readSync(fd, bytes, offset, bytes.byteLength - offset, start + offset);
    if (read === 0) throw new Error(`the file ends at byte ${start + offset}, before its footer says`);
    offset += read;
  }
  return bytes;
}

/**
 * The rows of a Parquet file as objects (timestamps and dates as Date, INT64 as bigint, DECIMAL as number), one row
 * group at a time: only that group's bytes are read and only its rows are held, after its pages were checked
 * (pageProblem), and the footer's claims against the file's bytes (layoutProblems). Throws on what it refuses.
 */
export async function* readRowGroups(path: string, metadata: FileMetaData): AsyncGenerator<{ start: number; rows: ParquetRow[] }> {
  const fd = openNoFollow(path, constants.O_RDONLY);
  try {
    yield* rowGroupsFrom(fileRanges(fd), metadata);
  } finally {
    closeSync(fd);
  }
}

/** readRowGroups of a file's bytes in memory. */
export function rowGroupsOfBytes(bytes: Uint8Array, metadata: FileMetaData): AsyncGenerator<{ start: number; rows: ParquetRow[] }> {
  return rowGroupsFrom(memoryRanges(bytes), metadata);
}

async function* rowGroupsFrom(source: ByteRanges, metadata: FileMetaData): AsyncGenerator<{ start: number; rows: ParquetRow[] }> {
  // Again here, on the file as it is now: it may have changed since its footer was first checked.
  const [problem] = layoutProblems(metadata, source.size);
  if (problem !== undefined) throw new Error(problem);
  let start = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const chunks = group.columns.map((chunk) => {
      const meta = chunk.meta_data;
      if (meta === undefined) throw new Error('a column chunk has no metadata');
      const from = chunkStart(meta);
      return { name: meta.path_in_schema.join('.'), codec: meta.codec, from, to: from + Number(meta.total_compressed_size) };
    });
    const loaded = chunks.map((chunk) => ({ ...chunk, bytes: source.read(chunk.from, chunk.to) }));
    for (const chunk of loaded) {
      const problem = pageProblem(chunk.bytes, chunk.codec, groupRows);
      if (problem !== null) throw new Error(`column ${chunk.name}: ${problem}`);
    }
    // hyparquet asks for byte ranges of the group: each is served from the chunks read and checked above.
    const file = {
      byteLength: source.size,
      slice: (from: number, to?: number): Promise<ArrayBuffer> => {
        const end = to ?? from;
        const bytes = new Uint8Array(end - from);
        for (const chunk of loaded) {
          const lo = Math.max(from, chunk.from);
          const hi = Math.min(end, chunk.to);
          if (lo < hi) bytes.set(chunk.bytes.subarray(lo - chunk.from, hi - chunk.from), lo - from);
        }
        return Promise.resolve(bytes.buffer);
      },
    };
    const rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: start + groupRows });
    yield { start, rows };
    start += groupRows;
  }
}

/** The value of the lake's footer key, or null for a file some other program wrote. */
export function lakeMetaText(metadata: FileMetaData): string | null {
  return metadata.key_value_metadata?.find((entry) => entry.key === LAKE_META_KEY)?.value ?? null;
}
