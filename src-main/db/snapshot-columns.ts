/**
 * The stored form of a snapshot's contracts since issue 32 (docs/decisions.md, "Snapshots stored as columns of
 * numbers"): typed columns, little-endian, behind a versioned header, each part deflated, so that reading a chain costs
 * an inflate and a copy instead of a JSON parse of a million characters, and a history point reads the quotes of its
 * scope's expirations only.
 *
 *   magic "SBKC" · u16 version (3: the JSON forms were 1 and 2) · u16 0
 *   u32 length · head  (zlib): u32 contracts · u8 flags (1: volume) · roots · expirations (u32 count, then u32 byte
 *                               length + UTF-8 each) · per expiration: u32 contracts, u32 length of its quotes
 *   u32 length · keys  (zlib): every contract in stored order: root index, expiration index, right (C or P), strike
 *   quotes, one zlib stream per expiration (in the dictionary's order), its contracts in stored order:
 *                               open interest, iv, bid, ask, multiplier, and with volume its presence and values
 *
 * A column of numbers is one value when all are the same; else integers k with value = k / 10^s (s ≤ 6, the least that
 * gives back every value to the bit), 1, 2 or 4 bytes wide; else the float64s. Bytes are stored plane by plane (all
 * first bytes, then all second ones...), which deflate packs well. Every length, count and index is checked as read,
 * and zlib's checksum covers each part: a damaged payload throws PackedSnapshotError, never a wrong chain.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import type { ChainColumns } from '../../src-shared/exposure/history-point';
import type { OptionContract } from '../../src-shared/exposure/model';
import { interner, PackedSnapshotError } from './packing';

/** "SBKC" as its four bytes: a zlib stream (the JSON forms) starts with 0x78, so the two cannot be mistaken. */
const MAGIC = [0x53, 0x42, 0x4b, 0x43] as const;
export const COLUMNS_VERSION = 3;
/** Deflate level of every part: level 6 is 4% smaller than 1 on the SPX chain, reads as fast, and writes in ~6 ms. */
const LEVEL = 6;

const CONSTANT = 0;
const SCALED = 1;
const FLOAT = 2;
/** Exact powers of ten: k / 10^s is then the double nearest to the decimal, as the parser read it. */
const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000] as const;
const ALL_PRESENT = 0;
const SOME_MISSING = 1;
const FLAG_VOLUME = 1;

/** Whether a stored payload is in this form (else it is the deflated JSON of db/snapshot-payload.ts). */
export function isColumnsPayload(blob: Uint8Array): boolean {
  return blob.length >= 4 && blob[0] === MAGIC[0] && blob[1] === MAGIC[1] && blob[2] === MAGIC[2] && blob[3] === MAGIC[3];
}

class Writer {
  private buffer = Buffer.allocUnsafe(4096);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  u8(value: number): void {
    this.room(1);
    this.buffer[this.length] = value;
    this.length += 1;
  }

  u16(value: number): void {
    this.room(2);
    this.length = this.buffer.writeUInt16LE(value, this.length);
  }

  u32(value: number): void {
    this.room(4);
    this.length = this.buffer.writeUInt32LE(value, this.length);
  }

