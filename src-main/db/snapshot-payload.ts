/**
 * A stored snapshot's payload, its contracts in either form: since issue 32 typed columns (db/snapshot-columns.ts:
 * 150 KB for the 21k-contract SPX chain, read in ~2 ms); before it one deflated JSON blob of dictionary-coded roots
 * and expirations and numeric columns (this file's packContracts), still read, and still what the digest hashes.
 * A payload that does not decode names its snapshot (SnapshotDamagedError).
 *
 * Version 2 adds a `volume` column (a number or null per contract) and is written only when some contract has a
 * volume; a chain without volume is packed as version 1, byte for byte as before (its digest, which finds the same
 * snapshot posted twice, is unchanged). Both versions are read (docs/decisions.md, "Volume in the packed snapshot").
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync, constants } from 'node:zlib';
import { contractAt, packedChainColumns, type ChainColumns } from '../../src-shared/exposure/history-point';
import type { OptionContract } from '../../src-shared/exposure/model';
import { interner, PackedSnapshotError } from './packing';
import { isColumnsPayload } from './snapshot-columns';
import { StoredColumns } from './stored-columns';

export { PackedSnapshotError } from './packing';

interface Packed {
  v: 1 | 2;
  roots: string[];
  expirations: string[];
  root: number[];
  expiration: number[];
  strike: number[];
  right: string;
  oi: number[];
  iv: number[];
  bid: number[];
  ask: number[];
  multiplier: number[];
  volume?: Array<number | null>;
}

/**
 * The packed JSON written straight into bytes, as JSON.stringify of the Packed object would spell it (the same keys in
 * the same order, numbers as String() spells a finite number, strings quoted by JSON.stringify): a 300,000-contract
 * chain built nine arrays, a 16 MB string and its UTF-8 copy before; now one growing buffer (docs/architecture.md
 * §Reliability and security).
 */
class JsonBytes {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  length = 0;

