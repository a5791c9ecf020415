/**
 * User-defined import formats through the real API (docs/importers.md, "User-defined formats"): CRUD, bounds,
 * validation naming the field, the preview (the real parser, line-numbered problems, nothing stored), detection of
 * a saved header before the built-ins, `broker=custom:<id>`, and undo.
 */
import { describe, expect, it } from 'vitest';
import { IMPORT_FORMAT_LIMITS, UNRECOGNISED_HEADER } from '../../../../../src-shared/api/constants';
import type { ImportFormatDraftT, ImportFormatJson, ImportFormatPreviewResponseT, ImportFormatsResponseT, ImportReport } from '../../../../../src-shared/api/schemas';
import type { Problem } from '../../../../../src-shared/api/errors';
import { importerList } from '../../../../../src-main/importers/index';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../../cli';
import { tempDir, useTestApp } from '../../../../helper';

// A new app for every `it`: the formats one saves are never another's (a test that needs one saves it).
const app = useTestApp({}, 'each');

const HEADER = ['Trade Day', 'Side', 'Ticker', 'Shares', 'Fill', 'Commish', 'Net'];
const FILE = [
  'My Broker export,,,,,,',
  'Trade Day,Side,Ticker,Shares,Fill,Commish,Net',
  '03/15/2024,Bought,AAPL,10,170.25,1.00,"-1,703.50"',
  '03/18/2024,Sold,AAPL,10,175.00,1.00,"1,749.00"',
  '03/19/2024,Div,AAPL,,,,2.40',
].join('\r\n');

const draft = (overrides: Partial<ImportFormatDraftT['mapping']> = {}, name = 'My Broker'): ImportFormatDraftT => ({
  name,
  header: HEADER,
  mapping: {
    date: { column: 'Trade Day', layout: 'MM/DD/YYYY', zone: 'new-york' },
    type: { column: 'Side', words: [{ word: 'Bought', type: 'BUY' }, { word: 'Sold', type: 'SELL' }] },
    symbol: 'Ticker',
    quantity: 'Shares',
    price: 'Fill',
    commission: 'Commish',
    amount: { column: 'Net', sign: 'as-written' },
    ...overrides,
  },
});

async function json<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await app.request({ method, url, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }) });
  return { status: response.statusCode, body: response.json<T>() };
}

const upload = (text: string | Buffer, query = '') => app.request({ method: 'POST', url: `/v1/imports${query}`, headers: { 'content-type': 'text/csv' }, payload: text });

const FIXED_WORDS: ImportFormatDraftT['mapping']['type']['words'] = [{ word: 'Bought', type: 'BUY' }, { word: 'Sold', type: 'SELL' }, { word: 'Div', type: 'DIVIDEND' }];

