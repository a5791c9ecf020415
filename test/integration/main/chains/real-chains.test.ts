import { describe, expect, it } from 'vitest';
import { detectChainFormat, parseChainFile } from '../../../../src-main/chains/index';
import { availableExpirations, computeGex, computeVanna, prepareChain } from '../../../../src-shared/exposure/index';
import { CHAIN_TABLE as TABLE, rawContracts, readChain as read } from '../../../quotedata';

describe('CBOE quotedata fixtures', () => {
  it.each(TABLE)('$file is detected and parses with the README figures', ({ file, symbol, spot, quoteTime, contracts }) => {
    expect(detectChainFormat(read(file))).toBe('cboe-csv');
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

  it('keeps every IV of the TSLA chains as a decimal: IVs above 5 stay in the snapshot and refuse nothing', () => {
    for (const [file, above5] of [
      ['TSLA_quotedata_2023-08-20_aryaman.csv', 1],
      ['TSLA_quotedata_2023-11-10_frlocale_hicham.csv', 29],
    ] as const) {
      const raw = rawContracts(read(file));
      expect(raw.filter((c) => c.iv > 5), `${file}: the README's count of IVs above 5`).toHaveLength(above5);
      const sorted = raw.map((c) => c.iv).filter((iv) => iv > 0).sort((a, b) => a - b);
      expect(sorted[Math.floor(sorted.length / 2)], 'a median IV near 1 (100%), a decimal').toBeGreaterThan(0.9);
      const parsed = parseChainFile(read(file));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
      expect(parsed.snapshot.contracts.map((c) => c.iv), 'IVs as in the file').toEqual(raw.map((c) => c.iv));
    }
  });
});

/**
 * The same real files as a spreadsheet re-saves them. Each variant is derived from the file in the test, and
 * must give exactly the snapshot of the original.
 */
const lines = (text: string) => text.split('\n');
/** Data rows: lines after the header. Rows of the real files have no quotes, so a split on commas is exact. */
function mapRows(text: string, map: (cells: string[]) => string[]): string {
  const all = lines(text);
  const header = all.findIndex((l) => l.startsWith('Expiration Date,'));
  return all.map((l, index) => (index > header && l.trim() !== '' ? map(l.split(',')).join(',') : l)).join('\n');
}
const SPREADSHEET: Record<string, (text: string) => string> = {
  'no blank first line': (text) => text.replace(/^\n/, ''),
  'every line padded with trailing commas to 24 cells': (text) =>
    lines(text)
      .map((l) => (l === '' ? l : l + ','.repeat(Math.max(1, 24 - l.split(',').length))))
      .join('\n'),
  'strikes without decimals': (text) => mapRows(text, (cells) => cells.map((cell, index) => (index === 11 ? String(Number(cell)) : cell))),
  'thousands separators (quoted), "Last:" and "Volume:" grouped': (text) =>
    mapRows(text, (cells) => cells.map((cell, index) => (index > 0 && /^\d{4,}(?:\.\d+)?$/.test(cell) && index !== 1 && index !== 12 ? `"${Number(cell).toLocaleString('en-US', { maximumFractionDigits: 10 })}"` : cell)))
      .replace(/Last: (\d+\.?\d*)/, (_, spot: string) => `"Last: ${Number(spot).toLocaleString('en-US', { maximumFractionDigits: 10 })}"`)
      .replace(/"?Volume: [\d,\u202f]+"?/, 'Volume: 130\u202f859\u202f611'),
  'every data cell quoted': (text) => mapRows(text, (cells) => cells.map((cell) => `"${cell}"`)),
  'expirations rewritten as M/D/YYYY': (text) => mapRows(text, (cells) => [new Date(`${cells[0] ?? ''} 12:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC' }), ...cells.slice(1)]),
  'CRLF line ends': (text) => text.replace(/\n/g, '\r\n'),
  'a byte-order mark': (text) => `\uFEFF${text}`,
  'a blank row of commas at the end': (text) => `${text.replace(/\n*$/, '')}\n${','.repeat(21)}\n`,
  'semicolons and decimal commas (a spreadsheet in a French or German locale)': (text) => {
    const all = lines(text);
    const header = all.findIndex((l) => l.startsWith('Expiration Date,'));
    return all
      .map((l, index) => {
        if (index < header) return l.replace(/,(?=\s*"?[A-Z]+:)/gi, ';').replace(/(Last|Bid|Ask): (\d+)\.(\d+)/g, '$1: $2,$3');
        return l
          .split(',')
          .map((cell) => cell.replace(/^(-?\d+)\.(\d+)$/, '$1,$2'))
          .join(';');
      })
      .join('\n');
  },
};
SPREADSHEET['all of the comma-file changes at once'] = (text) =>
  ['no blank first line', 'strikes without decimals', 'thousands separators (quoted), "Last:" and "Volume:" grouped', 'every line padded with trailing commas to 24 cells', 'a blank row of commas at the end', 'CRLF line ends', 'a byte-order mark'].reduce(
    (acc, name) => SPREADSHEET[name]?.(acc) ?? acc,
    text,
  );

const RESAVED_FILES = ['SPX_quotedata_2024-01-05close_phammings.csv', 'AMD_quotedata_2023-08-18close_aryaman.csv', 'NDX_quotedata_2023-05-26_ayour.csv', 'TSLA_quotedata_2023-11-10_frlocale_hicham.csv'];

describe('CBOE quotedata re-saved by a spreadsheet', () => {
  const cases = RESAVED_FILES.flatMap((file) => Object.keys(SPREADSHEET).map((variant) => ({ file, variant })));
  it.each(cases)('$file, $variant: the same snapshot as the original', ({ file, variant }) => {
    const original = parseChainFile(read(file));
    if (!original.ok) throw new Error(JSON.stringify(original.errors.slice(0, 3)));
    const text = SPREADSHEET[variant]?.(read(file)) ?? '';
    expect(text, 'the variant changed the file').not.toBe(read(file));
    expect(detectChainFormat(text), 'still detected').toBe('cboe-csv');
    const resaved = parseChainFile(text);
    if (!resaved.ok) throw new Error(`${variant}: ${JSON.stringify(resaved.errors.slice(0, 3))}`);
    expect(resaved.snapshot).toEqual(original.snapshot);
  });
});