  write(text: string): void {
    // Numbers, keys and punctuation are ASCII; a root or an expiration quoted by JSON.stringify may not be: its UTF-8 length.
    const needed = Buffer.byteLength(text);
    if (this.length + needed > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + needed));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.length += this.bytes.write(text, this.length);
  }

  /** `prefix`, then each item's text joined by `separator`: written in runs of a few thousand (one join each). */
  run<T>(prefix: string, items: readonly T[], value: (item: T, index: number) => string, separator: string, suffix: string): void {
    this.write(prefix);
    const batch: string[] = [];
    let written = false;
    const flush = () => {
      this.write(written ? `${separator}${batch.join(separator)}` : batch.join(separator));
      written = true;
      batch.length = 0;
    };
    items.forEach((item, index) => {
      batch.push(value(item, index));
      if (batch.length === 4096) flush();
    });
    if (batch.length > 0) flush();
    this.write(suffix);
  }

  get view(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** A finite number as JSON.stringify writes it (a number that is not finite is written null, as JSON.stringify does). */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

export function packContracts(contracts: readonly OptionContract[]): Buffer {
  const { values: roots, intern: rootIndex } = interner();
  const { values: expirations, intern: expirationIndex } = interner();
  const rootOf = new Int32Array(contracts.length);
  const expirationOf = new Int32Array(contracts.length);
  let hasVolume = false;
  for (let i = 0; i < contracts.length; i += 1) {
    const c = contracts[i];
    if (c === undefined) continue;
    rootOf[i] = rootIndex(c.root);
    expirationOf[i] = expirationIndex(c.expiration);
    if (c.volume !== undefined) hasVolume = true;
  }
  // The keys in Packed's order; version 2 adds volume last (as `{ ...packed, v: 2, volume }` spelled it).
  const out = new JsonBytes();
  out.write(`{"v":${hasVolume ? 2 : 1},"roots":${JSON.stringify(roots)},"expirations":${JSON.stringify(expirations)}`);
  out.run(',"root":[', contracts, (_c, i) => String(rootOf[i]), ',', ']');
  out.run(',"expiration":[', contracts, (_c, i) => String(expirationOf[i]), ',', ']');
  out.run(',"strike":[', contracts, (c) => jsonNumber(c.strike), ',', ']');
  out.run(',"right":"', contracts, (c) => c.right, '', '"');
  out.run(',"oi":[', contracts, (c) => jsonNumber(c.openInterest), ',', ']');
  out.run(',"iv":[', contracts, (c) => jsonNumber(c.iv), ',', ']');
  out.run(',"bid":[', contracts, (c) => jsonNumber(c.bid), ',', ']');
  out.run(',"ask":[', contracts, (c) => jsonNumber(c.ask), ',', ']');
  out.run(',"multiplier":[', contracts, (c) => jsonNumber(c.multiplier), ',', ']');
  if (hasVolume) out.run(',"volume":[', contracts, (c) => (c.volume === undefined ? 'null' : jsonNumber(c.volume)), ',', ']');
  out.write('}');
  // Level 4 for version 2 rather than 1: the volume column costs 15 KB of an SPX chain at level 1; at 4 the whole
  // payload is smaller than version 1 was (183 KB against 185 KB) for about 3 ms more.
  return deflateSync(out.view, { level: hasVolume ? 4 : constants.Z_BEST_SPEED });
}

function isNumberColumn(value: unknown, length: number, nullable = false): value is number[] {
  if (!Array.isArray(value) || value.length !== length) return false;
  for (const item of value as unknown[]) if (typeof item !== 'number' && !(nullable && item === null)) return false;
  return true;
}

function isVolumeColumn(value: unknown, length: number): value is Array<number | null> {
  return isNumberColumn(value, length, true);
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new PackedSnapshotError('a dictionary is not a list of strings');
  return value;
}

function inflatedJson(blob: Uint8Array): unknown {
  try {
    return JSON.parse(inflateSync(blob).toString('utf8'));
  } catch (error) {
    throw new PackedSnapshotError(`its deflated JSON does not decode (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The packed columns, checked: a version this code writes and columns as long as the strike column. */
function readPacked(blob: Uint8Array): Packed {
  const parsed: unknown = inflatedJson(blob);
  if (typeof parsed !== 'object' || parsed === null) throw new PackedSnapshotError('not an object');
  const { v, strike, root, expiration, oi, iv, bid, ask, multiplier, volume, right, roots, expirations } = parsed as Record<string, unknown>;
  if (v !== 1 && v !== 2) throw new PackedSnapshotError(`version ${String(v)}`);
  const n = Array.isArray(strike) ? strike.length : -1;
  if (
    !isNumberColumn(strike, n) ||
    !isNumberColumn(root, n) ||
    !isNumberColumn(expiration, n) ||
    !isNumberColumn(oi, n) ||
    !isNumberColumn(iv, n) ||
    !isNumberColumn(bid, n) ||
    !isNumberColumn(ask, n) ||
    !isNumberColumn(multiplier, n) ||
    typeof right !== 'string' ||
    right.length !== n
  ) {
    throw new PackedSnapshotError('a column is missing, not numeric, or of another length');
  }
  const packed: Packed = { v, roots: stringList(roots), expirations: stringList(expirations), root, expiration, strike, right, oi, iv, bid, ask, multiplier };
  if (v === 1) return packed;
  if (!isVolumeColumn(volume, n)) throw new PackedSnapshotError('version 2 without its volume column');
  return { ...packed, volume };
}

/**
 * The stored columns (checked), without building a contract object each: what a history point reads (the column
 * form inflates only the quotes of the expirations the point asks for).
 */
export function unpackColumns(blob: Uint8Array): ChainColumns {
  return isColumnsPayload(blob) ? new StoredColumns(blob) : packedChainColumns(readPacked(blob));
}

export function unpackContracts(blob: Uint8Array): OptionContract[] {
  if (isColumnsPayload(blob)) return new StoredColumns(blob).contracts();
  const packed = readPacked(blob);
  const contracts: OptionContract[] = new Array<OptionContract>(packed.strike.length);
  for (let i = 0; i < packed.strike.length; i += 1) contracts[i] = contractAt(packed, i);
  return contracts;
}

/**
 * What finds a snapshot posted twice (UNIQUE (symbol, digest)) and names it in the lake's footers: SHA-256 of the quote
 * time, the spot and the deflated JSON form of the contracts (packContracts), as every version computed it, whatever
 * form the payload is stored in, so that a chain stored before the column form is still found, and keeps its digest
 * when converted (migration 017). A column-form payload is turned back into the JSON form for it.
 */
export function snapshotDigest(head: { quoteTime: string; spot: number }, payload: Uint8Array): string {
  const json = isColumnsPayload(payload) ? packContracts(unpackContracts(payload)) : payload;
  return createHash('sha256').update(`${head.quoteTime}|${head.spot}|`).update(json).digest('hex');
}

/**
 * A stored snapshot whose payload cannot be decoded (a damaged page of the file, a row changed by hand): thrown where
 * its contracts are read, it names the snapshot and how to get rid of it (docs/architecture.md §Reliability and
 * security). The server answers 409 SNAPSHOT_DAMAGED, the CLI prints the message; `strikebook check` lists them all.
 */
export class SnapshotDamagedError extends Error {
  constructor(
    readonly snapshot: { id: number; symbol: string; quoteTime: string },
    readonly reason: string,
  ) {
    super(
      `Snapshot ${snapshot.id} of ${snapshot.symbol} (quoted ${snapshot.quoteTime}) is damaged in the database: ${reason}. ` +
        `Delete it (DELETE /v1/snapshots/${snapshot.id}); the other snapshots are not affected, and \`strikebook check\` lists every damaged one.`,
    );
    this.name = 'SnapshotDamagedError';
  }
}

/** A stored snapshot's identity and payload: what a decode needs to name it when it fails. */
export interface PayloadOf {
  id: number;
  symbol: string;
  quoteTime: string;
  payload: Uint8Array;
}

function decoded<T>(stored: PayloadOf, decode: (blob: Uint8Array) => T): T {
  try {
    return decode(stored.payload);
  } catch (error) {
    if (error instanceof PackedSnapshotError) throw new SnapshotDamagedError(stored, error.message);
    throw error;
  }
}

/** The contracts of a stored snapshot; a payload that cannot be decoded throws SnapshotDamagedError naming it. */
export function storedContracts(stored: PayloadOf): OptionContract[] {
  return decoded(stored, unpackContracts);
}

/**
 * The packed columns of a stored snapshot (unpackColumns); SnapshotDamagedError as storedContracts, also when a
 * column-form payload's quotes, inflated only when an expiration is first asked for, turn out damaged then.
 */
export function storedColumns(stored: PayloadOf): ChainColumns {
  const columns = decoded(stored, unpackColumns);
  return {
    roots: columns.roots,
    expirations: columns.expirations,
    root: columns.root,
    expiration: columns.expiration,
    strike: columns.strike,
    right: columns.right,
    contractsOf: (wanted) => decoded(stored, () => columns.contractsOf(wanted)),
  };
}
