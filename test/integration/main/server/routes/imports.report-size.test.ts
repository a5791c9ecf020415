/**
 * Stored import reports are bounded (docs/importers.md §Bounded; issue 16, finding 3): counts and the first lines of
 * each reason, at most 64 KB, and a re-import of a file already imported keeps counts alone. Before, each report kept
 * every skipped line: one 46 MB export of cancelled orders stored 43 MB, six made a 260 MB page of /v1/imports.
 */
import { describe, expect, it } from 'vitest';
import type { ImportReport, ImportsResponseT } from '../../../../../src-shared/api/schemas';
import { useTestApp } from '../../../../helper';

const t = useTestApp();
const HEADER = 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time';
const FILLED = 'Apple Inc,AAPL,Buy,Filled,200,200,180.00,180.00,DAY,01/22/2024 09:30:00 EST,01/22/2024 09:30:00 EST';
const cancelled = (i: number) => `SPY 240315 Call 480.00,SPY240315C00480000,Buy,Cancelled,0,2,@6.20,,DAY,01/10/2024 ${String(9 + (i % 7)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:10 EST,`;
const ORDERS = 50_000;
const FILE = [HEADER, FILLED, ...Array.from({ length: ORDERS }, (_, i) => cancelled(i))].join('\n');

/** The stored report's size in bytes (as SQLite holds it). */
const storedBytes = (): number => Number(t.ctx.db.prepare('SELECT length(CAST(report_json AS BLOB)) FROM imports ORDER BY id DESC LIMIT 1').pluck().get());

describe('the report of an import of 50,000 cancelled orders', () => {
  it('counts them all, keeps the first lines of each reason, and is stored in at most 64 KB', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/imports?broker=webull&filename=orders.csv', headers: { 'content-type': 'text/csv' }, payload: FILE });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(201);
    const report = response.json<ImportReport>();
    expect([report.imported, report.skippedCount, report.skipped.length]).toEqual([1, ORDERS, 5]);
    expect(report.skippedReasons).toEqual([{ reason: 'order Cancelled (buy SPY240315C00480000): nothing filled', count: ORDERS }]);
    const listed = await t.get<ImportsResponseT>('/v1/imports');
    const stored = listed.body.imports[0];
    expect(stored?.skippedCount).toBe(ORDERS);
    expect(Buffer.byteLength(JSON.stringify(stored)), 'the report as listed').toBeLessThanOrEqual(64 * 1024);
    expect(Buffer.byteLength(listed.response.body), 'a page of the history').toBeLessThanOrEqual(64 * 1024);
    expect(storedBytes(), 'the report as stored').toBeLessThanOrEqual(64 * 1024);
  });

  it('a second import of the same file stores a short report: counts and reasons, no lines', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/imports?broker=webull&filename=orders-again.csv', headers: { 'content-type': 'text/csv' }, payload: FILE });
    expect(response.statusCode).toBe(201);
    const report = response.json<ImportReport>();
    expect([report.imported, report.duplicates, report.skippedCount, report.skipped.length, report.skippedReasons.length]).toEqual([0, 1, ORDERS, 0, 1]);
    expect(Buffer.byteLength(response.body)).toBeLessThan(2 * 1024);
    expect(storedBytes(), 'the report as stored').toBeLessThan(2 * 1024);
  });
});
