/**
 * Manual entries within the journal's ranges (issue 29, finding 6): a fill whose computed cash overflows the money
 * range (1e9 × $1e9, no amount) was a 500; a date was bounded on its text, so an offset stored 2201-01-01T13:00Z or
 * 1899-12-31T10:00Z. Both are now a 400 naming the field, checked on the amount as computed and on the instant after
 * the offset. A real loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MONEY_UNITS } from '../../../../../src-shared/bounds';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { tempDir } from '../../../../paths';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

interface Answer {
  status: number;
  body: { code?: string; detail?: string; errors?: Array<{ param: string; message: string }>; ids?: string[] };
}

async function send(method: 'POST' | 'PUT', path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${server.apiBaseUrl}${path}`, { method, headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

function stored(): number {
  return server.ctx.db.prepare<[], number>('SELECT COUNT(*) FROM transactions').pluck().get() ?? -1;
}

const buy = (fields: Record<string, unknown>) => ({ account: 'Bounds', type: 'BUY', symbol: 'ACME', quantity: 10, price: 5, date: '2024-03-15', ...fields });

describe('the cash a manual fill computes', () => {
  it('1e9 shares at $1e9 with no amount (cash 1e18, past the 1e11 of the money range): 400 naming amount, nothing stored', async () => {
    const before = stored();
    const answer = await send('POST', '/journal/transactions', { transactions: [buy({}), buy({ quantity: 1e9, price: 1e9 })] });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_PARAMETER');
    expect(answer.body.errors).toEqual([{ param: 'transactions.1.amount', message: expect.stringMatching(/price × quantity × multiplier/) as unknown as string }]);
    expect(answer.body.errors?.[0]?.message).toMatch(/100,000,000,000/);
    expect(stored(), 'all rows or none').toBe(before);
  });

  it('an option fill whose multiplier carries it over (1e7 contracts × $200 × 100 = 2e11): 400; at the range (5e6 × $200 × 100 = 1e11) it is stored', async () => {
    const option = (quantity: number) => buy({ type: 'BUY_TO_OPEN', expiration: '2024-06-21', strike: 100, right: 'C', quantity, price: 200 });
    const over = await send('POST', '/journal/transactions', { transactions: [option(1e7)] });
    expect(over.status).toBe(400);
    expect(over.body.errors?.[0]?.param).toBe('transactions.0.amount');
    // 5,000,000 × 200 × 100 = 100,000,000,000 exactly: the top of the range (MAX_MONEY_UNITS), still a cash figure.
    expect(5e6 * 200 * 100).toBe(MAX_MONEY_UNITS);
    const at = await send('POST', '/journal/transactions', { transactions: [option(5e6)] });
    expect(at.status, JSON.stringify(at.body)).toBe(201);
  });

  it('costs that push a sale\'s cash past the range are the amount\'s problem too; PUT is checked like POST', async () => {
    const created = await send('POST', '/journal/transactions', { transactions: [buy({})] });
    expect(created.status).toBe(201);
    const id = created.body.ids?.[0] ?? '';
    const replaced = await send('PUT', `/journal/transactions/${id}`, buy({ quantity: 1e9, price: 1e9 }));
    expect(replaced.status).toBe(400);
    expect(replaced.body.errors?.[0]?.param).toBe('amount');
  });
});

describe('manual dates on the instant after the offset', () => {
  it('2200-12-31T23:00-14:00 (2201-01-01T13:00Z) and 1900-01-01T00:00+14:00 (1899-12-31T10:00Z): 400 naming date', async () => {
    const before = stored();
    for (const date of ['2200-12-31T23:00:00-14:00', '1900-01-01T00:00:00+14:00', '2200-12-31T20:00-05:00']) {
      const answer = await send('POST', '/journal/transactions', { transactions: [{ account: 'Bounds', type: 'DEPOSIT', amount: 5, date }] });
      expect(answer.status, date).toBe(400);
      expect(answer.body.errors?.[0]?.param, date).toBe('transactions.0.date');
      expect(answer.body.errors?.[0]?.message, date).toMatch(/1900–2200/);
    }
    expect(stored()).toBe(before);
  });

  it('the edges themselves are stored: 2200-12-31T23:59:59Z, 2200-12-31T18:00-05:00, 1900-01-01T00:00Z, 1900-01-01T05:00+05:00, and the day 2200-12-31', async () => {
    for (const date of ['2200-12-31T23:59:59Z', '2200-12-31T18:00:00-05:00', '1900-01-01T00:00:00Z', '1900-01-01T05:00:00+05:00', '2200-12-31']) {
      const answer = await send('POST', '/journal/transactions', { transactions: [{ account: 'Bounds', type: 'DEPOSIT', amount: 5, date }] });
      expect(answer.status, `${date}: ${JSON.stringify(answer.body)}`).toBe(201);
    }
  });
});
