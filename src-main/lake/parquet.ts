/**
 * The lake's Parquet files as bytes and on disk: built from the table specs with hyparquet-writer (pure JS; why not
 * DuckDB's COPY: docs/decisions.md §The Parquet lake), written whole or not at all (a temporary file, synced, then
 * renamed), and read back with hyparquet: the footer alone (the tail of the file) or the rows.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parquetMetadata, parquetReadObjects, type FileMetaData, type ParquetRow } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { DAY_MS, dateToUtcMs } from '../../src-shared/calendar';
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
 * hidden temporary file, never a half Parquet file under a name a reader would take.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  tempCounter += 1;
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${tempCounter}.tmp`);
  const fd = openSync(temp, 'w', 0o644);
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

/** The footer of a Parquet file, read from its tail only; throws when the file is not Parquet or is cut short. */
export function readFooter(path: string): FileMetaData {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < TRAILER_BYTES + 4) throw new Error(`${size} bytes: too short for a Parquet file`);
    const trailer = Buffer.alloc(TRAILER_BYTES);
    readSync(fd, trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
    if (trailer.toString('latin1', 4) !== MAGIC) throw new Error('no Parquet trailer (PAR1) at its end: not a Parquet file, or cut short');
    const footerBytes = trailer.readUInt32LE(0);
    if (footerBytes + TRAILER_BYTES + 4 > size) throw new Error(`its footer claims ${footerBytes} bytes, more than the file holds`);
    const tail = Buffer.alloc(footerBytes + TRAILER_BYTES);
    readSync(fd, tail, 0, tail.byteLength, size - tail.byteLength);
    return parquetMetadata(tail.buffer.slice(tail.byteOffset, tail.byteOffset + tail.byteLength));
  } finally {
    closeSync(fd);
  }
}

/** The rows of a Parquet file as objects (timestamps and dates as Date, INT64 as bigint, DECIMAL as number). */
export async function readRows(path: string, metadata: FileMetaData): Promise<ParquetRow[]> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return parquetReadObjects({ file, metadata });
}

/** The value of the lake's footer key, or null for a file some other program wrote. */
export function lakeMetaText(metadata: FileMetaData): string | null {
  return metadata.key_value_metadata?.find((entry) => entry.key === LAKE_META_KEY)?.value ?? null;
}
