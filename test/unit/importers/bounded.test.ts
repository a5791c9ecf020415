/**
 * What a hostile file can make the parsers keep (docs/importers.md §Bounded; issue 16, findings 2 and 3): at most
 * 1,000 errors per file and one entry counting the rest, messages of one line, skipped lines and warnings counted by
 * reason with the first of each kept, and a stored report of at most 64 KB. Before this every bad line was an error
 * object (a 49 MB file peaked at 4.9 GB) and every skipped line went into the report (a 46 MB file, a 43 MB report).
 */
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../src-main/chains/index';
import { MAX_KEPT_ERRORS, ResultCollector } from '../../../src-main/importers/common/result';
import { parseImport } from '../../../src-main/importers/index';
import { boundReport, MAX_REPORT_BYTES, NO_NOTES, OTHER_REASONS, readStoredReport, utf8Length } from '../../../src-shared/journal/import-report';
import { MAX_MESSAGE_CHARS } from '../../../src-shared/text';

const OPTIONS = { accountName: 'Mine', asOf: new Date('2026-01-01T00:00:00Z') };
const GENERIC_HEADER = 'date,type,symbol,quantity,price,amount';
const WEBULL_HEADER = 'Name,Symbol,Side,Status,Filled,Total Qty,Price,Avg Price,Time-in-Force,Placed Time,Filled Time';
const cancelled = (i: number) => `SPY 240315 Call 480.00,SPY240315C00480000,Buy,Cancelled,0,2,@6.20,,DAY,01/10/2024 09:${String(i % 60).padStart(2, '0')}:10 EST,`;

describe('errors: the first 1,000 and one entry counting the rest', () => {
  it('a broker file of 5,000 bad lines keeps 1,000 errors, counts 5,000, and says so at the first line not listed', () => {
    const lines = Array.from({ length: 5_000 }, () => '2024-01-02,BUY,PFE,x,1,-1');
    const parsed = parseImport(`${GENERIC_HEADER}\n${lines.join('\n')}\n`, 'generic', OPTIONS);
    if (!parsed.ok) throw new Error(parsed.detail);
    const { errors, errorCount } = parsed.result;
    expect(errorCount, 'every bad line is counted').toBe(5_000);
    expect(errors, '1,000 kept and one entry for the rest').toHaveLength(MAX_KEPT_ERRORS + 1);
    expect(errors[999]).toEqual({ line: 1_001, message: 'column "quantity": not a number: "x"' });
    expect(errors[1_000]).toEqual({ line: 1_002, message: 'and 4,000 more errors (5,000 in all; only the first 1,000 are listed)' });
  });

  it('a chain file of 5,000 bad rows keeps 1,000 errors and counts them all (it stopped at 50 and counted none)', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => `2024-01-19,${100 + i},C,x,0.2`);
    const parsed = parseChainFile(`# spot: 100\n# quoteTime: 2024-01-05T16:00\nexpiration,strike,right,openInterest,iv\n${rows.join('\n')}\n`);
    if (parsed.ok) throw new Error('expected a refusal');
    expect(parsed.errorCount).toBe(5_000);
    expect(parsed.errors).toHaveLength(1_001);
    expect(parsed.errors[1_000]).toEqual({ line: null, message: 'and 4,000 more errors (5,000 in all; only the first 1,000 are listed)' });
  });

  it('a message quoting a huge cell stays one line (the cell is cut, the message at most 300 characters)', () => {
    const parsed = parseImport(`${GENERIC_HEADER}\n2024-01-02,BUY,PFE,${'9'.repeat(1_000_000)}x,1,-1\n`, 'generic', OPTIONS);
    if (!parsed.ok) throw new Error(parsed.detail);
    const message = parsed.result.errors[0]?.message ?? '';
    expect(message).toMatch(/^column "quantity": not a number: "9{59}…"$/);
    const collector = new ResultCollector('generic', 'generic-csv', 'oldest-first');
    collector.error(1, 'x'.repeat(10_000));
    expect(collector.result().errors[0]?.message).toHaveLength(MAX_MESSAGE_CHARS);
  });
});

