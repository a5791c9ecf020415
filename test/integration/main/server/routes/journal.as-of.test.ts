/**
 * A date `asOf` means the END of that day in the journal's zone (docs/journal.md §Positions; docs/conventions.md
 * §Date grammar): a position opened at 15:59:30 New York on 2025-07-15 is open "as of 2025-07-15", not as of the day
 * before, nor as of 15:00 that day. Pinned at the route and at the journal service (the worker's read), so that a
 * date read as the start of its day (a mutant that survived the whole run before, issue 31) fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PositionsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';

const t = useTestApp();

async function koAt(asOf: string): Promise<{ quantity: number | null; asOf: string }> {
  const answer = await t.get<PositionsResponseT>(`/v1/journal/positions?asOf=${encodeURIComponent(asOf)}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const ko = answer.body.positions.find((p) => p.symbol === 'KO');
  return { quantity: ko?.quantity ?? null, asOf: answer.body.asOf };
}

describe('asOf as a date', () => {
  // One opening at 15:59:30 New York on 2025-07-15 (19:59:30Z, EDT).
  beforeAll(async () => {
    const answer = await t.request({ method: 'POST', url: '/v1/journal/transactions', payload: { transactions: [{ account: 'AsOf', type: 'BUY', symbol: 'KO', quantity: 10, price: 60, date: '2025-07-15', time: '15:59:30' }] } });
    if (answer.statusCode !== 201) throw new Error(`the opening was not stored: ${answer.body}`);
  });

  it('at the route: the date is the end of that day (its last millisecond, 2025-07-16 03:59:59.999Z)', async () => {
    expect(await koAt('2025-07-15')).toEqual({ quantity: 10, asOf: '2025-07-16T03:59:59.999Z' });
    expect((await koAt('2025-07-14')).quantity).toBeNull();
    // An instant is that instant: 15:00 New York is before the fill, 16:00 after it.
    expect((await koAt('2025-07-15T15:00')).quantity).toBeNull();
    expect((await koAt('2025-07-15T16:00')).quantity).toBe(10);
  });

  it('at the service: the journal reads the date the same way', async () => {
    const onTheDay = await t.ctx.journal.positions({ asOf: '2025-07-15' });
    if (!onTheDay.ok) throw new Error(JSON.stringify(onTheDay.error));
    expect(onTheDay.value.asOf).toBe('2025-07-16T03:59:59.999Z');
    expect(onTheDay.value.positions.map((p) => [p.position.symbol, p.position.quantity])).toEqual([['KO', 10]]);
    const before = await t.ctx.journal.positions({ asOf: '2025-07-14' });
    if (!before.ok) throw new Error(JSON.stringify(before.error));
    expect(before.value.positions).toEqual([]);
  });
});
