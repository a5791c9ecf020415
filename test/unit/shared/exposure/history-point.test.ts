import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../src-main/chains/index';
import { packContracts } from '../../../../src-main/db/snapshot-payload';
import { packColumns } from '../../../../src-main/db/snapshot-columns';
import { historyPoint, packedHistoryPoint, preparePacked, type GexScopeQuery, type PackedSnapshot } from '../../../../src-main/services/exposure/compute';
import { FORMULAS } from '../../../../src-shared/api/constants';
import { pointInFormula } from '../../../../src-shared/exposure/history-point';
import { prepareChain } from '../../../../src-shared/exposure/prepare';
import { contract, snapshot } from '../../../exposure-helpers';
import { CHAIN_FIXTURES } from '../../../paths';

const RATE = 0.04;

/** The scopes the page and the API ask for: counts, dte ranges, explicit lists (with a date the chain lacks). */
function scopes(expirations: readonly string[]): GexScopeQuery[] {
  const [first, second, third] = expirations;
  const explicit = [first, third, '2001-01-19'].filter((e) => e !== undefined).join(',');
  return [
    ...FORMULAS.map((formula) => ({ formula })),
    { expirationsCount: 1 },
    { expirationsCount: 5, formula: 'per_1pct' },
    { minDte: 0 },
    { maxDte: 0 },
    { minDte: 1, expirationsCount: 2 },
    { minDte: 3, maxDte: 40, formula: 'per_1dollar' },
    { expirations: explicit },
    { expirations: [second, first].filter((e) => e !== undefined).join(',') },
    { expirations: '2001-01-19' },
  ];
}

/** The stored forms: the deflated JSON of before issue 32, the columns since (db/snapshot-columns.ts). */
const FORMS = [
  { form: 'json', pack: packContracts },
  { form: 'columns', pack: packColumns },
] as const;

function stored(text: string, quoteTime?: string, pack: (contracts: Parameters<typeof packColumns>[0]) => Buffer = packColumns): PackedSnapshot {
  const parsed = parseChainFile(text, quoteTime === undefined ? {} : { quoteTime });
  if (!parsed.ok) throw new Error('the fixture does not parse');
  const { symbol, spot, source, contracts } = parsed.snapshot;
  return { id: 1, symbol, spot, source, quoteTime: new Date(Date.parse(parsed.snapshot.quoteTime)).toISOString(), payload: pack(contracts) };
}

const files = readdirSync(CHAIN_FIXTURES).filter((name) => name.endsWith('.csv'));

describe('a history point from the scope’s expirations alone equals the point of the whole prepared chain', () => {
  it.each(FORMS)('on every real chain (test/paths.ts CHAIN_FIXTURES), every scope and formula, to the bit, stored as $form', ({ pack }) => {
    let compared = 0;
    for (const name of files) {
      const snapshotRow = stored(readFileSync(join(CHAIN_FIXTURES, name), 'utf8'), undefined, pack);
      const chain = preparePacked(snapshotRow, RATE);
      for (const query of scopes(chain.expirations.map((e) => e.expiration))) {
        expect(packedHistoryPoint(snapshotRow, query, RATE), `${name} ${JSON.stringify(query)}`).toStrictEqual(historyPoint(chain, query));
        compared += 1;
      }
    }
    expect(compared).toBe(files.length * 12);
  });

  it('a nominal point in another formula (pointInFormula) is /gex’s point in that formula, to the bit', () => {
    for (const name of files) {
      const chain = preparePacked(stored(readFileSync(join(CHAIN_FIXTURES, name), 'utf8')), RATE);
      for (const query of [{}, { expirationsCount: 5 }, { minDte: 0 }]) {
        const nominal = historyPoint(chain, query);
        for (const formula of FORMULAS) expect(pointInFormula(nominal, formula), `${name} ${formula}`).toStrictEqual(historyPoint(chain, { ...query, formula }));
      }
    }
  });

  const spx = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');
  it('on the 1,000-snapshot series of the bench (SPX 2024-01-05 at 14 quote times a day for 72 days), every 20th', () => {
    const base = stored(readFileSync(spx, 'utf8'));
    // bench/lake.ts's quote times: back from 2024-01-05 16:00 New York, half an hour apart, 14 a day.
    const close = Date.parse('2024-01-05T21:00:00Z');
    const flips = new Set<number | null>();
    for (let index = 0; index < 1000; index += 20) {
      const quoteMs = close - Math.floor(index / 14) * 86_400_000 - (index % 14) * 1_800_000;
      const row = { ...base, quoteTime: new Date(quoteMs).toISOString() };
      const expected = historyPoint(preparePacked(row, RATE), {});
      expect(packedHistoryPoint(row, {}, RATE), row.quoteTime).toStrictEqual(expected);
      flips.add(expected.gammaInflection);
    }
    // The series moves: the nearest three expirations and their T change with the quote time.
    expect(flips.size).toBeGreaterThan(10);
  });

  it.each(FORMS)('leaves out what the engine leaves out: expired contracts, adjusted roots and strikes ≤ 0 do not make an expiration ($form)', ({ pack }) => {
    // Quoted 2026-02-02 (helpers.ts): 2026-01-30 is expired, AMD1 is adjusted, the 2026-03-20 contract has strike 0.
    const contracts = [
      contract({ expiration: '2026-01-30', strike: 100, right: 'C' }),
      contract({ root: 'AMD1', expiration: '2026-02-27', strike: 100, right: 'C' }),
      contract({ expiration: '2026-03-20', strike: 0, right: 'P' }),
      contract({ expiration: '2026-02-09', strike: 100, right: 'C' }),
      contract({ expiration: '2026-02-09', strike: 100, right: 'P' }),
      contract({ expiration: '2026-02-13', strike: 105, right: 'C' }),
    ];
    const chain = snapshot(contracts);
    const row: PackedSnapshot = { id: 1, symbol: chain.symbol, spot: chain.spot, quoteTime: chain.quoteTime, source: chain.source, payload: pack(contracts) };
    const prepared = prepareChain(chain, { rate: RATE });
    expect(prepared.expirations.map((e) => e.expiration)).toEqual(['2026-02-09', '2026-02-13']);
    for (const query of [{}, { expirationsCount: 1 }, { minDte: 0 }, { expirations: '2026-01-30,2026-02-13' }, { expirations: '2026-02-27' }]) {
      expect(packedHistoryPoint(row, query, RATE), JSON.stringify(query)).toStrictEqual(historyPoint(prepared, query));
    }
  });
});
