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
 *
 * Written here (packColumns), read by db/stored-columns.ts (StoredColumns).
 */
import { deflateSync } from 'node:zlib';
import type { OptionContract } from '../../src-shared/exposure/model';
import { interner } from './packing';

/** "SBKC" as its four bytes: a zlib stream (the JSON forms) starts with 0x78, so the two cannot be mistaken. */
const MAGIC = [0x53, 0x42, 0x4b, 0x43] as const;
export const COLUMNS_VERSION = 3;
/** Deflate level of every part: level 6 is 4% smaller than 1 on the SPX chain, reads as fast, and writes in ~6 ms. */
const LEVEL = 6;

/** A column's encoding (its first byte), and whether a block's volumes are all present: written here, read by stored-columns.ts. */
export const CONSTANT = 0;
export const SCALED = 1;
export const FLOAT = 2;
/** Exact powers of ten: k / 10^s is then the double nearest to the decimal, as the parser read it. */
export const POWERS = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000] as const;
export const ALL_PRESENT = 0;
export const SOME_MISSING = 1;
export const FLAG_VOLUME = 1;

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
export function indexWidth(size: number): number {
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
