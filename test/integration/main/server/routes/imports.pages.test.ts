/** `GET /v1/imports` is paginated like /journal/transactions (issue 8: a long history is never sent whole). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportsResponseT } from '../../../../../src-shared/api/schemas';
import { buildTestApp, type TestApp } from '../../../../helper';

const FILES = 30;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  for (let i = 1; i <= FILES; i += 1) {
    const csv = `id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency\nrow-${i},2024-03-04T15:00:00Z,pages,BUY,SPY,SPY,1,500,0,0,-500,USD\n`;
    const response = await t.request({ method: 'POST', url: `/v1/imports?broker=generic&filename=f${i}.csv`, headers: { 'content-type': 'text/csv' }, payload: csv });
    expect(response.statusCode).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /v1/imports pages', () => {
  it('25 per page by default, newest first, with pagination; pages join up to the whole history', async () => {
    const first = await t.get<ImportsResponseT>('/v1/imports');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({ page: 1, limit: 25, total: FILES, pages: 2 });
    expect(first.body.imports).toHaveLength(25);
    const second = await t.get<ImportsResponseT>('/v1/imports?page=2');
    expect(second.body.pagination).toEqual({ page: 2, limit: 25, total: FILES, pages: 2 });
    const names = [...first.body.imports, ...second.body.imports].map((i) => i.filename);
    expect(names).toEqual(Array.from({ length: FILES }, (_, i) => `f${FILES - i}.csv`));
  });

  it('limit is clamped to 100; a page past the end is empty; bad values are 400 naming the parameter', async () => {
    expect((await t.get<ImportsResponseT>('/v1/imports?limit=1000')).body.pagination).toEqual({ page: 1, limit: 100, total: FILES, pages: 1 });
    const past = await t.get<ImportsResponseT>('/v1/imports?page=9&limit=10');
    expect(past.body).toMatchObject({ imports: [], pagination: { page: 9, limit: 10, total: FILES, pages: 3 } });
    for (const [query, param] of [['page=0', 'page'], ['limit=0', 'limit'], ['limit=abc', 'limit'], ['sort=asc', 'sort']] as const) {
      const bad = await t.get<{ code: string; errors: Array<{ param: string }> }>(`/v1/imports?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.errors.map((e) => e.param)).toContain(param);
    }
  });
});
