/**
 * journal.custom_format_vs_generic (docs/decisions.md §Benchmarks): a user-defined format (docs/importers.md,
 * "User-defined formats") must read a big file about as fast as a built-in importer. The same 100,000-row CSV is
 * parsed by the generic importer and by a saved format mapping the same columns, in this thread, alternating which
 * goes first; the line is the ratio of their times (generic ÷ custom), so the machine's load cancels out.
 */
import { syntheticTransactions } from '../src-shared/demo/journal';
import { parseGeneric } from '../src-main/importers/generic/index';
import { parseWithFormat, type SavedFormat } from '../src-main/importers/custom/index';
import { atLeast, median, type BenchLine } from './lib';
import { toGenericCsv } from './journal';
import { genericColumnsMapping } from '../test/generic-mapping';

const COUNT = 100_000;
const ROUNDS = 5;

/** The generic CSV's columns as a user would map them (types are the cells' own names: no words needed; ids as row ids, as the generic importer reads them). */
const FORMAT: SavedFormat = {
  id: 'bench',
  name: 'Generic, mapped by hand',
  header: 'id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency,orderId,description,multiplier,previousSymbol'.split(','),
  mapping: genericColumnsMapping('utc', false),
};

export function benchImportFormats(): BenchLine[] {
  const csv = toGenericCsv(syntheticTransactions(COUNT, 42));
  const time = (parse: () => { errors: unknown[]; transactions: unknown[] }): number => {
    const start = performance.now();
    const result = parse();
    if (result.errors.length > 0 || result.transactions.length !== COUNT) throw new Error(`parsed ${result.transactions.length} of ${COUNT} with ${result.errors.length} errors`);
    return performance.now() - start;
  };
  const generic = () => time(() => parseGeneric(csv, {}));
  const custom = () => time(() => parseWithFormat(FORMAT, csv, {}));
  const ratios: number[] = [];
  const customMs: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    const pair = round % 2 === 0 ? { generic: generic(), custom: custom() } : { custom: custom(), generic: generic() };
    if (round === 0) continue;
    ratios.push(pair.generic / pair.custom);
    customMs.push(pair.custom);
  }
  return [
    atLeast(
      'journal.custom_format_vs_generic',
      median(ratios),
      'x',
      0.5,
      `parse time of the generic importer ÷ a saved format's on the same ${COUNT}-row CSV, median of ${ROUNDS} back-to-back pairs (${ratios.map((r) => r.toFixed(2)).join(', ')}); custom ${Math.round(median(customMs))} ms`,
    ),
  ];
}
