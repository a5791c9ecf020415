/**
 * The column form of a stored snapshot (src-main/db/snapshot-columns.ts; docs/decisions.md, "Snapshots stored as
 * columns of numbers"): every real chain reads back contract for contract, to the bit, in its order, with its volume
 * where it had one; values no scale gives back exactly are kept as float64s; a point reads the quotes of the
 * expirations it asks for; every damaged byte is refused by name.
 */
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../src-main/chains/index';
import { COLUMNS_VERSION, isColumnsPayload, packColumns } from '../../../../src-main/db/snapshot-columns';
import { StoredColumns } from '../../../../src-main/db/stored-columns';
import { packContracts, PackedSnapshotError, unpackColumns, unpackContracts } from '../../../../src-main/db/snapshot-payload';
import type { OptionContract } from '../../../../src-shared/exposure/model';
import { chainFiles, readChain } from '../../../quotedata';

const contract = (over: Partial<OptionContract>): OptionContract => ({ root: 'SPXW', expiration: '2024-01-19', strike: 4700, right: 'C', openInterest: 10, iv: 0.12, bid: 1.1, ask: 1.2, multiplier: 100, ...over });

/** Equal to the bit: -0 is not 0, NaN is NaN (toStrictEqual compares numbers with Object.is). */
function expectSameContracts(actual: OptionContract[], expected: readonly OptionContract[], label: string): void {
  expect(actual.length, label).toBe(expected.length);
  expect(actual, label).toStrictEqual(expected);
}

