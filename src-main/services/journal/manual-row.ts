/**
 * A manual row read as a row of the generic CSV (docs/journal.md, "Manual entries"): one grammar for a file and a form.
 * The reader's problems come back named by the JSON's field names.
 */
import { FILLS, MANUAL_SOURCE } from '../../../src-shared/api/constants';
import type { ManualTransactionT } from '../../../src-shared/api/manual-schemas';
import type { RawTransaction } from '../../../src-shared/journal/model';
import { Columns } from '../../importers/common/cells';
import { ResultCollector, RowIdentity } from '../../importers/common/result';
import { chainUnderlying } from '../../../src-shared/exposure/roots';
import { GenericRow, OPTIONAL_COLUMNS, readRow, REQUIRED_COLUMNS } from '../../importers/generic/index';
import { asMinor, MINOR_PER_UNIT } from '../../../src-shared/money';
import { MAX_MONEY_MINOR } from '../../../src-shared/bounds';

/** A figure in minor units as currency units for a message (`100,000,000,000`). */
function formatUnits(minor: number): string {
  return (minor / MINOR_PER_UNIT).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** The fills: their cash is computed from price, quantity and costs when not given. */
/** The generic CSV's columns: a manual row is read as a row of that file. */
const COLUMNS = new Columns([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
/** The generic columns by their normalised names (Columns lower-cases them), back to the field names of the JSON. */
const FIELD_NAMES = new Map<string, string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].map((name) => [name.toLowerCase(), name]));
/** How the cell reader names a problem's column (importers/common/cells.ts). */
const CELL = /^column "([^"]+)": /;

function cell(value: string | number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** The row through the generic CSV's reader, with the defaults of a form (a fill's cash computed). */
export function readManualRow(row: ManualTransactionT, accountName: string, fail: (field: string, message: string) => void): RawTransaction | null {
  const fill = FILLS.has(row.type);
  const cells: Record<string, string> = {
    date: row.date,
    type: row.type,
    symbol: cell(row.symbol),
    // Rows that are not fills move no shares unless told (a settlement of 0 means "the whole position").
    quantity: row.quantity === undefined && !fill ? '0' : cell(row.quantity),
    price: cell(row.price),
    // Checked by the reader's sign rules once computed (below): a placeholder that breaks none of them.
    amount: row.amount === undefined ? '0' : cell(row.amount),
    commission: cell(row.commission),
    fees: cell(row.fees),
    currency: cell(row.currency),
    orderId: cell(row.orderId),
    description: cell(row.description),
    expiration: cell(row.expiration),
    strike: cell(row.strike),
    right: cell(row.right),
    multiplier: cell(row.multiplier),
    id: 'manual',
    underlying: cell(row.underlying),
    previousSymbol: cell(row.previousSymbol),
  };
  const out = new ResultCollector('generic', MANUAL_SOURCE, 'oldest-first');
  const reader = new GenericRow(COLUMNS, out);
  reader.load(COLUMNS.names.map(({ name }) => cells[FIELD_NAMES.get(name) ?? name] ?? ''), 1);
  const transaction = readRow(reader, accountName, new RowIdentity());
  for (const problem of out.errors) {
    const match = CELL.exec(problem.message);
    const field = match?.[1] ?? 'body';
    fail(FIELD_NAMES.get(field.toLowerCase()) ?? field, match ? problem.message.slice(match[0].length) : problem.message);
  }
  if (transaction === null || out.errors.length > 0) return null;
  transaction.source = MANUAL_SOURCE;
  // An SPXW put entered by hand belongs to the SPX chain, as an imported one does (docs/journal.md §Underlying roots).
  transaction.underlying = chainUnderlying(transaction);
  if (row.amount === undefined && fill) {
    // The ledger's gross (price × quantity × multiplier, to a minor unit); buys pay it and the costs, sells receive it less them.
    const grossMinor = Math.round(transaction.priceMinor * transaction.quantity * transaction.multiplier);
    const costsMinor = transaction.commissionMinor + transaction.feesMinor;
    const amountMinor = row.type.startsWith('BUY') ? -(grossMinor + costsMinor) : grossMinor - costsMinor;
    // A computed figure is held to the range of a typed one (bounds.ts): 1e9 × $1e9 was stored, then a 500 (issue 29).
    if (!(Math.abs(amountMinor) <= MAX_MONEY_MINOR)) {
      fail('amount', `the cash price × quantity × multiplier comes to ${formatUnits(amountMinor)}, beyond the ±${formatUnits(MAX_MONEY_MINOR)} a figure may hold: check quantity and price, or give the amount`);
      return null;
    }
    transaction.amountMinor = asMinor(amountMinor);
  }
  return transaction;
}