describe('skipped lines: counted by reason, the first of each kept', () => {
  it('a Webull export of 30,000 cancelled orders counts them, keeps the first 1,000 lines and one reason', () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => cancelled(i));
    const parsed = parseImport(`${WEBULL_HEADER}\n${rows.join('\n')}\n`, 'webull', OPTIONS);
    if (!parsed.ok) throw new Error(parsed.detail);
    const result = parsed.result;
    expect([result.skippedCount, result.skipped.length]).toEqual([30_000, 1_000]);
    expect(result.skippedReasons).toEqual([{ reason: 'order Cancelled (buy SPY240315C00480000): nothing filled', count: 30_000 }]);
  });
});

describe('the stored report: counts and the first lines of each reason, at most 64 KB', () => {
  const record = { id: 1, broker: 'webull', source: 'webull-csv', filename: 'f.csv', createdAt: '2026-01-01T00:00:00.000Z', accounts: [{ id: 'a', name: 'Mine' }], rows: 30_000, imported: 10, duplicates: 0 };

  it('keeps five lines of each reason and every count', () => {
    const skipped = Array.from({ length: 30_000 }, (_, i) => ({ line: i + 2, reason: i % 2 === 0 ? 'nothing filled' : 'strategy order' }));
    const report = boundReport(record, { skipped, skippedCount: 30_000, skippedReasons: [{ reason: 'nothing filled', count: 15_000 }, { reason: 'strategy order', count: 15_000 }], warnings: [], warningCount: 0 });
    expect(report.skipped.map((s) => s.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect([report.skippedCount, report.skippedReasons.map((r) => r.count)]).toEqual([30_000, [15_000, 15_000]]);
  });

  it('stays under 64 KB however many reasons, long messages and accounts a file has', () => {
    const reasons = Array.from({ length: 100 }, (_, i) => ({ reason: `${i} ${'r'.repeat(296)}`, count: 10 }));
    const skipped = reasons.flatMap((r, i) => Array.from({ length: 10 }, (_, k) => ({ line: i * 10 + k, reason: r.reason })));
    const accounts = Array.from({ length: 1_000 }, (_, i) => ({ id: `acc_${i}`, name: `${i} ${'n'.repeat(190)}` }));
    const warnings = skipped.map((s) => ({ line: s.line, message: s.reason }));
    const report = boundReport({ ...record, accounts }, { skipped, skippedCount: 1_000 + 5, skippedReasons: reasons, warnings, warningCount: 1_000 });
    const bytes = utf8Length(JSON.stringify(report));
    expect(bytes, `${bytes} bytes`).toBeLessThanOrEqual(MAX_REPORT_BYTES);
    expect(report.skippedCount).toBe(1_005);
    expect(report.skippedReasons.at(-1), 'the reasons not listed are counted together').toEqual({ reason: OTHER_REASONS, count: 1_005 - report.skippedReasons.slice(0, -1).reduce((sum, r) => sum + r.count, 0) });
  });

  it('a re-import of a file already imported (nothing new) keeps the counts and no lines', () => {
    const skipped = [{ line: 2, reason: 'nothing filled' }];
    const report = boundReport({ ...record, imported: 0 }, { skipped, skippedCount: 1, skippedReasons: [{ reason: 'nothing filled', count: 1 }], warnings: [{ line: 3, message: 'w' }], warningCount: 1 }, false);
    expect([report.skipped, report.warnings, report.skippedCount, report.warningCount]).toEqual([[], [], 1, 1]);
  });

  it('a report stored before (every skipped line, no counts) reads back bounded, its counts from its lists', () => {
    const old = { ...record, skipped: Array.from({ length: 40_000 }, (_, i) => ({ line: i + 2, reason: 'nothing filled' })), warnings: [{ line: null, message: 'one' }] };
    const json = JSON.stringify(old);
    expect(utf8Length(json)).toBeGreaterThan(1_000_000);
    const report = readStoredReport(json);
    expect([report.skippedCount, report.skipped.length, report.skippedReasons, report.warningCount]).toEqual([40_000, 5, [{ reason: 'nothing filled', count: 40_000 }], 1]);
    expect(readStoredReport('not json'), 'a damaged report reads as an empty one').toMatchObject({ skipped: [], skippedCount: 0, accounts: [] });
    expect(boundReport(record, NO_NOTES).skippedReasons).toEqual([]);
  });
});