  f64(value: number): void {
    this.room(8);
    this.length = this.buffer.writeDoubleLE(value, this.length);
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  text(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.u32(bytes.length);
    this.bytes(bytes);
  }

  /** Unsigned integers below 2^(8·width), plane by plane. */
  planes(values: ArrayLike<number>, width: number): void {
    const n = values.length;
    this.room(n * width);
    const out = this.buffer;
    let at = this.length;
    for (let plane = 0; plane < width; plane += 1) {
      const shift = 8 * plane;
      for (let i = 0; i < n; i += 1) out[at + i] = ((values[i] ?? 0) >>> shift) & 0xff;
      at += n;
    }
    this.length = at;
  }

  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** One column of numbers, in the least of the three encodings that gives every value back to the bit. */
function writeNumbers(out: Writer, values: Float64Array): void {
  const n = values.length;
  const first = values[0] ?? 0;
  let constant = true;
  for (let i = 1; i < n; i += 1) {
    if (!Object.is(values[i], first)) {
      constant = false;
      break;
    }
  }
  if (constant) {
    out.u8(CONSTANT);
    out.f64(first);
    return;
  }
  // The least scale at which every value is k / 10^s; once a value needs more, the earlier ones stay exact at it.
  let scale = 0;
  for (let i = 0; i < n && scale < POWERS.length; i += 1) {
    const value = values[i] ?? 0;
    while (scale < POWERS.length) {
      const power = POWERS[scale] ?? 1;
      if (Object.is(Math.round(value * power) / power, value)) break;
      scale += 1;
    }
  }
  const power = POWERS[scale];
  if (power !== undefined) {
    const scaled = new Int32Array(n);
    let exact = true;
    let widest = 0;
    for (let i = 0; i < n; i += 1) {
      const value = values[i] ?? 0;
      const k = Math.round(value * power);
      if (!(k >= -0x80000000 && k <= 0x7fffffff) || !Object.is(k / power, value)) {
        exact = false;
        break;
      }
      scaled[i] = k;
      widest = Math.max(widest, k < 0 ? -k - 1 : k);
    }
    if (exact) {
      const width = widest < 0x80 ? 1 : widest < 0x8000 ? 2 : 4;
      out.u8(SCALED);
      out.u8(scale);
      out.u8(width);
      out.planes(scaled, width);
      return;
    }
  }
  out.u8(FLOAT);
  const bytes = new Uint8Array(n * 8);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i += 1) view.setFloat64(i * 8, values[i] ?? 0, true);
  const words = new Uint8Array(n);
  for (let plane = 0; plane < 8; plane += 1) {
    for (let i = 0; i < n; i += 1) words[i] = bytes[i * 8 + plane] ?? 0;
    out.bytes(words);
  }
}

function deflated(writer: Writer): Buffer {
  return deflateSync(writer.view(), { level: LEVEL });
}

/** Width in bytes of an index into a dictionary of `size` entries. */
function indexWidth(size: number): number {
  return size <= 0x100 ? 1 : size <= 0x10000 ? 2 : 4;
}

/** The contracts in the stored form. */
export function packColumns(contracts: readonly OptionContract[]): Buffer {
  const n = contracts.length;
  const { values: roots, intern: rootIndex } = interner();
  const { values: expirations, intern: expirationIndex } = interner();
  const rootOf = new Uint32Array(n);
  const expirationOf = new Uint32Array(n);
  const rights = new Uint8Array(n);
  const strikes = new Float64Array(n);
  let hasVolume = false;
  for (let i = 0; i < n; i += 1) {
    const c = contracts[i];
    if (c === undefined) continue;
    rootOf[i] = rootIndex(c.root);
    expirationOf[i] = expirationIndex(c.expiration);
    rights[i] = c.right === 'P' ? 0x50 : 0x43;
    strikes[i] = c.strike;
    if (c.volume !== undefined) hasVolume = true;
  }
  const keys = new Writer();
  keys.planes(rootOf, indexWidth(roots.length));
  keys.planes(expirationOf, indexWidth(expirations.length));
  keys.bytes(rights);
  writeNumbers(keys, strikes);

  // Each expiration's contracts, in stored order.
  const counts = new Uint32Array(expirations.length);
  for (let i = 0; i < n; i += 1) {
    const e = expirationOf[i] ?? 0;
    counts[e] = (counts[e] ?? 0) + 1;
  }
  const members: Uint32Array[] = Array.from(counts, (count) => new Uint32Array(count));
  const filled = new Uint32Array(expirations.length);
  for (let i = 0; i < n; i += 1) {
    const e = expirationOf[i] ?? 0;
    const list = members[e];
    const at = filled[e] ?? 0;
    if (list !== undefined) list[at] = i;
    filled[e] = at + 1;
  }
  const blocks = members.map((rows) => {
    const block = new Writer();
    const column = (value: (c: OptionContract) => number) => {
      const values = new Float64Array(rows.length);
      for (let k = 0; k < rows.length; k += 1) {
        const c = contracts[rows[k] ?? 0];
        values[k] = c === undefined ? 0 : value(c);
      }
      writeNumbers(block, values);
    };
    column((c) => c.openInterest);
    column((c) => c.iv);
    column((c) => c.bid);
    column((c) => c.ask);
    column((c) => c.multiplier);
    if (hasVolume) {
      const present = new Uint8Array(rows.length);
      let missing = false;
      for (let k = 0; k < rows.length; k += 1) {
        present[k] = contracts[rows[k] ?? 0]?.volume === undefined ? 0 : 1;
        if (present[k] === 0) missing = true;
      }
      block.u8(missing ? SOME_MISSING : ALL_PRESENT);
      if (missing) block.bytes(present);
      column((c) => c.volume ?? 0);
    }
    return deflated(block);
  });

  const head = new Writer();
  head.u32(n);
  head.u8(hasVolume ? FLAG_VOLUME : 0);
  head.u32(roots.length);
  for (const root of roots) head.text(root);
  head.u32(expirations.length);
  for (const expiration of expirations) head.text(expiration);
  blocks.forEach((block, e) => {
    head.u32(counts[e] ?? 0);
    head.u32(block.length);
  });

  const out = new Writer();
  out.bytes(Uint8Array.from(MAGIC));
  out.u16(COLUMNS_VERSION);
  out.u16(0);
  const headBytes = deflated(head);
  out.u32(headBytes.length);
  out.bytes(headBytes);
  const keyBytes = deflated(keys);
  out.u32(keyBytes.length);
  out.bytes(keyBytes);
  for (const block of blocks) out.bytes(block);
  return Buffer.from(out.view());
}

class Reader {
  at = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly part: string,
  ) {}

