import type { ImportFormatMappingT } from '../src-shared/api/schemas';

/**
 * The generic CSV's columns (docs/importers.md, "Generic CSV") mapped by hand as a user would in the Import page:
 * types are the cells' own names (no words needed), ids are row ids. A saved format built on it must read a generic
 * file exactly as the generic importer does (the conformance test) and about as fast (the custom-format bench).
 */
export function genericColumnsMapping(zone: 'utc' | 'new-york', withOptionColumns: boolean): ImportFormatMappingT {
  return {
    date: { column: 'date', layout: 'YYYY-MM-DD', zone },
    type: { column: 'type', words: [] },
    symbol: 'symbol',
    ...(withOptionColumns ? { option: { root: 'symbol', expiration: 'expiration', strike: 'strike', right: 'right' } } : {}),
    quantity: 'quantity',
    price: 'price',
    multiplier: 'multiplier',
    commission: 'commission',
    fees: 'fees',
    amount: { column: 'amount', sign: 'as-written' },
    account: 'account',
    currency: 'currency',
    description: 'description',
    orderId: 'orderId',
    rowId: 'id',
  };
}
