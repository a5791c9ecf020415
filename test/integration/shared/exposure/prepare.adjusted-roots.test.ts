import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../src-main/chains/index';
import { availableExpirations, computeGex, computeVanna, prepareChain, type PreparedChain } from '../../../../src-shared/exposure/index';
import { expiryMs, parityForward, rawContracts, readChain, yearsBetween } from '../../../quotedata';

const AMD = 'AMD_quotedata_2023-08-18close_aryaman.csv';
const QUOTE_TIME = '2023-08-21T02:35:00Z';
const SPOT = 105.6;
const RATE = 0.04;
/** The expiration where AMD1 (the Xilinx deliverable after the merger) lists 40 strikes beside AMD's. */
const SHARED = '2024-01-19';

/** A row whose call symbol has an adjusted root: OCC root = all but the last 15 characters (YYMMDD, C/P, strike). */
const isAdjustedRow = (line: string) => /\d$/.test((line.split(',')[1] ?? '').slice(0, -15));

/** The file with each AMD1 row moved before the AMD row of the same strike (a download may list them either way). */
function adjustedFirst(text: string): string {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    const previous = lines[i - 1] ?? '';
    const current = lines[i] ?? '';
    if (isAdjustedRow(current) && !isAdjustedRow(previous) && previous.split(',')[11] === current.split(',')[11]) {
      lines[i - 1] = current;
      lines[i] = previous;
    }
  }
  return lines.join('\n');
}

function prepared(text: string): PreparedChain {
  const parsed = parseChainFile(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  return prepareChain(parsed.snapshot, { rate: RATE });
}

const forwardOf = (chain: PreparedChain) => chain.byExpiration.get(SHARED)?.groups[0]?.forward ?? Number.NaN;

describe('adjusted roots on the real AMD chain (AMD1 shares strikes with AMD)', () => {
  // The describe body runs to collect its tests even when skipped: read the file only where it is.
  const text = readChain(AMD);
  const withoutAdjusted = text
    .split('\n')
    .filter((line) => !isAdjustedRow(line))
    .join('\n');
  const raw = rawContracts(text);
  const shared = raw.filter((c) => c.expiration === SHARED);
  const standard = shared.filter((c) => c.root === 'AMD');
  const adjusted = shared.filter((c) => c.root === 'AMD1');

  it('leaves AMD1 out of the parity forward, wherever its rows stand', () => {
    expect(adjusted, 'the file lists 40 AMD1 strikes, calls and puts').toHaveLength(80);
    expect(raw.filter((c) => c.root !== 'AMD'), 'and no other adjusted contract').toHaveLength(80);
    const firstStandard = standard[0];
    if (firstStandard === undefined) throw new Error('no AMD contract on the shared expiration');
    const tYears = yearsBetween(QUOTE_TIME, expiryMs(firstStandard));
    // By hand from the AMD rows (docs/exposure.md): the pair with the smallest |C_mid − P_mid|, K* + e^{rT}(C − P).
    const hand = parityForward(standard, SPOT, RATE, tYears);
    // What the AMD1 rows imply when they are taken for AMD's (listed first): their deliverable is worth about 1.72
    // AMD shares, so their parity strike sits near 185 and the forward falls back to S·e^{rT}.
    const handWithAdjusted = parityForward([...adjusted, ...standard], SPOT, RATE, tYears);
    console.log(
      `AMD ${SHARED}: forward by hand ${hand.toFixed(4)} (AMD rows), ${handWithAdjusted.toFixed(4)} with the AMD1 rows taken first ` +
        `(${((handWithAdjusted / hand - 1) * 100).toFixed(2)}%); spot ${SPOT}`,
    );
    expect(Math.abs(handWithAdjusted / hand - 1), 'the AMD1 rows would move the forward').toBeGreaterThan(0.003);

    expect(forwardOf(prepared(text)), 'the file as downloaded').toBeCloseTo(hand, 10);
    expect(forwardOf(prepared(adjustedFirst(text))), 'AMD1 rows listed before AMD').toBeCloseTo(hand, 10);
    expect(forwardOf(prepared(withoutAdjusted)), 'AMD1 rows removed').toBeCloseTo(hand, 10);
  });

  it('gives every exposure figure of the file without its AMD1 rows, and counts them', () => {
    const chain = prepared(adjustedFirst(text));
    const clean = prepared(withoutAdjusted);
    expect(chain.excluded.adjusted).toBe(80);
    expect(chain.adjustedRoots).toEqual(['AMD1']);
    expect(clean.excluded.adjusted).toBe(0);
    const all = availableExpirations(clean);
    expect(availableExpirations(chain)).toEqual(all);
    const { meta, ...gex } = computeGex(chain, { expirations: all, formula: 'per_1pct' });
    const { meta: cleanMeta, ...cleanGex } = computeGex(clean, { expirations: all, formula: 'per_1pct' });
    expect(gex, 'per-strike GEX and OI, total, walls and flip').toEqual(cleanGex);
    expect(meta).toEqual({ ...cleanMeta, excludedContracts: 80 });
    const vanna = computeVanna(chain, { expiration: SHARED });
    const cleanVanna = computeVanna(clean, { expiration: SHARED });
    expect(vanna.data).toEqual(cleanVanna.data);
    expect(vanna.meta).toEqual({ contracts: cleanVanna.meta.contracts, excludedContracts: 80 });
  });
});
