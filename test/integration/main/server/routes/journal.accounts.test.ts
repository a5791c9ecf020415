/**
 * GET /v1/journal/accounts (docs/journal.md §Accounts): the accounts that hold transactions, each with its count and
 * its first and last trade days in the journal's time zone (New York by default), read again after every write.
 */
import { describe, expect, it } from 'vitest';
import type { AccountsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';

// A journal of its own for each it: shuffled, 'is empty' read the accounts the listing test left.
const t = useTestApp({}, 'each');

async function addManual(transactions: object[]): Promise<{ importId: number }> {
  const stored = await t.request({ method: 'POST', url: '/v1/journal/transactions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactions }) });
  expect(stored.statusCode, stored.body).toBe(201);
  return stored.json<{ importId: number }>();
}

describe('GET /v1/journal/accounts', () => {
  it('is empty on an empty journal', async () => {
    const { status, body } = await t.get<AccountsResponseT>('/v1/journal/accounts');
    expect(status).toBe(200);
    expect(body).toEqual({ accounts: [], demo: false, building: false });
  });

  it('lists each account with its transactions and trade days, by name; an undone import takes its account away', async () => {
    await addManual([
      // 03:00 UTC on 1 March 2024 is 22:00 on 29 February in New York: that is its trade day.
      { account: 'Roth IRA', date: '2024-03-01T03:00:00Z', type: 'DEPOSIT', amount: 5000 },
      { account: 'Roth IRA', date: '2024-03-04T15:00:00Z', type: 'SELL_TO_OPEN', symbol: 'KO', expiration: '2024-04-19', strike: 55, right: 'P', quantity: 1, price: 0.8 },
      { account: 'Margin', date: '2024-01-02T14:00:00Z', type: 'DEPOSIT', amount: 20000 },
    ]);
    const second = await addManual([{ account: 'Cash', date: '2023-12-29T20:59:00Z', type: 'BUY', symbol: 'VTI', quantity: 2, price: 230 }]);

    const { body } = await t.get<AccountsResponseT>('/v1/journal/accounts');
    expect(body.demo).toBe(false);
    expect(body.accounts.map(({ name, transactions, firstTradeDay, lastTradeDay }) => ({ name, transactions, firstTradeDay, lastTradeDay }))).toEqual([
      { name: 'Cash', transactions: 1, firstTradeDay: '2023-12-29', lastTradeDay: '2023-12-29' },
      { name: 'Margin', transactions: 1, firstTradeDay: '2024-01-02', lastTradeDay: '2024-01-02' },
      { name: 'Roth IRA', transactions: 2, firstTradeDay: '2024-02-29', lastTradeDay: '2024-03-04' },
    ]);
    const roth = body.accounts.find((a) => a.name === 'Roth IRA');
    const filtered = await t.get<{ transactions: unknown[] }>(`/v1/journal/transactions?accountId=${encodeURIComponent(roth?.id ?? '')}`);
    expect(filtered.status, 'the id is what the journal routes take as accountId').toBe(200);
    expect(filtered.body.transactions).toHaveLength(2);

    const undone = await t.request({ method: 'DELETE', url: `/v1/imports/${second.importId}` });
    expect(undone.statusCode, undone.body).toBeLessThan(300);
    expect((await t.get<AccountsResponseT>('/v1/journal/accounts')).body.accounts.map((a) => a.name)).toEqual(['Margin', 'Roth IRA']);
  });

  it('takes no parameters', async () => {
    const { status, body } = await t.get<{ code: string }>('/v1/journal/accounts?accountId=x');
    expect(status).toBe(400);
    expect(body.code).toBe('UNKNOWN_PARAMETER');
  });
});