describe('the column form of a stored snapshot', () => {
  it('reads every real chain back contract for contract, to the bit and in order, in fewer bytes than the JSON form', () => {
    expect(chainFiles).toHaveLength(12);
    for (const file of chainFiles) {
      const parsed = parseChainFile(readChain(file), {});
      if (!parsed.ok) throw new Error(`${file} does not parse`);
      const contracts = parsed.snapshot.contracts;
      const blob = packColumns(contracts);
      expect(isColumnsPayload(blob), file).toBe(true);
      expectSameContracts(unpackContracts(blob), contracts, file);
      // The CBOE downloads have volume: every contract keeps it.
      expect(unpackContracts(blob).every((c) => typeof c.volume === 'number'), file).toBe(true);
      expect(blob.length, `${file}: ${blob.length} bytes against ${packContracts(contracts).length}`).toBeLessThan(packContracts(contracts).length);
    }
  });

  it('keeps volume where a contract had one and leaves it out where it had none; a chain without volume reads without', () => {
    const some = [contract({ volume: 5 }), contract({ strike: 4705 }), contract({ strike: 4710, volume: 0 })];
    const read = unpackContracts(packColumns(some));
    expectSameContracts(read, some, 'some volume');
    expect(read[1]).not.toHaveProperty('volume');
    const none = [contract({}), contract({ strike: 4705, right: 'P' })];
    expectSameContracts(unpackContracts(packColumns(none)), none, 'no volume');
    expect(unpackContracts(packColumns(none)).some((c) => 'volume' in c)).toBe(false);
  });

  it('gives back values no power of ten writes exactly, -0, huge and negative numbers, as they were', () => {
    const odd = [
      contract({ strike: 4700.125, iv: 1e-9, bid: 0.1 + 0.2, ask: -0, openInterest: 3e9, multiplier: 10 }),
      contract({ strike: 0.5, iv: 1 / 3, bid: 123456.78, ask: 123456.79, openInterest: 0, multiplier: 100 }),
      contract({ strike: 1e6, iv: 5.18, bid: Number.MAX_SAFE_INTEGER, ask: 2 ** 31, openInterest: -1, multiplier: 100, volume: 1e12 }),
    ];
    const read = unpackContracts(packColumns(odd));
    expectSameContracts(read, odd, 'odd values');
    expect(Object.is(read[0]?.ask, -0), '-0 stays -0').toBe(true);
    expect(read[0]?.bid, '0.1 + 0.2 is not 0.3').toBe(0.30000000000000004);
  });

  it('reads an empty chain, one contract, and dictionaries wider than a byte (300 roots, 300 expirations)', () => {
    expect(unpackContracts(packColumns([]))).toEqual([]);
    expectSameContracts(unpackContracts(packColumns([contract({})])), [contract({})], 'one');
    const wide: OptionContract[] = [];
    for (let i = 0; i < 600; i += 1) {
      const day = new Date(Date.UTC(2024, 0, 1) + (i % 300) * 86_400_000).toISOString().slice(0, 10);
      wide.push(contract({ root: `R${i % 300}`, expiration: day, strike: 100 + i, right: i % 2 === 0 ? 'C' : 'P', openInterest: i }));
    }
    const blob = packColumns(wide);
    expectSameContracts(unpackContracts(blob), wide, 'wide');
    expect(new StoredColumns(blob).roots).toHaveLength(300);
  });

  it('gives a point the contracts of the expirations it asks for, in stored order, and the keys of all', () => {
    const chain = [
      contract({ expiration: '2024-01-19', strike: 4700 }),
      contract({ expiration: '2024-02-16', strike: 4800 }),
      contract({ expiration: '2024-01-19', strike: 4600, right: 'P', root: 'SPX' }),
      contract({ expiration: '2024-03-15', strike: 4900 }),
      contract({ expiration: '2024-02-16', strike: 4700, right: 'P' }),
    ];
    const columns = unpackColumns(packColumns(chain));
    expect(columns.expirations).toEqual(['2024-01-19', '2024-02-16', '2024-03-15']);
    expect(Array.from(columns.strike)).toEqual([4700, 4800, 4600, 4900, 4700]);
    expect(columns.right).toBe('CCPCP');
    expect(columns.contractsOf(Uint8Array.from([1, 0, 1]))).toStrictEqual([chain[0], chain[2], chain[3]]);
    expect(columns.contractsOf(Uint8Array.from([0, 1, 0]))).toStrictEqual([chain[1], chain[4]]);
  });

  it('never reads a damaged payload as another chain: any changed byte is refused by name (PackedSnapshotError)', () => {
    const chain = [contract({ volume: 3 }), contract({ strike: 4705, right: 'P', expiration: '2024-02-16' }), contract({ strike: 4710, bid: 0.05, iv: 0.4 })];
    const blob = packColumns(chain);
    expect(blob.readUInt16LE(4)).toBe(COLUMNS_VERSION);
    let refused = 0;
    let unchanged = 0;
    for (let at = 0; at < blob.length; at += 1) {
      for (const flip of [0x01, 0x80, 0xff]) {
        const damaged = Buffer.from(blob);
        damaged[at] = (damaged[at] ?? 0) ^ flip;
        let read: OptionContract[] | null = null;
        try {
          read = unpackContracts(damaged);
        } catch (error) {
          // The magic tells the column form from the JSON form: another first four bytes are read as JSON, and refused too.
          if (at >= 4) expect(error, `byte ${at} ^ ${flip}`).toBeInstanceOf(PackedSnapshotError);
          refused += 1;
        }
        if (read === null) continue;
        // The padding bits after a deflate stream's last code carry nothing: the chain read is the chain stored.
        expect(read, `byte ${at} ^ ${flip} read`).toStrictEqual(chain);
        unchanged += 1;
      }
    }
    expect(unchanged, 'only padding bits go unnoticed').toBeLessThan(refused / 20);
    for (let length = 4; length < blob.length; length += 1) expect(() => unpackContracts(blob.subarray(0, length)), `cut at ${length}`).toThrow(PackedSnapshotError);
    expect(() => unpackContracts(Buffer.concat([blob, Buffer.from([0])])), 'a byte too many').toThrow(/1 bytes too many/);
    const newer = Buffer.from(blob);
    newer.writeUInt16LE(COLUMNS_VERSION + 1, 4);
    expect(() => unpackContracts(newer)).toThrow(new PackedSnapshotError(`version ${COLUMNS_VERSION + 1}`));
  });
});
