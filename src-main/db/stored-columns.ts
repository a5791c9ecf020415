/**
 * The column form of a stored snapshot (db/snapshot-columns.ts, where its layout is written down) read back: every
 * length, count and index checked as read, each part inflated within the bytes it can hold, the keys of every
 * contract at once and the quotes of an expiration when first asked for.
 */
import { inflateSync } from 'node:zlib';
import type { ChainColumns } from '../../src-shared/exposure/history-point';
import type { OptionContract } from '../../src-shared/exposure/model';
import { PackedSnapshotError } from './packing';
import { ALL_PRESENT, COLUMNS_VERSION, CONSTANT, FLAG_VOLUME, FLOAT, indexWidth, isColumnsPayload, POWERS, SCALED, SOME_MISSING } from './snapshot-columns';

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
