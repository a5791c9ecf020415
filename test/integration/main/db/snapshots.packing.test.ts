/**
 * The packed snapshot (docs/decisions.md, "Volume in the packed snapshot"): version 1, as stored before volume, still
 * reads; a chain without volume packs to exactly those bytes (so the same file posted again is still found); a chain
 * with volume packs as version 2 and reads back with it; a damaged payload is refused by name, not misread.
 */
import { deflateSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packContracts, PackedSnapshotError, unpackContracts } from '../../../../src-main/db/snapshot-payload';
import type { OptionContract } from '../../../../src-shared/exposure/model';

const CONTRACTS: OptionContract[] = [
  { root: 'SPXW', expiration: '2024-01-19', strike: 4700, right: 'C', openInterest: 5621, iv: 0.1187, bid: 48.1, ask: 48.9, multiplier: 100 },
  { root: 'SPX', expiration: '2024-01-19', strike: 4700, right: 'P', openInterest: 7032, iv: 0.1213, bid: 45.9, ask: 46.6, multiplier: 100 },
  { root: 'SPXW', expiration: '2024-02-16', strike: 4800, right: 'C', openInterest: 0, iv: 0, bid: 0, ask: 0.05, multiplier: 100 },
];

/** The version-1 blob as the code before issue 21 wrote it, spelled out by hand. */
const V1_JSON =
  '{"v":1,"roots":["SPXW","SPX"],"expirations":["2024-01-19","2024-02-16"],"root":[0,1,0],"expiration":[0,0,1],"strike":[4700,4700,4800],"right":"CPC",' +
  '"oi":[5621,7032,0],"iv":[0.1187,0.1213,0],"bid":[48.1,45.9,0],"ask":[48.9,46.6,0.05],"multiplier":[100,100,100]}';
const deflate = (json: string) => deflateSync(json, { level: constants.Z_BEST_SPEED });

describe('the packed snapshot', () => {
  it('reads version 1 as stored before volume existed', () => {
    expect(unpackContracts(deflate(V1_JSON))).toEqual(CONTRACTS);
  });

  it('packs a chain without volume byte for byte as version 1', () => {
    expect(Buffer.compare(packContracts(CONTRACTS), deflate(V1_JSON)), 'same bytes: same digest, so a re-post is found').toBe(0);
  });

  it('packs volume as version 2 and reads it back; a contract without volume stays without', () => {
    const withVolume: OptionContract[] = CONTRACTS.map((c, index) => (index === 2 ? c : { ...c, volume: 100 * (index + 1) }));
    const blob = packContracts(withVolume);
    expect(unpackContracts(blob)).toEqual(withVolume);
    expect(unpackContracts(blob)[2]).not.toHaveProperty('volume');
  });

  it('refuses a payload of an unknown version or with columns that do not line up', () => {
    expect(() => unpackContracts(deflate(V1_JSON.replace('"v":1', '"v":3')))).toThrow(PackedSnapshotError);
    expect(() => unpackContracts(deflate(V1_JSON.replace('"oi":[5621,7032,0]', '"oi":[5621,7032]')))).toThrow(/another length/);
    expect(() => unpackContracts(deflate(V1_JSON.replace('"v":1', '"v":2')))).toThrow(/without its volume column/);
    expect(() => unpackContracts(deflate(V1_JSON.replace('"iv":[0.1187,0.1213,0]', '"iv":[0.1187,"x",0]')))).toThrow(PackedSnapshotError);
  });
});