  private need(count: number): number {
    if (count < 0 || this.at + count > this.bytes.length) throw new PackedSnapshotError(`the ${this.part} is cut short`);
    const start = this.at;
    this.at += count;
    return start;
  }

  u8(): number {
    return this.bytes[this.need(1)] ?? 0;
  }

  u16(): number {
    const at = this.need(2);
    return (this.bytes[at] ?? 0) | ((this.bytes[at + 1] ?? 0) << 8);
  }

  u32(): number {
    const at = this.need(4);
    return ((this.bytes[at] ?? 0) | ((this.bytes[at + 1] ?? 0) << 8) | ((this.bytes[at + 2] ?? 0) << 16) | ((this.bytes[at + 3] ?? 0) << 24)) >>> 0;
  }

  f64(): number {
    const at = this.need(8);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset + at, 8).getFloat64(0, true);
  }

  slice(count: number): Uint8Array {
    const at = this.need(count);
    return this.bytes.subarray(at, at + count);
  }

  text(): string {
    return Buffer.from(this.slice(this.u32())).toString('utf8');
  }

  /** `count` unsigned integers of `width` bytes, plane by plane. */
  planes(count: number, width: number): Uint32Array {
    const at = this.need(count * width);
    const bytes = this.bytes;
    const values = new Uint32Array(count);
    for (let plane = 0; plane < width; plane += 1) {
      const base = at + plane * count;
      const shift = 8 * plane;
      for (let i = 0; i < count; i += 1) values[i] = (values[i] ?? 0) | ((bytes[base + i] ?? 0) << shift);
    }
    return values;
  }

  /** One column of numbers as writeNumbers wrote it. */
  numbers(count: number): Float64Array {
    const kind = this.u8();
    const values = new Float64Array(count);
    if (kind === CONSTANT) return values.fill(this.f64());
    if (kind === SCALED) {
      const power = POWERS[this.u8()];
      const width = this.u8();
      if (power === undefined || (width !== 1 && width !== 2 && width !== 4)) throw new PackedSnapshotError(`a ${this.part} column has an unknown scale or width`);
      const raw = this.planes(count, width);
      // Sign-extended from the width's top bit.
      const shift = 32 - 8 * width;
      for (let i = 0; i < count; i += 1) values[i] = (((raw[i] ?? 0) << shift) >> shift) / power;
      return values;
    }
    if (kind === FLOAT) {
      const at = this.need(count * 8);
      const bytes = new Uint8Array(count * 8);
      for (let plane = 0; plane < 8; plane += 1) {
        const base = at + plane * count;
        for (let i = 0; i < count; i += 1) bytes[i * 8 + plane] = this.bytes[base + i] ?? 0;
      }
      const view = new DataView(bytes.buffer);
      for (let i = 0; i < count; i += 1) values[i] = view.getFloat64(i * 8, true);
      return values;
    }
    throw new PackedSnapshotError(`a ${this.part} column has the unknown encoding ${kind}`);
  }

  /** Throws unless every byte was read. */
  end(): void {
    if (this.at !== this.bytes.length) throw new PackedSnapshotError(`the ${this.part} has ${this.bytes.length - this.at} bytes too many`);
  }
}

