import { RowReader } from '../common/cells';
import { ResultCollector, RowIdentity, accountFor } from '../common/result';
import { headerNear, nameSet, readTable } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { SOURCE, mapRows } from './mapper';
import type { TastyRow } from './schema';
import { CURRENT_REQUIRED, LEGACY_REQUIRED, TASTYWORKS_REQUIRED, layoutOf, readCurrentRow, readLegacyRow } from './schema';
import { BROKER_LABELS } from '../../../src-shared/api/constants';

export function parseTastytrade(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('tastytrade', SOURCE, 'newest-first');
  const table = readTable(out, text, {
    isHeader: (names) => layoutOf(names) !== null,
    required: [],
    what: 'a tastytrade transactions export',
    headerHint: '"Date,Type,Sub Type,Action,...", "Date,Type,Action,Symbol,Instrument Type,..." or "Date/Time,Transaction Code,..."',
  });
  if (table === null) return out.result();
  const layout = layoutOf(nameSet(table.header.cells)) ?? 'current';
  const missing = table.columns.missing(layout === 'current' ? CURRENT_REQUIRED : layout === 'tastyworks' ? TASTYWORKS_REQUIRED : LEGACY_REQUIRED);
  if (missing.length > 0) {
    out.error(table.header.line, `the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
    return out.result();
  }
  const hasTotal = table.columns.has('total');
  const identity = new RowIdentity();
  const rows: TastyRow[] = [];
  for (const record of table.rows) {
    const reader = new RowReader(record, table.columns, out);
    const row = layout === 'legacy' ? readLegacyRow(reader, identity) : readCurrentRow(reader, identity, hasTotal);
    if (row) rows.push(row);
  }
  if (out.errors.length > 0) return out.result();
  for (const parsed of mapRows(rows, { accountName: accountFor(null, options, 'tastytrade'), warn: (line, message) => out.warn(line, message), merge: (lines, reason) => out.merge(lines, reason) })) {
    out.add(parsed.line, parsed.transaction);
  }
  return out.result();
}

export const tastytradeImporter: BrokerImporter = {
  id: 'tastytrade',
  label: BROKER_LABELS.tastytrade,
  formats: 'transaction history CSV (current 21- and 20-column layouts, tastyworks 2021–2023 18-column layout, legacy tastyworks)',
  detect: headerNear((names) => layoutOf(names) !== null),
  parse: parseTastytrade,
};
