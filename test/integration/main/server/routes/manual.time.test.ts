/**
 * Manual rows take an optional time (issue 27 item 11): `date` alone keeps the day's close (16:00 New York); with
 * `time`, the row is at that instant in New York, whatever the season (EST, EDT); a time beside an instant is refused
 * by name. The instants are written out by hand.
 */
import { describe, expect, it } from 'vitest';
import type { ManualTransactionsResponseT, TransactionJson, TransactionsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';

const t = useTestApp();

const row = (date: string, time?: string) => ({ account: 'Timed', type: 'BUY', symbol: 'KO', quantity: 10, price: 60, date, ...(time === undefined ? {} : { time }) });

async function post(rows: unknown[]) {
  return t.request({ method: 'POST', url: '/v1/journal/transactions', payload: { transactions: rows } });
}

describe('a manual row with a time', () => {
  it('is stored at that New York instant; a date alone at 16:00 New York', async () => {
    const answer = await post([row('2025-01-15', '09:45'), row('2025-07-15', '09:45'), row('2025-07-15', '15:59:30'), row('2025-07-16')]);
    expect(answer.statusCode, answer.body).toBe(201);
    const { ids } = answer.json<ManualTransactionsResponseT>();
    const stored = new Map((await t.get<TransactionsResponseT>('/v1/journal/transactions?symbol=KO&limit=100')).body.transactions.map((tx: TransactionJson) => [tx.id, tx]));
    // January: EST (UTC−5), 09:45 → 14:45Z. July: EDT (UTC−4), 09:45 → 13:45Z, 15:59:30 → 19:59:30Z; a bare date 16:00 → 20:00Z.
    expect(ids.map((id) => stored.get(id)?.tradeDate)).toEqual(['2025-01-15T14:45:00.000Z', '2025-07-15T13:45:00.000Z', '2025-07-15T19:59:30.000Z', '2025-07-16T20:00:00.000Z']);
    expect(ids.map((id) => stored.get(id)?.tradeDay)).toEqual(['2025-01-15', '2025-07-15', '2025-07-15', '2025-07-16']);
  });

  it('a time beside an instant, or a time that is none, is refused by name', async () => {
    const both = await post([row('2025-07-15T10:00:00-04:00', '09:45')]);
    expect(both.statusCode).toBe(400);
    expect(both.json<{ errors: Array<{ param: string; message: string }> }>().errors).toEqual([expect.objectContaining({ param: 'transactions.0.time' })]);
    const bad = await post([row('2025-07-15', '25:00')]);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('time');
  });
});