/** The most a head can inflate to: 300,000 contracts' dictionaries (chains/common.ts bounds a chain) fit many times. */
const MAX_HEAD_BYTES = 64 * 1024 * 1024;
/** The most a column of `count` numbers takes (a float64 column) and its encoding's bytes. */
const numbersBytes = (count: number) => 9 + 8 * count;

/** A part inflated, within the bytes it can hold at most (a damaged length cannot make it balloon). */
function inflated(bytes: Uint8Array, part: string, maxBytes: number): Uint8Array {
  try {
    return inflateSync(bytes, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (error) {
    throw new PackedSnapshotError(`the ${part} does not inflate (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** One expiration's quotes, in the order of its contracts. */
interface Quotes {
  oi: Float64Array;
  iv: Float64Array;
  bid: Float64Array;
  ask: Float64Array;
  multiplier: Float64Array;
  /** Per contract, when the chain has volume: NaN where a contract has none. */
  volume: Float64Array | null;
}

/** The stored form read: the keys of every contract at once, the quotes of an expiration when first asked for. */
export class StoredColumns implements ChainColumns {
  readonly roots: string[];
  readonly expirations: string[];
  readonly root: Uint32Array;
  readonly expiration: Uint32Array;
  readonly strike: Float64Array;
  readonly right: string;
  readonly hasVolume: boolean;
  private readonly counts: Uint32Array;
  private readonly blocks: Uint8Array[];
  private readonly quotes: Array<Quotes | undefined>;

  constructor(blob: Uint8Array) {
    if (!isColumnsPayload(blob)) throw new PackedSnapshotError('not the column form');
    const outer = new Reader(blob, 'payload');
    outer.slice(4);
    const version = outer.u16();
    if (version !== COLUMNS_VERSION) throw new PackedSnapshotError(`version ${version}`);
    if (outer.u16() !== 0) throw new PackedSnapshotError('the header has bits this version does not write');
    const head = new Reader(inflated(outer.slice(outer.u32()), 'head', MAX_HEAD_BYTES), 'head');
    const n = head.u32();
    const flags = head.u8();
    if ((flags & ~FLAG_VOLUME) !== 0) throw new PackedSnapshotError(`the head has flags ${flags} this version does not write`);
    this.hasVolume = flags === FLAG_VOLUME;
    const list = () => {
      const count = head.u32();
      const items: string[] = [];
      for (let i = 0; i < count; i += 1) items.push(head.text());
      return items;
    };
    this.roots = list();
    this.expirations = list();
    const e = this.expirations.length;
    this.counts = new Uint32Array(e);
    const lengths = new Uint32Array(e);
    let total = 0;
    for (let k = 0; k < e; k += 1) {
      this.counts[k] = head.u32();
      lengths[k] = head.u32();
      total += this.counts[k] ?? 0;
    }
    head.end();
    if (total !== n) throw new PackedSnapshotError(`the expirations count ${total} contracts, the head ${n}`);
    const keys = new Reader(inflated(outer.slice(outer.u32()), 'keys', n * (indexWidth(this.roots.length) + indexWidth(e) + 1) + numbersBytes(n)), 'keys');
    this.root = keys.planes(n, indexWidth(this.roots.length));
    this.expiration = keys.planes(n, indexWidth(e));
    const rights = keys.slice(n);
    this.strike = keys.numbers(n);
    keys.end();
    const seen = new Uint32Array(e);
    for (let i = 0; i < n; i += 1) {
      const x = this.expiration[i] ?? 0;
      if ((this.root[i] ?? 0) >= this.roots.length || x >= e) throw new PackedSnapshotError('a contract names a root or an expiration that is not in the dictionary');
      seen[x] = (seen[x] ?? 0) + 1;
      const right = rights[i];
      if (right !== 0x43 && right !== 0x50) throw new PackedSnapshotError('a right is neither C nor P');
    }
    for (let k = 0; k < e; k += 1) if (seen[k] !== this.counts[k]) throw new PackedSnapshotError('an expiration holds another number of contracts than its head says');
    this.right = Buffer.from(rights.buffer, rights.byteOffset, rights.length).toString('latin1');
    this.blocks = [];
    for (let k = 0; k < e; k += 1) this.blocks.push(outer.slice(lengths[k] ?? 0));
    outer.end();
    this.quotes = new Array<Quotes | undefined>(e);
  }

  get length(): number {
    return this.strike.length;
  }

  private quotesOf(e: number): Quotes {
    const kept = this.quotes[e];
    if (kept !== undefined) return kept;
    const count = this.counts[e] ?? 0;
    const part = `quotes of ${this.expirations[e] ?? ''}`;
    const block = new Reader(inflated(this.blocks[e] ?? new Uint8Array(0), part, 6 * numbersBytes(count) + 1 + count), part);
    const oi = block.numbers(count);
    const iv = block.numbers(count);
    const bid = block.numbers(count);
    const ask = block.numbers(count);
    const multiplier = block.numbers(count);
    let volume: Float64Array | null = null;
    if (this.hasVolume) {
      const presence = block.u8();
      if (presence !== ALL_PRESENT && presence !== SOME_MISSING) throw new PackedSnapshotError(`the ${part} has an unknown volume presence ${presence}`);
      const present = presence === SOME_MISSING ? block.slice(count) : null;
      volume = block.numbers(count);
      if (present !== null) for (let k = 0; k < count; k += 1) if (present[k] === 0) volume[k] = Number.NaN;
    }
    block.end();
    const quotes = { oi, iv, bid, ask, multiplier, volume };
    this.quotes[e] = quotes;
    return quotes;
  }

  contractsOf(wanted: Uint8Array): OptionContract[] {
    const e = this.expirations.length;
    const cursor = new Uint32Array(e);
    const quotes = new Array<Quotes | undefined>(e);
    let count = 0;
    for (let x = 0; x < e; x += 1) {
      if (wanted[x] !== 1) continue;
      quotes[x] = this.quotesOf(x);
      count += this.counts[x] ?? 0;
    }
    const contracts = new Array<OptionContract>(count);
    const { roots, expirations, root, expiration, strike, right } = this;
    let at = 0;
    for (let i = 0; i < strike.length; i += 1) {
      const x = expiration[i] ?? 0;
      const q = quotes[x];
      if (q === undefined) continue;
      const k = cursor[x] ?? 0;
      cursor[x] = k + 1;
      const traded = q.volume === null ? Number.NaN : (q.volume[k] ?? Number.NaN);
      // One literal per shape (with volume or without), as the parsers build them: no property added afterwards.
      const rootName = roots[root[i] ?? 0] ?? '';
      const expirationName = expirations[x] ?? '';
      const strikeValue = strike[i] ?? 0;
      const rightName = right.charCodeAt(i) === 0x50 ? 'P' : 'C';
      contracts[at] = Number.isNaN(traded)
        ? { root: rootName, expiration: expirationName, strike: strikeValue, right: rightName, openInterest: q.oi[k] ?? 0, iv: q.iv[k] ?? 0, bid: q.bid[k] ?? 0, ask: q.ask[k] ?? 0, multiplier: q.multiplier[k] ?? 0 }
        : { root: rootName, expiration: expirationName, strike: strikeValue, right: rightName, openInterest: q.oi[k] ?? 0, iv: q.iv[k] ?? 0, bid: q.bid[k] ?? 0, ask: q.ask[k] ?? 0, multiplier: q.multiplier[k] ?? 0, volume: traded };
      at += 1;
    }
    return contracts;
  }

  /** Every contract, in stored order. */
  contracts(): OptionContract[] {
    return this.contractsOf(new Uint8Array(this.expirations.length).fill(1));
  }
}
