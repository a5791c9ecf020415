/**
 * The address of a journal list (`#/trades?status=open&accountId=…&page=2`): what the Trades and Campaigns pages keep
 * in it, read back leniently (a hand-edited or stale address shows the list, not an error) and written with only what
 * differs from the defaults, so that a plain list has a plain address.
 */
/** The status filter of the campaigns' and the trades' lists (their `status` query). */
export type StatusFilter = 'open' | 'closed' | 'all';

/** What every list keeps in its address. */
export interface ListAddress {
  status: StatusFilter;
  accountId: string;
  page: number;
}

export function readListAddress(params: URLSearchParams): ListAddress {
  const status = params.get('status');
  const page = Number(params.get('page') ?? '1');
  return {
    status: status === 'open' || status === 'closed' ? status : 'all',
    accountId: params.get('accountId') ?? '',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** A list's state as address parameters, in its order: a field at its default (`''`, status `all`, page 1) is left out. */
export function listAddressQuery<S extends ListAddress & Record<keyof S, string | number>>(state: S): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries<string | number>(state)) {
    if (value === '' || (name === 'status' && value === 'all') || (name === 'page' && value === 1)) continue;
    query[name] = String(value);
  }
  return query;
}
