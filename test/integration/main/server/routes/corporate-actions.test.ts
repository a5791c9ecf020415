/**
 * Corporate actions through the API, in-process (docs/journal.md §Corporate actions): a Robinhood history whose export
 * left out the SPAC merger's rows (IPOE → SOFI), fixed by an action entered by hand (POST), changed (PUT), deleted,
 * undone with its import; the same action then read from the file applies once. Figures by hand in
 * test/integration/main/importers/robinhood/robinhood.corporate-actions.test.ts (the whole file): 2021 realized 248.44.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorporateActionDeleteResponseT, CorporateActionJsonT, CorporateActionsResponseT, CorporateActionWriteResponseT, ImportReport, PositionsResponseT, SummaryResponseT } from '../../../../../src-shared/api/schemas';
import { accountIdFor } from '../../../../../src-main/services/journal/service';
import { REPO_ROOT, useTestApp } from '../../../../helper';

const WHOLE = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/robinhood_spac_merger_selfwritten.csv'), 'utf8');
/** The file without the merger's rows (an export that left them out): its records are the lines with SXCH / OCA. */
const WITHOUT_MERGER = WHOLE.replace(/"6\/1\/2021"[^\n]*(?:\n(?!")[^\n]*)?\n/g, (record) => (/"(?:SXCH|OCA)"/.test(record) ? '' : record));

// A new app for every `it`: each replays the steps of the story it needs (the named functions below).
const t = useTestApp({}, 'each');
const ACCOUNT = accountIdFor('robinhood-csv', 'Robinhood');
const IPOE_TO_SOFI = { type: 'symbol_change', symbol: 'ipoe', newSymbol: 'SOFI', date: '2021-06-01', note: 'SPAC merger' };

interface Problem {
  code: string;
  errors?: Array<{ param: string; message: string }>;
}

function send(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  return t.request({ method, url, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }) });
}

async function upload(text: string): Promise<ImportReport> {
  const response = await t.request({ method: 'POST', url: '/v1/imports?filename=activity.csv', headers: { 'content-type': 'text/csv' }, payload: text });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ImportReport>();
}

async function realized(year: number): Promise<number> {
  return (await t.get<SummaryResponseT>(`/v1/journal/summary?year=${year}`)).body.stats.totalRealizedPnl;
}

async function held(asOf = '2021-06-05'): Promise<string[]> {
  const { body } = await t.get<PositionsResponseT>(`/v1/journal/positions?asOf=${asOf}`);
  return body.positions.map((p) => `${p.symbol} ${p.quantity}`).sort();
}

async function actions(): Promise<CorporateActionJsonT[]> {
  return (await t.get<CorporateActionsResponseT>('/v1/journal/corporate-actions?limit=100')).body.corporateActions;
}

describe('a corporate action entered by hand, over HTTP', () => {
  /** The activity file without its merger rows. */
  async function fileWithoutMerger(): Promise<void> {
    expect(WITHOUT_MERGER.split('\n').length, 'four records (six lines) fewer').toBe(WHOLE.split('\n').length - 6);
    await upload(WITHOUT_MERGER);
    expect(await held(), 'IPOE and its put still open after the merger').toEqual(['HLX 1', 'IPOE 300', 'IPOE210618P00020000 -1', 'NAKD 105']);
  }

  /** Then the symbol change entered by hand. */
  async function enteredByHand(): Promise<CorporateActionWriteResponseT> {
    const response = await send('POST', '/v1/journal/corporate-actions', IPOE_TO_SOFI);
    expect(response.statusCode, response.body).toBe(201);
    const written = response.json<CorporateActionWriteResponseT>();
    expect(await held(), 'the shares and the put under SOFI').toEqual(['HLX 1', 'NAKD 105', 'SOFI 300', 'SOFI210618P00020000 -1']);
    return written;
  }

  /** Then the whole file, whose SXCH and OCA rows are the same action. */
  async function wholeFile(): Promise<void> {
    const report = await upload(WHOLE);
    expect(report.imported, 'the SXCH and OCA pairs; every other row was stored before').toBe(2);
  }

  it('without the merger rows the file leaves phantom IPOE shares and unmatched SOFI sales', async () => {
    await fileWithoutMerger();
    // Only HLX's 3.50 is known: the SOFI sales and the SOFI put's close find no lots.
    expect(await realized(2021)).toBe(3.5);
    const listed = await actions();
    expect(listed.map((a) => [a.source, a.type, a.symbol, a.outcome]), 'the file’s own actions: free HLX shares, the NAKD split').toEqual([
      ['file', 'split', 'NAKD', 'applied'],
      ['file', 'free_shares', 'HLX', 'applied'],
    ]);
  });

  it('POST the symbol change: 201 with its id and import; the lots and the put carry through, 2021 realizes 248.44', async () => {
    await fileWithoutMerger();
    const { id, importId } = await enteredByHand();
    expect(id).toBeGreaterThan(0);
    expect(await realized(2021), '125 + 3.50 + 119.94').toBe(248.44);
    expect(await realized(2022), '−375 − 1 − 10').toBe(-386);
    const [entered] = (await actions()).filter((a) => a.source === 'manual');
    expect(entered).toMatchObject({ id, importId, accountId: null, date: '2021-06-01', type: 'symbol_change', symbol: 'IPOE', newSymbol: 'SOFI', ratio: null, note: 'SPAC merger', outcome: 'applied', appliedTo: [ACCOUNT] });
    const imports = (await t.get<{ imports: ImportReport[] }>('/v1/imports')).body.imports;
    expect(imports[0], 'an import of its own, of kind manual').toMatchObject({ id: importId, kind: 'manual', source: 'manual-action', rows: 1 });
  });

  it('PUT changes it (a 2-for-1 merger leaves 300 SOFI open); PUT back; id and import stay', async () => {
    await fileWithoutMerger();
    const { id, importId } = await enteredByHand();
    const changed = await send('PUT', `/v1/journal/corporate-actions/${id}`, { ...IPOE_TO_SOFI, type: 'merger', ratio: 2 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<CorporateActionWriteResponseT>()).toEqual({ id, importId });
    expect(await held('2022-12-31'), '600 SOFI − 250 − 50').toEqual(['SOFI 300']);
    const back = await send('PUT', `/v1/journal/corporate-actions/${id}`, IPOE_TO_SOFI);
    expect(back.statusCode).toBe(200);
    expect(await held('2022-12-31')).toEqual([]);
  });

  it('the same action read from the file (its SXCH and OCA rows) applies once: the one entered by hand', async () => {
    await fileWithoutMerger();
    await enteredByHand();
    await wholeFile();
    expect(await realized(2021), 'unchanged: not applied twice').toBe(248.44);
    const listed = await actions();
    expect(listed.filter((a) => a.symbol === 'IPOE').map((a) => [a.source, a.outcome])).toEqual([
      ['manual', 'applied'],
      ['file', 'duplicate'],
    ]);
  });

  it('DELETE it: the file’s action applies instead, the figures stay', async () => {
    await fileWithoutMerger();
    const { id, importId } = await enteredByHand();
    await wholeFile();
    const response = await send('DELETE', `/v1/journal/corporate-actions/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<CorporateActionDeleteResponseT>()).toEqual({ id, importId, importRemoved: true });
    expect(await realized(2021)).toBe(248.44);
    expect((await actions()).filter((a) => a.symbol === 'IPOE').map((a) => [a.source, a.outcome])).toEqual([['file', 'applied']]);
    expect((await send('DELETE', `/v1/journal/corporate-actions/${id}`)).statusCode, 'gone').toBe(404);
  });

  it('an action undone with its import (DELETE /v1/imports/{id}) is gone from the list and the figures', async () => {
    await fileWithoutMerger();
    await enteredByHand();
    const response = await send('POST', '/v1/journal/corporate-actions', { type: 'split', symbol: 'SOFI', ratio: 2, date: '2021-06-05', accountId: ACCOUNT });
    expect(response.statusCode, response.body).toBe(201);
    const added = response.json<CorporateActionWriteResponseT>();
    expect(await held('2021-06-07'), 'SOFI doubled, the put 2 contracts at 10').toEqual(['HLX 1', 'NAKD 105', 'SOFI 600', 'SOFI210618P00010000 -2']);
    expect((await t.request({ method: 'DELETE', url: `/v1/imports/${added.importId}` })).statusCode).toBe(200);
    expect((await actions()).some((a) => a.id === added.id)).toBe(false);
    expect(await held('2021-06-07')).toEqual(['HLX 1', 'NAKD 105', 'SOFI 300', 'SOFI210618P00020000 -1']);
  });

  it('refuses what an action of its kind cannot take, naming the field; an unknown id is 404', async () => {
    const cases: Array<[unknown, string]> = [
      [{ type: 'split', symbol: 'X', date: '2024-01-02' }, 'ratio'],
      [{ type: 'spinoff', symbol: 'X', newSymbol: 'Y', ratio: 0.5, date: '2024-01-02' }, 'costFraction'],
      [{ type: 'free_shares', symbol: 'X', quantity: 1, date: '2024-01-02' }, 'accountId'],
      [{ type: 'symbol_change', symbol: 'X', newSymbol: 'X', date: '2024-01-02' }, 'newSymbol'],
      [{ type: 'stock_dividend', symbol: 'X', ratio: 0.05, costFraction: 0.1, date: '2024-01-02' }, 'costFraction'],
      [{ type: 'split', symbol: 'X', ratio: 2, date: '2024-01-02', accountId: 'acc_nope' }, 'accountId'],
      [{ type: 'split', symbol: 'X', ratio: 2, date: '2024-02-30' }, 'date'],
      [{ type: 'split', symbol: 'X', ratio: -2, date: '2024-01-02' }, 'ratio'],
      [{ type: 'dividend', symbol: 'X', date: '2024-01-02' }, 'type'],
    ];
    for (const [body, param] of cases) {
      const response = await send('POST', '/v1/journal/corporate-actions', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<Problem>().errors?.map((e) => e.param), JSON.stringify(body)).toContain(param);
    }
    expect((await send('PUT', '/v1/journal/corporate-actions/987654', IPOE_TO_SOFI)).statusCode).toBe(404);
    expect(t.ctx.db.prepare('SELECT COUNT(*) FROM corporate_actions').pluck().get(), 'nothing stored').toBe(0);
  });
});
