/**
 * GET /v1/imports/{id}: what a user's script reads after POST /imports — the record and the whole report of one import,
 * as the history lists it. A real loopback server and real broker files from ../shared/fixtures; the figures are read
 * from the files here (file-totals.ts, string arithmetic), never from the importer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportReport, ImportsResponseT } from '../../../../../src-shared/api/schemas';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { BROKER_FIXTURES_SHARED, tempDir } from '../../../../paths';
import { columnSum, ibkrTradeTotals, minorOf, tableRows } from '../../importers/file-totals';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

const shared = (name: string) => readFileSync(join(BROKER_FIXTURES_SHARED, name), 'utf8');
/** The 1-based lines of the file that hold `fragment`. */
const linesWith = (text: string, fragment: string) => text.split('\n').flatMap((line, index) => (line.includes(fragment) ? [index + 1] : []));
/** Cents of minor units (the wire's money). */
const cents = (minor: number) => Math.round(minor / 100) / 100;

async function call(method: string, path: string, body?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.apiBaseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'text/csv' }) },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, body: await response.json() };
}

async function imported(text: string, filename: string): Promise<ImportReport> {
  const answer = await call('POST', `/imports?filename=${filename}`, text);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as ImportReport;
}

async function one(id: number): Promise<ImportReport> {
  const answer = await call('GET', `/imports/${id}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as ImportReport;
}

describe('GET /v1/imports/{id}', () => {
  it("a real Schwab export whose Transactions Total is not the sum of its rows: every row counted, the stated total beside the journal's, differs, then acknowledged", async () => {
    const text = shared('schwab_transactions_corpactions_ghostfolio.csv');
    const dataRows = tableRows(text, 'Amount').filter((row) => row.Date !== 'Transactions Total');
    const rowsSum = columnSum(text, 'Amount', (row) => row.Date !== 'Transactions Total');
    const stated = minorOf(/^Transactions Total,+"?([^",]*(?:,\d{3})*\.\d\d)"?\s*$/m.exec(text)?.[1] ?? '');
    expect([dataRows.length, stated], 'the file: 119 rows under its header, and a total line of −26,582.91').toEqual([119, -265_829_100]);

    const posted = await imported(text, 'schwab.csv');
    const report = await one(posted.id);
    expect(report, 'what the script reads is what POST /imports answered').toEqual(posted);
    expect(report).toMatchObject({ id: posted.id, kind: 'file', broker: 'schwab', filename: 'schwab.csv', rows: dataRows.length, status: 'differs', acknowledgedAt: null });
    expect(report.imported + report.duplicates + report.skippedCount + report.mergedCount, 'every row of the file is accounted for').toBe(dataRows.length);
    // The file's own lines: a transfer out without a price is warned at its line; each two-row action (the old security
    // by CUSIP, then the new one) is one transaction, both its lines listed.
    expect(report.warnings).toContainEqual({ line: linesWith(text, ',Journaled Shares,')[0], message: expect.stringMatching(/^Journaled Shares: 877 DGLRX left the account/) });
    const twoRowActions = ['"Reverse Split"', '"Stock Merger"', '"Name Change"', '"Conversion"'].map((action) => linesWith(text, `,${action},`));
    expect(report.merged.map((group) => group.lines)).toEqual(twoRowActions);
    expect(report.mergedCount, 'one row of each pair merged into the other').toBe(twoRowActions.length);
    expect(report.warningCount).toBe(report.warnings.length);
    const total = report.reconciliation.find((row) => row.label === 'Transactions Total');
    expect(total).toMatchObject({ what: 'cash_total', broker: cents(stated), journal: cents(rowsSum), difference: cents(rowsSum - stated), ok: false });
    expect(report.reconciliationDiffers).toBeGreaterThanOrEqual(1);

    const listed = ((await call('GET', '/imports?limit=100')).body as ImportsResponseT).imports.find((item) => item.id === posted.id);
    expect(report, "the list's item, field for field").toEqual(listed);

    expect((await call('POST', `/imports/${posted.id}/acknowledge`)).status).toBe(200);
    const seen = await one(posted.id);
    expect(seen.status).toBe('acknowledged');
    expect(seen.acknowledgedAt).toEqual(expect.any(String));
  });

  it("a real IBKR statement that agrees: each Trades total it states beside the journal's, ready; imported again, the second import stored nothing new", async () => {
    const name = 'ibkr_activity_statement_2021_wheel_divstock.csv';
    const text = shared(name);
    const { totals } = ibkrTradeTotals(text);
    const first = await imported(text, name);
    const report = await one(first.id);
    expect(report).toMatchObject({ broker: 'ibkr', status: 'ready', reconciliationCount: totals.size * 2, reconciliationDiffers: 0 });
    for (const [key, minor] of totals) {
      const [category = '', currency = ''] = key.split('|');
      expect(report.reconciliation.find((row) => row.label === `Trades Total (${category}, ${currency}): Proceeds + Comm/Fee`)?.broker, key).toBe(cents(minor));
    }
    const again = await one((await imported(text, name)).id);
    expect(again).toMatchObject({ rows: report.rows, imported: 0, duplicates: report.imported });
  });

  it('an unknown id is 404 NOT_FOUND; an id that is no positive integer is refused by the params schema; an undone import is gone', async () => {
    expect(await call('GET', '/imports/987654')).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    for (const id of ['0', 'abc', '1.5', '-3']) {
      const answer = await call('GET', `/imports/${id}`);
      expect(answer.status, id).toBe(400);
      expect(answer.body, id).toMatchObject({ code: 'INVALID_PARAMETER' });
    }
    const posted = await imported(shared('schwab_transactions_corpactions_ghostfolio.csv'), 'again.csv');
    expect((await call('DELETE', `/imports/${posted.id}`)).status).toBe(200);
    expect((await call('GET', `/imports/${posted.id}`)).status).toBe(404);
  });
});