/** "My Broker" saved, its type words complete: the format the later steps of the flow use. */
async function saveFormat(): Promise<ImportFormatJson> {
  const created = await json<ImportFormatJson>('POST', '/v1/import-formats', draft({ type: { column: 'Side', words: FIXED_WORDS } }));
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('import formats: the mapping flow through the API', () => {

  it('lists the registry\'s importers (the Import page\'s broker list) and no formats at first', async () => {
    const { status, body } = await json<ImportFormatsResponseT>('GET', '/v1/import-formats');
    expect(status).toBe(200);
    expect(body.importers).toEqual(importerList());
    expect(body.formats).toEqual([]);
    expect(body.limit).toBe(IMPORT_FORMAT_LIMITS.formats);
  });

  it('an unknown text table is refused as unrecognised (the page then offers the mapping)', async () => {
    const response = await upload(FILE);
    expect(response.statusCode).toBe(422);
    const problem = response.json<Problem>();
    expect(problem.code).toBe('UNSUPPORTED_FORMAT');
    expect(problem.errors?.[0]?.message).toBe(UNRECOGNISED_HEADER);
  });

  it('the preview shows the header below the title and the first rows; with a format, the real parse and its problems', async () => {
    const columns = await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text: FILE });
    expect(columns.status).toBe(200);
    expect(columns.body.header).toEqual({ line: 2, cells: HEADER });
    expect(columns.body.sample.map((row) => row.line)).toEqual([3, 4, 5]);
    expect(columns.body.preview).toBeNull();
    expect(columns.body.detected).toBeNull();

    // "Div" is not in the words yet: one problem at line 5 naming the column; the preview still shows the good rows.
    const first = await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text: FILE, format: draft() });
    expect(first.body.preview?.errors).toEqual([{ line: 5, message: 'column "Side": "Div" is not one of the format\'s words: map it to a transaction type' }]);
    expect(first.body.preview?.transactions.map((tx) => tx.line)).toEqual([3, 4]);
    expect(first.body.preview?.words).toEqual(['Bought', 'Sold', 'Div']);
    expect(first.body.preview?.ready, 'a problem: not ready').toBe(false);

    const fixed = draft({ type: { column: 'Side', words: [{ word: 'Bought', type: 'BUY' }, { word: 'Sold', type: 'SELL' }, { word: 'div', type: 'DIVIDEND' }] } });
    const second = await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text: FILE, format: fixed });
    expect(second.body.preview?.errors).toEqual([]);
    expect(second.body.preview?.transactionCount).toBe(3);
    expect(second.body.preview?.transactions.map((tx) => [tx.line, tx.type, tx.symbol, tx.quantity, tx.price, tx.commission, tx.amount, tx.tradeDate])).toEqual([
      [3, 'BUY', 'AAPL', 10, 170.25, 1, -1703.5, '2024-03-15T20:00:00.000Z'],
      [4, 'SELL', 'AAPL', 10, 175, 1, 1749, '2024-03-18T20:00:00.000Z'],
      [5, 'DIVIDEND', 'AAPL', 0, 0, 0, 2.4, '2024-03-19T20:00:00.000Z'],
    ]);
    expect(second.body.preview?.ready).toBe(true);
    // Nothing was stored.
    expect((app.ctx.db.prepare('SELECT COUNT(*) AS n FROM transactions').get() as { n: number }).n).toBe(0);
  });

  it('a preview whose actions open and close options with no option found warns and is not ready; mapped, it is', async () => {
    const text = ['Date,Action,Instrument,Qty,Net', '07/01/2026,Sell to Open,Sell to Open DEF 08/21/2026 100.00 C,3,177.90', '07/20/2026,Buy to Close,Buy to Close DEF 08/21/2026 100.00 C,3,-29.10'].join('\n');
    const format = (symbol: string): ImportFormatDraftT => ({
      name: 'Written out',
      header: ['Date', 'Action', 'Instrument', 'Qty', 'Net'],
      mapping: {
        date: { column: 'Date', layout: 'MM/DD/YYYY', zone: 'new-york' },
        type: { column: 'Action', words: [{ word: 'Sell to Open', type: 'SELL_TO_OPEN' }, { word: 'Buy to Close', type: 'BUY_TO_CLOSE' }] },
        symbol,
        quantity: 'Qty',
        amount: { column: 'Net', sign: 'as-written' },
      },
    });
    const unmapped = (await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text, format: format('Action') })).body.preview;
    expect(unmapped?.errors).toEqual([]);
    expect(unmapped?.ready, 'options would be stored as shares').toBe(false);
    expect(unmapped?.warnings.map((w) => w.line)).toEqual([2]);
    const mapped = (await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text, format: format('Instrument') })).body.preview;
    expect(mapped?.ready).toBe(true);
    expect(mapped?.transactions.map((tx) => [tx.type, tx.symbol, tx.multiplier])).toEqual([
      ['SELL_TO_OPEN', 'DEF260821C00100000', 100],
      ['BUY_TO_CLOSE', 'DEF260821C00100000', 100],
    ]);
  });

  it('saves the format; the same header (any order) is then detected by itself, before the built-ins', async () => {
    const saved = await saveFormat();
    expect(saved).toMatchObject({ name: 'My Broker', header: HEADER, importer: `custom:${saved.id}` });
    const list = (await json<ImportFormatsResponseT>('GET', '/v1/import-formats')).body;
    expect(list.formats.map((f) => f.id)).toEqual([saved.id]);
    expect(list.importers.at(-1)).toEqual({ id: `custom:${saved.id}`, label: 'My Broker', formats: 'your mapping of 7 columns' });

    const preview = await json<ImportFormatPreviewResponseT>('POST', '/v1/import-formats/preview', { text: FILE });
    expect(preview.body.detected).toBe(`custom:${saved.id}`);

    const response = await upload(FILE, '?filename=mine.csv&account=Joint');
    expect(response.statusCode, response.body).toBe(201);
    const report = response.json<ImportReport>();
    expect(report).toMatchObject({ broker: `custom:${saved.id}`, source: 'custom-csv', rows: 3, imported: 3, duplicates: 0 });
    expect(report.accounts.map((a) => a.name)).toEqual(['Joint']);

    // Shuffled columns, named explicitly: the same rows, found as duplicates.
    const shuffled = ['Net,Commish,Fill,Shares,Ticker,Side,Trade Day', '"-1,703.50",1.00,170.25,10,AAPL,Bought,03/15/2024'].join('\n');
    const again = await upload(shuffled, `?broker=custom:${saved.id}&account=Joint`);
    expect(again.json<ImportReport>()).toMatchObject({ broker: `custom:${saved.id}`, imported: 0, duplicates: 1 });

    const undone = await json<{ id: number; removed: number }>('DELETE', `/v1/imports/${report.id}`);
    expect(undone.body).toEqual({ id: report.id, removed: 3 });
  });

  it('the CLI imports with the saved format too (--broker custom:<id>, and auto-detection)', async () => {
    const saved = await saveFormat();
    const file = join(tempDir(), 'mine.csv');
    writeFileSync(file, FILE);
    const named = runCli(['import', file, '--broker', `custom:${saved.id}`, '--account', 'CLI', '--data-dir', app.dataDir]);
    expect(named.stdout, named.stderr).toContain(`mine.csv: custom:${saved.id}, 3 rows, 3 imported`);
    const detected = runCli(['import', file, '--account', 'CLI', '--data-dir', app.dataDir]);
    expect(detected.stdout, detected.stderr).toContain(`mine.csv: custom:${saved.id}, 3 rows, 0 imported, 3 duplicates`);
    expect(runCli(['import', file, '--broker', 'custom:../x', '--data-dir', app.dataDir]).status).not.toBe(0);
  });

  it('broker=custom:<id> of no saved format is a clear 422, and a malformed one a 400', async () => {
    const unknown = await upload(FILE, '?broker=custom:abc123');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<Problem>().detail).toContain('Unknown importer "custom:abc123"');
    expect((await upload(FILE, '?broker=custom:../x')).statusCode).toBe(400);
  });

  it('validates: unknown fields, a column the header lacks, a word mapped to no type — 400 naming the field', async () => {
    const unknownField = await json<Problem>('POST', '/v1/import-formats', { ...draft(), mapping: { ...draft().mapping, strikePrice: 'Fill' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors).toEqual([{ param: 'mapping.strikePrice', message: 'is not a known field' }]);

    const missingColumn = await json<Problem>('POST', '/v1/import-formats', draft({ quantity: 'Qty' }, 'Other'));
    expect(missingColumn.status).toBe(400);
    expect(missingColumn.body.errors).toEqual([{ param: 'mapping.quantity', message: '"Qty" is not a column of the header' }]);

    const badType = await json<Problem>('POST', '/v1/import-formats', draft({ type: { column: 'Side', words: [{ word: 'Bought', type: 'PURCHASE' as 'BUY' }] } }));
    expect(badType.status).toBe(400);
    expect(badType.body.errors?.[0]?.param).toBe('mapping.type.words.0.type');

    const preview = await json<Problem>('POST', '/v1/import-formats/preview', { text: FILE, format: draft({ price: 'Nope' }) });
    expect(preview.status).toBe(400);
    expect(preview.body.errors).toEqual([{ param: 'mapping.price', message: '"Nope" is not a column of the header' }]);
  });

  it('is bounded: sizes by the schema, the count by the service (409), one format per header (409)', async () => {
    await saveFormat();
    const sameHeader = await json<Problem>('POST', '/v1/import-formats', draft({}, 'Twin'));
    expect(sameHeader.status).toBe(409);
    expect(sameHeader.body.detail).toContain('"My Broker"');

    const wide = await json<Problem>('POST', '/v1/import-formats', { ...draft(), header: Array.from({ length: IMPORT_FORMAT_LIMITS.headerColumns + 1 }, (_, i) => `c${i}`) });
    expect(wide.status).toBe(400);
    expect(wide.body.errors?.[0]?.param).toBe('header');
    const words = Array.from({ length: IMPORT_FORMAT_LIMITS.words + 1 }, (_, i) => ({ word: `w${i}`, type: 'BUY' }));
    expect((await json<Problem>('POST', '/v1/import-formats', draft({ type: { column: 'Side', words: words as ImportFormatDraftT['mapping']['type']['words'] } }))).status).toBe(400);
    expect((await json<Problem>('POST', '/v1/import-formats', draft({}, 'x'.repeat(IMPORT_FORMAT_LIMITS.nameChars + 1)))).status).toBe(400);
    const longText = await json<Problem>('POST', '/v1/import-formats/preview', { text: 'a'.repeat(IMPORT_FORMAT_LIMITS.previewChars + 1) });
    expect(longText.status).toBe(400);

    // Fill up to the cap with distinct headers; one more is refused and nothing beyond the cap is stored.
    for (let i = 1; i < IMPORT_FORMAT_LIMITS.formats; i += 1) {
      const header = [...HEADER, `Extra ${i}`];
      const created = await json<ImportFormatJson>('POST', '/v1/import-formats', { ...draft({}, `F${i}`), header });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const over = await json<Problem>('POST', '/v1/import-formats', { ...draft({}, 'One too many'), header: [...HEADER, 'Extra more'] });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('CONFLICT');
    expect((app.ctx.db.prepare('SELECT COUNT(*) AS n FROM import_formats').get() as { n: number }).n).toBe(IMPORT_FORMAT_LIMITS.formats);
  });

  it('PUT replaces a format (same id), DELETE removes it; unknown ids are 404; past imports stay', async () => {
    const saved = await saveFormat();
    const renamed = await json<ImportFormatJson>('PUT', `/v1/import-formats/${saved.id}`, draft({ type: { column: 'Side', words: FIXED_WORDS } }, 'Renamed'));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: saved.id, name: 'Renamed', createdAt: saved.createdAt });
    expect((await json<Problem>('PUT', '/v1/import-formats/nope00', draft())).status).toBe(404);

    const imported = (await upload(FILE)).json<ImportReport>();
    expect(imported.broker).toBe(`custom:${saved.id}`);
    const deleted = await json<{ id: string; deleted: boolean }>('DELETE', `/v1/import-formats/${saved.id}`);
    expect(deleted.body).toEqual({ id: saved.id, deleted: true });
    expect((await json<Problem>('DELETE', `/v1/import-formats/${saved.id}`)).status).toBe(404);
    // The header is unknown again; the import made with the format stays in the history.
    expect((await upload(FILE)).statusCode).toBe(422);
    const history = (await json<{ imports: ImportReport[] }>('GET', '/v1/imports')).body.imports;
    expect(history.map((i) => i.id)).toContain(imported.id);
  });

  it('an empty upload is named an empty file, with the broker when one is named', async () => {
    const empty = await upload('');
    expect(empty.statusCode).toBe(422);
    expect(empty.json<Problem>().detail).toBe('The file is empty: there is nothing to import.');
    expect((await upload('', '?broker=schwab')).json<Problem>().detail).toBe('The Charles Schwab file is empty: there is nothing to import.');
  });

  it('a picture sent to the preview is named as such (it has no columns to map)', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('latin1');
    const response = await json<Problem>('POST', '/v1/import-formats/preview', { text: png });
    expect(response.status).toBe(422);
    expect(response.body.detail).toContain('This is a PNG image, not a CSV export');
  });
});
