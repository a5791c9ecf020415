import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../src-main/chains/index';
import { availableExpirations, computeGex, computeVanna, prepareChain } from '../../../src-shared/exposure/index';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dir = path.resolve(repo, '../shared/fixtures/chains');
const present = existsSync(dir);
if (!present) console.log(`skipping real-chain tests: ${dir} is absent`);

const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

// fixtures/README.md table: underlying, spot, quote time (New York → UTC: EST = UTC−5, EDT = UTC−4), contracts.
const TABLE = [
  { file: 'SPX_quotedata_2024-01-05close_phammings.csv', symbol: 'SPX', spot: 4697.2402, quoteTime: '2024-01-07T15:52:00Z', contracts: 21038 },
  { file: 'NDX_quotedata_2022-02-04close_luca.csv', symbol: 'NDX', spot: 14694.3506, quoteTime: '2022-02-06T01:26:00Z', contracts: 18386 },
  { file: 'SPX_quotedata_2022-02-04close_luca.csv', symbol: 'SPX', spot: 4500.5298, quoteTime: '2022-02-06T01:09:00Z', contracts: 20514 },
  { file: 'SPX_quotedata_2023-09-14_carlos.csv', symbol: 'SPX', spot: 4505.1001, quoteTime: '2023-09-14T20:31:00Z', contracts: 19920 },
  { file: 'SPY_quotedata_2023-09-14_carlos.csv', symbol: 'SPY', spot: 450.81, quoteTime: '2023-09-14T20:31:00Z', contracts: 7292 },
  { file: 'XSP_quotedata_2023-09-14_carlos.csv', symbol: 'XSP', spot: 450.51, quoteTime: '2023-09-14T20:30:00Z', contracts: 10882 },
  { file: 'AMD_quotedata_2023-08-18close_aryaman.csv', symbol: 'AMD', spot: 105.6, quoteTime: '2023-08-21T02:35:00Z', contracts: 1738 },
  { file: 'SPX_quotedata_2025-01-06_20rows_dorel.csv', symbol: 'SPX', spot: 5975.3799, quoteTime: '2025-01-07T01:57:00Z', contracts: 40 },
];

describe.skipIf(!present)('CBOE quotedata fixtures', () => {
  it.each(TABLE)('$file parses with the README figures', ({ file, symbol, spot, quoteTime, contracts }) => {
    const result = parseChainFile(read(file));
    if (!result.ok) throw new Error(JSON.stringify(result.errors.slice(0, 3)));
    expect(result.snapshot.symbol, 'from the OCC roots (SPXW/SPX → SPX, NDXP/NDX → NDX, AMD1 → AMD)').toBe(symbol);
    expect(result.snapshot.spot, 'the Last: figure').toBe(spot);
    expect(result.snapshot.quoteTime, 'the Date: line, New York → UTC').toBe(quoteTime);
    expect(result.snapshot.contracts, 'two contracts per row, expired and zero-OI/IV ones included').toHaveLength(contracts);
    expect(result.snapshot.source).toBe('cboe-csv');
  });

  it('keeps the OCC root for settlement', () => {
    const result = parseChainFile(read(TABLE[0]?.file ?? ''));
    if (!result.ok) throw new Error('parse failed');
    const roots = new Set(result.snapshot.contracts.filter((c) => c.expiration === '2024-01-19').map((c) => c.root));
    expect(roots, 'the January monthly lists both the AM SPX and the PM SPXW contracts').toEqual(new Set(['SPX', 'SPXW']));
    const chain = prepareChain(result.snapshot, { rate: 0.04 });
    expect(chain.expirations[0]?.expiration, 'Friday 2024-01-05 expired before the Sunday quote').toBe('2024-01-08');
    expect(chain.byExpiration.get('2024-01-19')?.groups.map((g) => g.settlement)).toEqual(['AM', 'PM']);
  });

  it('SPX 2024-01-05 whole chain matches the published figures', () => {
    const text = read(TABLE[0]?.file ?? '');
    let started = performance.now();
    const parsed = parseChainFile(text);
    const parseMs = performance.now() - started;
    if (!parsed.ok) throw new Error('parse failed');
    started = performance.now();
    const chain = prepareChain(parsed.snapshot, { rate: 0.04 });
    const prepareMs = performance.now() - started;
    started = performance.now();
    const whole = computeGex(chain, { expirations: availableExpirations(chain), formula: 'per_1pct' });
    const wholeMs = performance.now() - started;
    started = performance.now();
    const near = computeGex(chain, { expirations: [], formula: 'per_1pct' });
    const nearMs = performance.now() - started;
    started = performance.now();
    const vanna = computeVanna(chain, { expiration: null });
    const vannaMs = performance.now() - started;
    console.log(
      `SPX 2024-01-05: parse ${parseMs.toFixed(1)} ms, prepare ${prepareMs.toFixed(1)} ms, whole-chain gex ${wholeMs.toFixed(1)} ms, ` +
        `3 expirations ${nearMs.toFixed(1)} ms (${near.meta.expirations.join(', ')}, flip ${near.gammaInflection?.toFixed(1)}), vanna ${vannaMs.toFixed(1)} ms (first, cold calls)\n` +
        `  total ${(whole.totalGEX / 1e9).toFixed(3)} bn per 1%, flip ${whole.gammaInflection?.toFixed(2)}, ` +
        `call wall ${whole.callWall?.strike} (${((whole.callWall?.gex ?? 0) / 1e9).toFixed(2)} bn), put wall ${whole.putWall?.strike} (${((whole.putWall?.gex ?? 0) / 1e9).toFixed(2)} bn); ` +
        `vanna book ${vanna.meta.contracts} contracts`,
    );
    // Published (fixtures/README.md): total −$11.00bn per 1% move, flip 4,734, call-side peak at 4800 (~+10.0bn),
    // put-side peak at 4600 (~−7.7bn) with 4700 within 0.3% of it.
    expect(Math.abs(whole.totalGEX / -11.0e9 - 1), 'total within 5% of the published −11.00bn').toBeLessThan(0.05);
    expect(Math.abs((whole.gammaInflection ?? 0) / 4734 - 1), 'flip within 1% of the published 4,734').toBeLessThan(0.01);
    expect(whole.callWall?.strike, 'largest call GEX at 4800').toBe(4800);
    expect([4600, 4700], 'largest put GEX at 4600 or 4700 (within 0.3% of each other in the published data)').toContain(whole.putWall?.strike);
    expect(whole.gammaZone).toBe('negative');
  });

  it('NDX 2022-02-04 whole-chain flip matches the published figure', () => {
    const parsed = parseChainFile(read(TABLE[1]?.file ?? ''));
    if (!parsed.ok) throw new Error('parse failed');
    const chain = prepareChain(parsed.snapshot, { rate: 0.04 });
    const whole = computeGex(chain, { expirations: availableExpirations(chain), formula: 'per_1pct' });
    console.log(`NDX 2022-02-04: flip ${whole.gammaInflection?.toFixed(2)}, total ${(whole.totalGEX / 1e9).toFixed(3)} bn`);
    expect(Math.abs((whole.gammaInflection ?? 0) / 14686 - 1), 'flip within 1% of the published 14,686').toBeLessThan(0.01);
  });
});
