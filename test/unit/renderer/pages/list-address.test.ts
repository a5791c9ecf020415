/** The journal lists' addresses (src-renderer/pages/list-address.ts): read leniently, written with only what differs from the defaults. */
import { describe, expect, it } from 'vitest';
import { listAddressQuery, readListAddress } from '../../../../src-renderer/pages/list-address';

describe('list addresses', () => {
  it('reads the status, account and page, and falls back to the defaults for anything it cannot read', () => {
    expect(readListAddress(new URLSearchParams('status=open&accountId=acc_1&page=3'))).toEqual({ status: 'open', accountId: 'acc_1', page: 3 });
    for (const bad of ['status=OPEN&page=0', 'status=x&page=-2', 'page=1.5', 'page=abc', '']) {
      expect(readListAddress(new URLSearchParams(bad)), `a stale or hand-edited address still shows the list: ${bad}`).toEqual({ status: 'all', accountId: '', page: 1 });
    }
  });

  it('writes only what differs from the defaults, in the state\'s order', () => {
    expect(listAddressQuery({ status: 'all', accountId: '', page: 1, asOf: '' }), 'a plain list has a plain address').toEqual({});
    const query = listAddressQuery({ status: 'closed', strategy: 'iron_condor', tag: '', accountId: 'acc_2', page: 2, trade: 't1' });
    expect(query).toEqual({ status: 'closed', strategy: 'iron_condor', accountId: 'acc_2', page: '2', trade: 't1' });
    expect(Object.keys(query)).toEqual(['status', 'strategy', 'accountId', 'page', 'trade']);
  });

  it('reads back what it writes', () => {
    const state = { status: 'open' as const, accountId: 'acc 3/x', page: 7 };
    expect(readListAddress(new URLSearchParams(listAddressQuery(state)))).toEqual(state);
  });
});
